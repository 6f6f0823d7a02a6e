import { Icon } from '../../../components/icons.tsx';
import { useJobEdit } from './context.ts';
import { CheckField, FieldRow, ListError, NumberField, Section, SelectField, SwitchField, TextField } from './fields.tsx';
import type { AudioTrackValue } from './jobFormModel.ts';
import { useAudioPresets } from './lookups.ts';

const MAX_TRACKS = 16;
const SOURCE_OPTIONS = [
  { value: 'AUTO', label: 'Auto' },
  { value: 'ALL', label: 'All tracks' },
  ...Array.from({ length: MAX_TRACKS }, (_, i) => ({ value: String(i), label: `Track ${i + 1}` })),
];
const CODEC_OPTIONS = [
  { value: 'aac', label: 'AAC' },
  { value: 'libopus', label: 'Opus' },
  { value: 'libmp3lame', label: 'MP3' },
  { value: 'ac3', label: 'AC-3' },
  { value: 'eac3', label: 'E-AC-3' },
  { value: 'mp2', label: 'MPEG audio layer 2' },
];

/** How many audio tracks the encoding makes: the Audio sub-tab's count. */
export function audioCount(values: { noSound: boolean; audioSetting: { tracks: readonly unknown[] } }): number {
  return values.noSound ? 0 : values.audioSetting.tracks.length;
}

/** Spec 01 §5: more tracks only when no track takes AUTO or ALL, and not while muxing audio and video. */
export function mayAddTrack(tracks: readonly AudioTrackValue[], muxing: boolean): boolean {
  return !muxing && tracks.length < MAX_TRACKS && !tracks.some((t) => t.source === 'AUTO' || t.source === 'ALL');
}

function nextSource(tracks: readonly AudioTrackValue[]): number {
  const used = tracks.map((t) => (typeof t.source === 'number' ? t.source : -1));
  return Math.min(MAX_TRACKS - 1, Math.max(-1, ...used) + 1);
}

/** Details > Audio (encodings): the tracks, normalization, volume, and muxing audio with video. */
export function AudioTab() {
  const { form, disabled } = useJobEdit();
  const values = form.values;
  const tracks = values.audioSetting.tracks;
  const presets = useAudioPresets(true);
  const presetOptions = (presets.data ?? []).map((p) => ({ value: p.id, label: p.name }));
  const hasSubtitles = values.subtitles.length > 0;

  return (
    <div className="job-tab-body">
      <Section
        title="Audio tracks"
        actions={
          mayAddTrack(tracks, values.muxAudioAndVideo) ? (
            <button
              type="button"
              className="button button-secondary button-small"
              disabled={disabled}
              onClick={() => form.update<AudioTrackValue[]>('audioSetting.tracks', (list) => [...list, { source: nextSource(list) }])}
            >
              <Icon name="plus" size={14} /> Add audio track
            </button>
          ) : (
            <span className="field-hint">
              {values.muxAudioAndVideo
                ? 'More audio tracks cannot be added while muxing audio and video.'
                : tracks.some((t) => t.source === 'AUTO' || t.source === 'ALL')
                  ? 'To add audio tracks, choose a source track instead of Auto or All.'
                  : undefined}
            </span>
          )
        }
      >
        <ListError path="audioSetting.tracks" />
        {tracks.map((track, i) => {
          const at = `audioSetting.tracks.${i}`;
          return (
            <div key={i} className="item-row item-row-track">
              <span className="item-row-title">Track {i + 1}</span>
              <SelectField
                path={`${at}.source`}
                label="Source"
                options={SOURCE_OPTIONS}
                onChange={(value) => form.set(`${at}.source`, value === 'AUTO' || value === 'ALL' ? value : Number(value))}
              />
              <SelectField path={`${at}.audioPreset`} label="Audio preset" numeric clearable placeholder="None" options={presetOptions} />
              <SelectField path={`${at}.codec`} label="Codec" clearable placeholder={track.audioPreset ? 'From preset' : 'Default (AAC)'} options={CODEC_OPTIONS} />
              <NumberField path={`${at}.bitrate`} label="Bitrate (Kbps)" min={1} max={999999} placeholder={track.audioPreset ? 'From preset' : '128'} />
              <NumberField path={`${at}.channelCount`} label="Channels" min={1} max={16} placeholder="Source" />
              {tracks.length > 1 && (
                <button
                  type="button"
                  className="icon-button icon-button-danger item-row-remove"
                  aria-label={`Remove audio track ${i + 1}`}
                  title="Remove audio track"
                  onClick={() => form.update<AudioTrackValue[]>('audioSetting.tracks', (list) => list.filter((_, j) => j !== i))}
                >
                  <Icon name="trash" />
                </button>
              )}
            </div>
          );
        })}
      </Section>

      <Section title="Audio processing">
        <FieldRow>
          <SwitchField path="audioSetting.normalizationEnabled" label="Normalization" hint="Loudness normalization (EBU R 128)." />
          <NumberField path="audioSetting.volume" label="Volume" min={0} max={10} step={0.1} placeholder="1" hint="0 to 10; 1 keeps the level." />
        </FieldRow>
        <FieldRow>
          <SwitchField
            path="muxAudioAndVideo"
            label="Mux audio and video"
            disabled={hasSubtitles && !values.muxAudioAndVideo}
            hint={hasSubtitles ? 'Mux audio and video is unavailable with subtitles.' : 'One stream with audio and video together.'}
          />
        </FieldRow>
        <FieldRow>
          <CheckField path="replaceAudio" label="Replace audio" onChange={(on) => form.replace({ ...values, replaceAudio: on, replaceAudioFile: on ? values.replaceAudioFile : undefined })} />
          {values.replaceAudio && <TextField path="replaceAudioFile" label="Replacement audio file" required placeholder="slates/silence.aac" hint="A path inside the storage root." className="field-wide" />}
        </FieldRow>
      </Section>
    </div>
  );
}
