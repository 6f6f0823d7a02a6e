import { useState } from 'react';
import { Icon } from '../../../components/icons.tsx';
import { useJobEdit } from './context.ts';
import { DeliveryOptions } from './DeliveryOptions.tsx';
import { CheckField, FieldRow, ListError, NumberField, SelectField, SwitchField, TextField } from './fields.tsx';
import { SEGMENTED_TYPES, TS_TYPES, type OutputValue } from './jobFormModel.ts';
import { OutputAdsDrmFields } from './OutputAdsDrmFields.tsx';
import { describeLink, SrtLinkModal } from './SrtLinkModal.tsx';

const PLACEHOLDERS = '{SRC_SUB_DIR}, {SRC_FILE_TITLE}, {SRC_FILE_EXT}';

/** How many programs an output may carry: one per profile of an adaptive encoding, else one. */
export function programLimit(values: { adaptive: boolean; profiles: readonly unknown[] }, kind: string): number {
  return Math.max(1, kind === 'encoding' && values.adaptive ? values.profiles.length : 1);
}

/** MPEG-TS programs: a new one only while programs are fewer than profiles (spec 01 §5). */
function MpegTsPrograms({ index }: { index: number }) {
  const { form, kind } = useJobEdit();
  const path = `outputs.${index}.mpegTsPrograms`;
  const programs = form.values.outputs[index].mpegTsPrograms;
  const limit = programLimit(form.values, kind);
  const profileOptions = kind === 'encoding' && form.values.adaptive ? form.values.profiles.map((p, i) => ({ value: i, label: `Profile ${i + 1} (${p.width}x${p.height})` })) : [];
  const add = () =>
    form.update<OutputValue['mpegTsPrograms']>(path, (list) => {
      const used = new Set(list.map((p) => p.number));
      let number = 1;
      while (used.has(number)) number++;
      return [...list, { number, ...(profileOptions.length > 0 ? { profile: list.length } : {}) }];
    });

  return (
    <div className="programs">
      <div className="subsection-header">
        <h4>MPEG-TS programs</h4>
        {programs.length < limit ? (
          <button type="button" className="button button-secondary button-small" onClick={add}>
            <Icon name="plus" size={14} /> Add program
          </button>
        ) : (
          <span className="field-hint">A new program can be added only while programs are fewer than profiles.</span>
        )}
      </div>
      <ListError path={path} />
      {programs.length === 0 && <p className="muted">One program, numbered by the muxer.</p>}
      {programs.map((_, i) => (
        <div key={i} className="item-row">
          <NumberField path={`${path}.${i}.number`} label="Program number" required min={1} max={65535} />
          <TextField path={`${path}.${i}.name`} label="Service name" />
          {profileOptions.length > 0 && <SelectField path={`${path}.${i}.profile`} label="Profile" options={profileOptions} numeric placeholder="All" />}
          <button
            type="button"
            className="icon-button icon-button-danger item-row-remove"
            aria-label={`Remove program ${i + 1}`}
            title="Remove program"
            onClick={() => form.update<OutputValue['mpegTsPrograms']>(path, (list) => list.filter((__, j) => j !== i))}
          >
            <Icon name="trash" />
          </button>
        </div>
      ))}
    </div>
  );
}

/** The link of an SRT output, edited in the SRT link editor. */
function SrtLinkField({ index }: { index: number }) {
  const { form, disabled } = useJobEdit();
  const [open, setOpen] = useState(false);
  const output = form.values.outputs[index];
  const error =
    form.errorOf(`outputs.${index}.uri`) ?? form.errorOf(`outputs.${index}.port`) ?? form.errorOf(`outputs.${index}.srtStreamId`) ?? form.errorOf(`outputs.${index}.secured.passphrase`);
  return (
    <div className={`field srt-link${error ? ' has-error' : ''}`}>
      <span className="field-label">
        SRT link <span className="required-mark">*</span>
      </span>
      <div className="srt-link-row">
        <code className="srt-link-text">{describeLink(output)}</code>
        <button type="button" className="button button-secondary" onClick={() => setOpen(true)} disabled={disabled}>
          Edit link
        </button>
      </div>
      {error && (
        <div className="field-error" role="alert">
          {error}
        </div>
      )}
      {open && (
        <SrtLinkModal
          output={output}
          onClose={() => setOpen(false)}
          onApply={(next) => {
            form.set(`outputs.${index}`, next);
            form.touch(`outputs.${index}.uri`);
            setOpen(false);
          }}
        />
      )}
    </div>
  );
}

