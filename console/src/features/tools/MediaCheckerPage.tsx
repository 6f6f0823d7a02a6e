import { useCallback } from 'react';
import { MediaCheckRequest } from '../../../../openapi/schemas/tools.ts';
import { Field } from '../../components/form/Field.tsx';
import { Card, PageHeader } from '../../components/Page.tsx';
import type { Schemas } from '../../data/client.ts';
import { eventsOf, useToolRun, type ToolBodies } from '../../data/tools/stream.ts';
import { usePageTitle } from '../../shell/breadcrumbs.tsx';
import { NodeNote, RequestError } from './ToolParts.tsx';
import { useToolForm } from './toolForm.ts';

interface CheckValues extends Record<string, unknown> {
  uri: string;
  token: string;
}

type Stream = Schemas['MediaStreamInfo'];

const dash = (value: string | number | null | undefined) => (value === null || value === undefined || value === '' ? '-' : String(value));
const kbps = (bps: number | null) => (bps ? `${Math.round(bps / 1000)} kbit/s` : '-');

function StreamsTable({ streams, label }: { streams: Stream[]; label: string }) {
  return (
    <div className="table-wrap">
      <table className="table tool-table" aria-label={label}>
        <thead>
          <tr>
            <th scope="col" className="align-right">#</th>
            <th scope="col">ID</th>
            <th scope="col">Type</th>
            <th scope="col">Codec</th>
            <th scope="col">Profile</th>
            <th scope="col">Resolution</th>
            <th scope="col" className="align-right">Frame rate</th>
            <th scope="col">Audio</th>
            <th scope="col">Language</th>
            <th scope="col" className="align-right">Bitrate</th>
          </tr>
        </thead>
        <tbody>
          {streams.map((s) => (
            <tr key={`${s.index}-${s.id}`}>
              <td className="align-right">{s.index}</td>
              <td className="cell-mono">{dash(s.id)}</td>
              <td>{s.type}</td>
              <td>{dash(s.codec)}</td>
              <td>{dash(s.profile)}</td>
              <td>{s.width && s.height ? `${s.width}x${s.height}${s.interlaced ? ' interlaced' : ''}` : '-'}</td>
              <td className="align-right">{dash(s.frameRate)}</td>
              <td>{s.sampleRate ? `${s.sampleRate} Hz, ${dash(s.channelLayout ?? s.channels)}` : '-'}</td>
              <td>{dash(s.language)}</td>
              <td className="align-right">{kbps(s.bitrate)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** /my/tools/mediachecker: the programs and streams of a source; a failure lists each key and value of the error. */
export default function MediaCheckerPage() {
  usePageTitle('Media Checker');
  const run = useToolRun('mediachecker');
  const toPayload = useCallback((v: CheckValues) => ({ uri: v.uri.trim(), tokenRequired: v.token !== '', ...(v.token ? { token: v.token } : {}) }), []);
  const form = useToolForm(MediaCheckRequest, { uri: '', token: '' }, toPayload);
  const info = eventsOf(run.events, 'result')[0]?.mediaInfo;
  const error = eventsOf(run.events, 'error')[0];

  return (
    <div className="page">
      <PageHeader title="Media Checker" />
      <form className="form tool-form" noValidate aria-label="Media Checker" onSubmit={form.submit((payload) => void run.start(payload as ToolBodies['mediachecker']))}>
        <Card>
          <fieldset className="form-fieldset tool-fields" disabled={run.running}>
            <Field label="URI" required error={form.errorOf('uri', run.error)} className="tool-field-wide">
              <input name="uri" value={form.values.uri} placeholder="udp://, rtp://, srt://, rtmp://, rtsp://, http(s)://, rist://" autoComplete="off" spellCheck={false} onChange={(e) => form.set('uri', e.target.value)} onBlur={() => form.touch('uri')} />
            </Field>
            <Field label="Token" error={form.errorOf('token', run.error)}>
              <input name="token" value={form.values.token} autoComplete="off" spellCheck={false} onChange={(e) => form.set('token', e.target.value)} onBlur={() => form.touch('token')} />
            </Field>
          </fieldset>
          <div className="tool-actions">
            <button type="submit" className="button" disabled={form.values.uri.trim() === '' || run.running} aria-busy={run.running || undefined}>
              {run.running && <span className="spinner" aria-hidden="true" />}
              Run
            </button>
            <NodeNote node={form.node} />
          </div>
        </Card>
      </form>
      <RequestError error={run.error} />
      {run.running && (
        <div className="tool-loader" role="status">
          <span className="spinner" aria-hidden="true" />
          Checking the source ...
        </div>
      )}
      {info && (
        <Card title="Streams">
          <p className="tool-note">
            Format: {dash(info.format.longName ?? info.format.name)}
            {info.format.bitrate ? `, ${kbps(info.format.bitrate)}` : ''}
            {info.programs.length > 0 ? `, ${info.programs.length} program${info.programs.length > 1 ? 's' : ''}` : ''}
          </p>
          <StreamsTable streams={info.streams} label="Streams" />
          {info.programs.length > 1 &&
            info.programs.map((program) => (
              <div key={program.number} className="tool-program">
                <h3 className="tool-subtitle">
                  Program {program.number}
                  {program.name ? `: ${program.name}` : ''}
                  {program.provider ? ` (${program.provider})` : ''}
                </h3>
                <StreamsTable streams={program.streams} label={`Program ${program.number}`} />
              </div>
            ))}
        </Card>
      )}
      {error && (
        <Card title="Error" className="tool-error-card">
          <dl className="tool-error-list" aria-label="Error">
            {Object.entries(error.details ?? { error: error.error }).map(([key, value]) => (
              <div key={key}>
                <dt>{key}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        </Card>
      )}
    </div>
  );
}
