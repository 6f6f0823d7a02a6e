import { Link } from 'react-router-dom';
import { DEINTERLACE_METHODS, DEINTERLACE_MODES, VIDEO_RESOLUTIONS } from '../../../../../openapi/schemas/jobs.ts';
import { useJobEdit } from './context.ts';
import { CheckField, FieldRow, ListError, NumberField, Section, SelectField, SwitchField, TextField } from './fields.tsx';
import { resizeProfiles, resolutionLabel, type ProfileValue } from './jobFormModel.ts';
import { useVideoPresets, useWatermarks } from './lookups.ts';

export const PROFILE_COUNTS = [2, 3, 4, 5, 6, 7, 8, 9] as const;
const RESOLUTION_OPTIONS = VIDEO_RESOLUTIONS.map((value) => ({ value, label: resolutionLabel(value) }));
const ASPECT_RATIOS = ['16:9', '4:3', '1:1', '21:9', '9:16'];
const MODE_LABELS: Record<(typeof DEINTERLACE_MODES)[number], string> = { DISABLED: 'Disabled', ENABLED: 'Enabled', AUTO: 'Auto (interlaced sources)' };
const METHOD_LABELS: Record<(typeof DEINTERLACE_METHODS)[number], string> = {
  YADIF_FFMPEG: 'yadif',
  YADIF_ADAPTIVE_FFMPEG: 'yadif (adaptive)',
  BWDIF_FFMPEG: 'bwdif',
  W3FDIF_FFMPEG: 'w3fdif',
};
const FIELD_OPTIONS = [
  { value: 'AUTO', label: 'Auto' },
  { value: 'TOP', label: 'Top field first' },
  { value: 'BOTTOM', label: 'Bottom field first' },
];

/** How many video renditions the encoding makes: the Video sub-tab's count. */
export function videoCount(values: { noVideo: boolean; adaptive: boolean; profiles: readonly unknown[] }): number {
  if (values.noVideo) return 0;
  return values.adaptive ? values.profiles.length : 1;
}