/** The options of a segmented (HLS, DASH, CMAF) output. */
function SegmentedFields({ index, output }: { index: number; output: OutputValue }) {
  const { form, kind } = useJobEdit();
  const at = (field: string) => `outputs.${index}.${field}`;
  const batch = form.values.input.batchLogEnabled;
  const muxed = kind === 'encoding' && form.values.muxAudioAndVideo;
  return (
    <>
      <FieldRow className="job-fields-wide">
        <TextField
          path={at('uri')}
          label="Stream location"
          required
          placeholder={batch ? 'vod/{SRC_SUB_DIR}/{SRC_FILE_TITLE}' : 'live/channel1'}
          hint={batch ? `Must contain at least one of ${PLACEHOLDERS}.` : 'A name under the product\'s streams.'}
        />
      </FieldRow>
      {output.type === 'hls' && (
        <FieldRow>
          <SelectField
            path={at('hlsOptions.containerType')}
            label="Container"
            options={[
              { value: 'TS', label: 'TS' },
              { value: 'FMP4', label: 'fMP4' },
            ]}
          />
          <CheckField path={at('hlsOptions.programDateTime')} label="Program date time" />
          <CheckField path={at('hlsOptions.muxAudioAndVideo')} label="Muxed audio and video" />
        </FieldRow>
      )}
      <FieldRow>
        <NumberField path={at('adaptiveOptions.segmentDuration')} label="Segment duration (s)" min={1} max={60} placeholder="6" />
        <CheckField path={at('adaptiveOptions.trickPlayEnabled')} label="Trick play" />
        <CheckField path={at('adaptiveOptions.lowLatencyEnabled')} label="Low latency" />
      </FieldRow>
      {(output.type === 'hls' || output.type === 'cmaf') && (
        <FieldRow>
          <CheckField path={at('encryption')} label="Encryption (AES-128)" />
        </FieldRow>
      )}
      <OutputAdsDrmFields index={index} output={output} muxed={muxed} />
      <FieldRow className="job-fields-wide">
        <TextField path={at('pushBaseUrl')} label="Base URL for pushing to another location" placeholder="https://origin.example.com/live/channel1" eager />
      </FieldRow>
      <DeliveryOptions outputIndex={index} />
    </>
  );
}

/** The fields of one output, by its type (spec 01 §3 Output, §5 Outputs). */
export function OutputFields({ index }: { index: number }) {
  const { form } = useJobEdit();
  const output = form.values.outputs[index];
  const at = (field: string) => `outputs.${index}.${field}`;
  return (
    <>
      {output.type === 'udp' && (
        <FieldRow>
          <TextField path={at('uri')} label="URI" required placeholder="udp://239.1.1.1:1234" className="field-wide" />
          <CheckField path={at('rtpPayloadEnabled')} label="RTP payload" />
        </FieldRow>
      )}
      {output.type === 'tcp' && (
        <FieldRow className="job-fields-wide">
          <TextField path={at('uri')} label="URI" required placeholder="tcp://10.0.0.5:9000" />
        </FieldRow>
      )}
      {output.type === 'srt' && <SrtLinkField index={index} />}
      {output.type === 'rtmp' && (
        <>
          <FieldRow className="job-fields-wide">
            <TextField path={at('uri')} label="URI" required placeholder="rtmp://live.example.com/app/stream-key" />
          </FieldRow>
          <FieldRow>
            <SwitchField
              path={at('auth.enabled')}
              label="Authentication"
              onChange={(on) => form.set(at('auth'), on ? { enabled: true, username: output.auth?.username, password: output.auth?.password } : undefined)}
            />
            {output.auth?.enabled && <TextField path={at('auth.username')} label="Username" required />}
            {output.auth?.enabled && <TextField path={at('auth.password')} label="Password" required type="password" />}
          </FieldRow>
          {form.errorOf(at('auth')) && (
            <div className="field-error" role="alert">
              {form.errorOf(at('auth'))}
            </div>
          )}
        </>
      )}
      {(output.type === 'mpegts' || output.type === 'playback' || output.type === 'httplive') && (
        <FieldRow className="job-fields-wide">
          <TextField path={at('uri')} label="Stream location" placeholder="live/channel1" hint="Served by the product under this name." />
        </FieldRow>
      )}
      {SEGMENTED_TYPES.includes(output.type) && <SegmentedFields index={index} output={output} />}
      {TS_TYPES.includes(output.type) && <MpegTsPrograms index={index} />}
    </>
  );
}
