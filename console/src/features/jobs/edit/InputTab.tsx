import { useState } from 'react';
import { Icon } from '../../../components/icons.tsx';
import { Modal } from '../../../components/Modal.tsx';
import { INPUT_TYPE_LABELS } from '../jobLabels.ts';
import { useJobEdit } from './context.ts';
import { CheckField, FieldRow, NumberField, Section, SelectField, SwitchField, TextField } from './fields.tsx';
import { DEFAULT_FAILOVER_TIMEOUT, newInput, type InputValue } from './jobFormModel.ts';
import { describeMedia, MEDIA_INFO_FAILED, useMediaCheck } from './lookups.ts';
import { getAt } from './useJobForm.ts';

const INPUT_TYPE_OPTIONS = (Object.entries(INPUT_TYPE_LABELS) as [InputValue['type'], string][]).map(([value, label]) => ({ value, label }));

/** The media source check under a uri: loading, a success tick, or the failure hint (spec 01 §8). */
function MediaCheckLine({ path }: { path: 'input' | 'failover.input' }) {
  const { form, kind, canEdit } = useJobEdit();
  const input = getAt(form.values, path) as InputValue | undefined;
  const check = useMediaCheck(kind, input, canEdit);
  if (check.state === 'idle') return null;
  if (check.state === 'loading')
    return (
      <div className="media-check media-check-loading" role="status">
        <span className="spinner" aria-hidden="true" /> Checking the source ...
      </div>
    );
  if (check.state === 'failure')
    return (
      <div className="media-check media-check-failure" role="alert">
        <Icon name="alert" /> {MEDIA_INFO_FAILED}
      </div>
    );
  return (
    <div className="media-check media-check-success" role="status" title="Media info detected">
      <Icon name="check" aria-label="Media info detected" /> {describeMedia(check.info) || 'Source available'}
    </div>
  );
}

function BatchHelp({ onClose }: { onClose: () => void }) {
  return (
    <Modal title="Batch job" onClose={onClose} onEnter={onClose} footer={<button type="button" className="button" onClick={onClose}>Close</button>}>
      <div className="help-text">
        <p>A batch job transcodes every file that matches its input URL, one after the other. It is available only for VOD jobs with a URI input.</p>
        <p>
          The URL must contain a glob pattern: <code>*</code> (any characters in a name), <code>**</code> (any folders), <code>?</code> (one character) or <code>[abc]</code> (one of
          the characters). Example: <code>prefix/**/*.mp4</code>.
        </p>
        <p>Program selection is not available for batch jobs; the output locations take the placeholders {'{SRC_SUB_DIR}'}, {'{SRC_FILE_TITLE}'} and {'{SRC_FILE_EXT}'}.</p>
      </div>
    </Modal>
  );
}