/** The adaptive ladder: one row per profile, exactly one of them the main. */
function Profiles() {
  const { form } = useJobEdit();
  const profiles = form.values.profiles;
  return (
    <div className="profiles">
      <ListError path="profiles" />
      <table className="profiles-table">
        <thead>
          <tr>
            <th scope="col">Profile</th>
            <th scope="col">Width</th>
            <th scope="col">Height</th>
            <th scope="col">Video bitrate (Kbps)</th>
            <th scope="col">Audio bitrate (Kbps)</th>
            <th scope="col">Main</th>
            <th scope="col">Skip encryption</th>
          </tr>
        </thead>
        <tbody>
          {profiles.map((profile, i) => (
            <tr key={i}>
              <th scope="row">{i + 1}</th>
              {(['width', 'height', 'videoBitrate', 'audioBitrate'] as const).map((field) => (
                <td key={field}>
                  <ProfileNumber index={i} field={field} />
                </td>
              ))}
              <td className="align-center">
                <input
                  type="radio"
                  name="main-profile"
                  aria-label={`Profile ${i + 1} main`}
                  checked={profile.main}
                  onChange={() => form.set('profiles', profiles.map((p, j) => ({ ...p, main: j === i })))}
                />
              </td>
              <td className="align-center">
                <input type="checkbox" aria-label={`Profile ${i + 1} skip encryption`} checked={profile.skipEncryption} onChange={(e) => form.set(`profiles.${i}.skipEncryption`, e.target.checked)} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const PROFILE_FIELD_NAMES = { width: 'width', height: 'height', videoBitrate: 'video bitrate', audioBitrate: 'audio bitrate' } as const;

function ProfileNumber({ index, field }: { index: number; field: keyof typeof PROFILE_FIELD_NAMES }) {
  const { form } = useJobEdit();
  const path = `profiles.${index}.${field}`;
  const value = (form.values.profiles[index] as ProfileValue)[field];
  const error = form.errorOf(path);
  const bitrate = field === 'videoBitrate' || field === 'audioBitrate';
  return (
    <div className={`cell-field${error ? ' has-error' : ''}`}>
      <input
        type="number"
        aria-label={`Profile ${index + 1} ${PROFILE_FIELD_NAMES[field]}`}
        aria-invalid={error ? true : undefined}
        min={bitrate ? 1 : 0}
        max={bitrate ? 999999 : undefined}
        step={1}
        value={value === undefined || Number.isNaN(value) ? '' : value}
        onChange={(e) => form.set(path, e.target.value === '' ? undefined : Number(e.target.value))}
        onBlur={() => form.touch(path)}
      />
      {error && (
        <div className="field-error" role="alert">
          {error}
        </div>
      )}
    </div>
  );
}

/** Details > Video (encodings): preset, passthrough, size, rate, deinterlacing, the adaptive ladder, watermark, replacement and delay. */
export function VideoTab() {
  const { form } = useJobEdit();
  const values = form.values;
  const presets = useVideoPresets(true);
  const watermarks = useWatermarks(!values.relayVideo);
  const aspectOptions = [...ASPECT_RATIOS, ...(values.aspectRatio && !ASPECT_RATIOS.includes(values.aspectRatio) ? [values.aspectRatio] : [])].map((value) => ({ value, label: value }));
  const encoded = !values.relayVideo;

  return (
    <div className="job-tab-body">
      <Section title="Video">
        <FieldRow>
          <SwitchField
            path="relayVideo"
            label="Relay video (passthrough)"
            hint="The video passes through untouched."
            onChange={(on) => form.replace({ ...values, relayVideo: on, ...(on ? { adaptive: false, profiles: [], watermark: null } : {}) })}
          />
        </FieldRow>
        {encoded && (
          <FieldRow>
            <SelectField
              path="preset"
              label="Preset"
              required={!values.noVideo}
              numeric
              empty="null"
              placeholder={presets.isPending ? 'Loading ...' : 'Select preset'}
              options={(presets.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
              hint={
                presets.data && presets.data.length === 0 ? (
                  <>
                    No video presets yet: <Link to="/my/presets">add one</Link>.
                  </>
                ) : undefined
              }
            />
          </FieldRow>
        )}
        {encoded && (
          <FieldRow>
            <SelectField path="videoResolution" label="Resolution" options={RESOLUTION_OPTIONS} />
            {values.videoResolution === 'CUSTOM' && (
              <>
                <NumberField path="width" label="Width" required min={0} max={7680} />
                <NumberField path="height" label="Height" required min={0} max={4320} />
              </>
            )}
          </FieldRow>
        )}
        {encoded && (
          <FieldRow>
            <SelectField path="aspectRatio" label="Aspect ratio" options={aspectOptions} placeholder="Source" clearable empty="null" />
            <NumberField path="framerate" label="Frame rate" min={1} max={120} step={0.001} placeholder="Source" empty="null" />
            <NumberField path="keyInt" label="KeyInt (frames)" min={1} max={1000} placeholder="Auto" empty="null" />
          </FieldRow>
        )}
      </Section>

      {encoded && (
        <Section title="Deinterlacing">
          <FieldRow>
            <SelectField path="deinterlaceMode" label="Deinterlace mode" options={DEINTERLACE_MODES.map((value) => ({ value, label: MODE_LABELS[value] }))} />
            {values.deinterlaceMode !== 'DISABLED' && (
              <>
                <SelectField path="deinterlaceMethod" label="Deinterlace method" options={DEINTERLACE_METHODS.map((value) => ({ value, label: METHOD_LABELS[value] }))} />
                <SelectField path="deinterlaceField" label="Deinterlace field" options={FIELD_OPTIONS} />
              </>
            )}
          </FieldRow>
        </Section>
      )}

      {encoded && (
        <Section title="Adaptive">
          <FieldRow>
            <SwitchField
              path="adaptive"
              label="Adaptive (multiple profiles)"
              onChange={(on) => form.replace({ ...values, adaptive: on, profiles: on ? resizeProfiles(values.profiles, values.countOfProfiles) : [] })}
            />
            {values.adaptive && (
              <SelectField
                path="countOfProfiles"
                label="Count of profiles"
                numeric
                options={PROFILE_COUNTS.map((n) => ({ value: n, label: String(n) }))}
                onChange={(count) => form.replace({ ...values, countOfProfiles: count as number, profiles: resizeProfiles(values.profiles, count as number) })}
              />
            )}
          </FieldRow>
          {values.adaptive && <Profiles />}
        </Section>
      )}

      <Section title="Watermark, replacement and delay">
        <FieldRow>
          {encoded && (
            <SelectField
              path="watermark"
              label="Watermark"
              numeric
              empty="null"
              clearable
              placeholder="None"
              options={(watermarks.data ?? []).map((w) => ({ value: w.id, label: w.name }))}
            />
          )}
          <NumberField path="delayTime" label="Delay (seconds)" min={0} max={3600} step={0.1} placeholder="0" />
        </FieldRow>
        <FieldRow>
          <CheckField path="replaceVideo" label="Replace video" onChange={(on) => form.replace({ ...values, replaceVideo: on, replaceVideoFile: on ? values.replaceVideoFile : undefined })} />
          {values.replaceVideo && <TextField path="replaceVideoFile" label="Replacement video file" required placeholder="slates/slate.mp4" hint="A path inside the storage root." className="field-wide" />}
        </FieldRow>
      </Section>
    </div>
  );
}
