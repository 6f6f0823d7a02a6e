import { SUBTITLE_TYPES } from '../../../../../openapi/schemas/jobs.ts';
import { Icon } from '../../../components/icons.tsx';
import { useJobEdit } from './context.ts';
import { FieldRow, ListError, SelectField, TextField } from './fields.tsx';
import type { SubtitleValue } from './jobFormModel.ts';

export const MUX_NO_SUBTITLES = 'Subtitles are not available with Mux audio and video ON.';
const TYPE_LABELS: Record<SubtitleValue['type'], string> = { URL: 'URL', DVB: 'DVB', FILE: 'File', CLOSED_CAPTIONS: 'Closed captions' };
/** Upload (FILE) and URL are offered only for VOD. */
const VOD_ONLY: readonly SubtitleValue['type'][] = ['URL', 'FILE'];
const MAX_SUBTITLES = 16;

/** Details > Subtitles: each with its type's source, a language, and one Default at most. */
export function SubtitlesTab() {
  const { form, kind, disabled } = useJobEdit();
  const values = form.values;
  const subtitles = values.subtitles;
  const isVod = values.videoType === 'VOD';
  const muxed = kind === 'encoding' && values.muxAudioAndVideo;
  const typeOptions = (current?: SubtitleValue['type']) =>
    SUBTITLE_TYPES.filter((type) => isVod || !VOD_ONLY.includes(type) || type === current).map((value) => ({ value, label: TYPE_LABELS[value] }));
  const add = () => form.update<SubtitleValue[]>('subtitles', (list) => [...list, { type: isVod ? 'URL' : 'DVB', default: list.length === 0 }]);

  return (
    <div className="job-tab-body">
      {muxed && (
        <div className="notice" role="note">
          <Icon name="info" /> {MUX_NO_SUBTITLES}
        </div>
      )}
      <ListError path="subtitles" />
      {subtitles.length === 0 && !muxed && <p className="muted">No subtitles.</p>}
      {subtitles.map((subtitle, i) => {
        const at = `subtitles.${i}`;
        const defaultId = `subtitle-${i}-default`;
        const tokenId = `subtitle-${i}-token`;
        return (
          <section key={i} className="output-card" aria-label={`Subtitle ${i + 1}`}>
            <div className="output-card-head">
              <h3>Subtitle {i + 1}</h3>
              <SelectField
                path={`${at}.type`}
                label="Type"
                options={typeOptions(subtitle.type)}
                className="output-type-field"
                onChange={(type) => form.set(at, { type, default: subtitle.default, language: subtitle.language, description: subtitle.description })}
              />
              <div className="item-controls">
                <span className="check-label">
                  <input
                    id={defaultId}
                    type="checkbox"
                    checked={subtitle.default}
                    // Only one subtitle may be the default: choosing one clears the others.
                    onChange={(e) => form.set('subtitles', subtitles.map((s, j) => ({ ...s, default: j === i ? e.target.checked : e.target.checked ? false : s.default })))}
                  />
                  <label htmlFor={defaultId}>Default</label>
                </span>
                <button
                  type="button"
                  className="icon-button icon-button-danger"
                  aria-label={`Remove subtitle ${i + 1}`}
                  title="Remove subtitle"
                  onClick={() => form.update<SubtitleValue[]>('subtitles', (list) => list.filter((_, j) => j !== i))}
                >
                  <Icon name="trash" />
                </button>
              </div>
            </div>
            <div className="output-card-body">
              {subtitle.type === 'URL' && (
                <FieldRow>
                  <TextField path={`${at}.url`} label="URL" required placeholder="https://example.com/subtitles/en.vtt" className="field-wide" />
                  <div className="field field-check">
                    <span className="check-label">
                      <input id={tokenId} type="checkbox" checked={subtitle.token !== undefined} onChange={(e) => form.set(`${at}.token`, e.target.checked ? '' : undefined)} />
                      <label htmlFor={tokenId}>Token</label>
                    </span>
                  </div>
                  {subtitle.token !== undefined && <TextField path={`${at}.token`} label="Token value" keepEmpty />}
                </FieldRow>
              )}
              {subtitle.type === 'FILE' && (
                <FieldRow>
                  <TextField path={`${at}.fileName`} label="File" required placeholder="subtitles/en.srt" hint="Accepted subtitle file types: .srt, .vtt, .stl. A path inside the storage root." className="field-wide" />
                </FieldRow>
              )}
              {(subtitle.type === 'DVB' || subtitle.type === 'CLOSED_CAPTIONS') && (
                <FieldRow>
                  <TextField path={`${at}.streamInfo`} label={subtitle.type === 'DVB' ? 'Stream (PID)' : 'Channel'} placeholder={subtitle.type === 'DVB' ? 'Auto' : 'CC1'} />
                </FieldRow>
              )}
              <FieldRow>
                <TextField path={`${at}.language`} label="Language" placeholder="eng" />
                <TextField path={`${at}.description`} label="Description" placeholder="English" />
              </FieldRow>
            </div>
          </section>
        );
      })}
      {!muxed && (
        <div className="tab-actions">
          <button type="button" className="button button-secondary" onClick={add} disabled={disabled || subtitles.length >= MAX_SUBTITLES}>
            <Icon name="plus" size={14} /> Add subtitle
          </button>
          {!isVod && <span className="field-hint">Subtitle upload and URL are offered only for VOD.</span>}
        </div>
      )}
    </div>
  );
}