/** The fields of one input (the primary, or the failover), by its type. */
function InputFields({ path, primary }: { path: 'input' | 'failover.input'; primary: boolean }) {
  const { form, kind } = useJobEdit();
  const input = getAt(form.values, path) as InputValue;
  const [help, setHelp] = useState(false);
  const isVod = form.values.videoType === 'VOD';
  const at = (field: string) => `${path}.${field}`;

  return (
    <>
      <FieldRow>
        <SelectField
          path={at('type')}
          label="Input type"
          required
          options={INPUT_TYPE_OPTIONS}
          // A new type starts with its own fields.
          onChange={(type) => form.set(path, newInput(type as InputValue['type']))}
        />
      </FieldRow>
      {input.type === 'uri' && (
        <>
          <FieldRow className="job-fields-wide">
            <TextField path={at('uri')} label="URI" required placeholder={input.batchLogEnabled ? 'prefix/**/*.mp4' : 'udp://239.0.0.1:1234'} />
          </FieldRow>
          <MediaCheckLine path={path} />
          <FieldRow>
            <CheckField path={at('tokenRequired')} label="Token required" />
            {input.tokenRequired && <TextField path={at('token')} label="Token" required />}
          </FieldRow>
          {primary && (
            <FieldRow>
              <div className="field field-check">
                <span className="check-label">
                  <CheckInline
                    path={at('batchLogEnabled')}
                    label="Batch"
                    disabled={!isVod}
                    onChange={(on) => {
                      form.set(at('batchLogEnabled'), on);
                      if (on) form.set(at('program'), undefined);
                    }}
                  />
                  <button type="button" className="icon-button" aria-label="About batch jobs" title="About batch jobs" onClick={() => setHelp(true)}>
                    <Icon name="info" size={14} />
                  </button>
                </span>
                {form.errorOf(at('batchLogEnabled')) ? (
                  <div className="field-error" role="alert">
                    {form.errorOf(at('batchLogEnabled'))}
                  </div>
                ) : (
                  !isVod && <div className="field-hint">Only for VOD jobs.</div>
                )}
              </div>
              {!input.batchLogEnabled && <NumberField path={at('program')} label="Program" min={0} max={65535} placeholder="Any" />}
            </FieldRow>
          )}
          {primary && (
            <FieldRow>
              <CheckField path={at('hasTargetCachingUrl')} label="Target caching URL" />
              {input.hasTargetCachingUrl && <TextField path={at('targetCachingUrl')} label="Caching URL" required />}
            </FieldRow>
          )}
        </>
      )}
      {input.type === 'storage' && (
        <FieldRow>
          <NumberField path={at('storageConfig')} label="Storage (ID)" required min={1} />
          <TextField path={at('path')} label="Path" required placeholder="folder/file.mp4" />
        </FieldRow>
      )}
      {input.type === 'playlist' && (
        <FieldRow>
          <NumberField path={at('playlist')} label="Playlist (ID)" required min={1} />
        </FieldRow>
      )}
      {input.type === 'dvb' && (
        <FieldRow>
          <NumberField path={at('stream')} label="Stream (ID)" required min={1} />
        </FieldRow>
      )}
      {input.type === 'dev' && (
        <FieldRow>
          <TextField path={at('device')} label="Device" required placeholder="/dev/video0" />
          <TextField path={at('displayMode')} label="Display mode" placeholder="Auto" />
        </FieldRow>
      )}
      {input.type === 'multiviewer' && (
        <FieldRow>
          <NumberField path={at('multiviewer')} label="Multiviewer (ID)" required min={1} />
        </FieldRow>
      )}
      {kind === 'encoding' && (
        <FieldRow>
          <TextField path={at('videoDecoder')} label="Video decoder" placeholder="Auto" hint="An ffmpeg decoder name, e.g. h264_cuvid." />
        </FieldRow>
      )}
      {help && <BatchHelp onClose={() => setHelp(false)} />}
    </>
  );
}

/** A bare checkbox with its label, for rows that add their own controls beside it. */
function CheckInline({ path, label, disabled, onChange }: { path: string; label: string; disabled?: boolean; onChange: (on: boolean) => void }) {
  const { form } = useJobEdit();
  const id = `check-${path.replace(/\./g, '-')}`;
  return (
    <>
      <input id={id} type="checkbox" checked={Boolean(getAt(form.values, path))} disabled={disabled} onChange={(e) => onChange(e.target.checked)} />
      <label htmlFor={id}>{label}</label>
    </>
  );
}

/** Details > Input: the input by its type, the media source check, and the failover input. */
export function InputTab() {
  const { form } = useJobEdit();
  const failover = form.values.failover;

  return (
    <div className="job-tab-body">
      <Section title="Input">
        <InputFields path="input" primary />
      </Section>
      <Section title="Failover">
        <FieldRow>
          <SwitchField
            path="failover"
            label="Failover input"
            hint="Used while the input gives nothing for the switch timeout."
            onChange={(on) => form.set('failover', on ? { input: newInput('uri'), timeout: DEFAULT_FAILOVER_TIMEOUT } : null)}
          />
          {failover && <NumberField path="failover.timeout" label="Switch timeout (seconds)" min={1} max={3600} placeholder={String(DEFAULT_FAILOVER_TIMEOUT)} />}
        </FieldRow>
        {failover && (
          <div className="failover-input" role="group" aria-label="Failover input settings">
            <InputFields path="failover.input" primary={false} />
          </div>
        )}
      </Section>
    </div>
  );
}
