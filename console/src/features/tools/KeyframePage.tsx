import { useCallback } from 'react';
import { KeyframeRequest } from '../../../../openapi/schemas/tools.ts';
import { Field } from '../../components/form/Field.tsx';
import { Card, PageHeader } from '../../components/Page.tsx';
import { eventsOf, useTokenChoices, useToolRun, type ToolBodies } from '../../data/tools/stream.ts';
import { usePageTitle } from '../../shell/breadcrumbs.tsx';
import { NodeNote, RequestError, RunStopButton, StoppedNote, Waiting } from './ToolParts.tsx';
import { numberOrText, useToolForm } from './toolForm.ts';

interface KeyframeValues extends Record<string, unknown> {
  uri: string;
  token: string;
  intervalCount: string;
}

const seconds = (value: number) => `${Number(value.toFixed(3))} s`;

/** /my/tools/keyframe: the keyframe interval of a source, each interval shown as it is read. */
export default function KeyframePage() {
  usePageTitle('Keyframe Interval');
  const run = useToolRun('keyframe');
  const tokens = useTokenChoices();
  const toPayload = useCallback(
    (v: KeyframeValues) => ({ uri: v.uri.trim(), tokenRequired: v.token !== '', ...(v.token ? { token: v.token } : {}), intervalCount: numberOrText(v.intervalCount) ?? 10 }),
    [],
  );
  const form = useToolForm(KeyframeRequest, { uri: '', token: '', intervalCount: '' }, toPayload);
  const samples = eventsOf(run.events, 'keyframe');
  const result = eventsOf(run.events, 'interval')[0]?.result;
  const error = eventsOf(run.events, 'error')[0];
  const end = eventsOf(run.events, 'end')[0];

  return (
    <div className="page">
      <PageHeader title="Keyframe Interval" />
      <form className="form tool-form" noValidate aria-label="Keyframe Interval" onSubmit={form.submit((payload) => void run.start(payload as ToolBodies['keyframe']))}>
        <Card>
          <fieldset className="form-fieldset tool-fields" disabled={run.running}>
            <Field label="URI" required error={form.errorOf('uri', run.error)} className="tool-field-wide">
              <input name="uri" value={form.values.uri} placeholder="udp://, rtp://, srt://, rtmp://, rtsp://, http(s)://, rist://" autoComplete="off" spellCheck={false} onChange={(e) => form.set('uri', e.target.value)} onBlur={() => form.touch('uri')} />
            </Field>
            {tokens.length > 0 && (
              <Field label="Token" error={form.errorOf('token', run.error)}>
                <select name="token" value={form.values.token} onChange={(e) => form.set('token', e.target.value)}>
                  <option value="">No token</option>
                  {tokens.map((t) => (
                    <option key={t.value} value={t.value}>
                      {t.label}
                    </option>
                  ))}
                </select>
              </Field>
            )}
            <Field label="Interval count" error={form.errorOf('intervalCount', run.error)}>
              <input name="intervalCount" type="number" min={1} step={1} placeholder="10" value={form.values.intervalCount} onChange={(e) => form.set('intervalCount', e.target.value)} onBlur={() => form.touch('intervalCount')} />
            </Field>
          </fieldset>
          <div className="tool-actions">
            <RunStopButton running={run.running} onStop={run.stop} runLabel="Get Interval" stopLabel="Stop" runDisabled={form.values.uri.trim() === ''} />
            <NodeNote node={form.node} />
          </div>
        </Card>
      </form>
      <RequestError error={run.error} />
      {run.status !== 'idle' && !run.error && (
        <Card title="Results">
          {run.running && !result && samples.length === 0 && !error && <Waiting />}
          {result && (
            <p className="tool-result" data-testid="keyframe-interval">
              Interval: <strong>{seconds(result.interval)}</strong> ({result.gopFrames} frames; min {seconds(result.minSeconds)}, max {seconds(result.maxSeconds)} over {result.count})
            </p>
          )}
          {error && (
            <p className="tool-error" role="alert">
              got error {error.error}
            </p>
          )}
          {samples.length > 0 && (
            <div className="table-wrap">
              <table className="table tool-table" aria-label="Keyframe intervals">
                <thead>
                  <tr>
                    <th scope="col" className="align-right">#</th>
                    <th scope="col" className="align-right">Keyframe at</th>
                    <th scope="col" className="align-right">Interval</th>
                    <th scope="col" className="align-right">GOP (frames)</th>
                  </tr>
                </thead>
                <tbody>
                  {samples.map(({ sample }) => (
                    <tr key={sample.index}>
                      <td className="align-right">{sample.index}</td>
                      <td className="align-right">{seconds(sample.timeSeconds)}</td>
                      <td className="align-right">{seconds(sample.intervalSeconds)}</td>
                      <td className="align-right">{sample.gopFrames}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <StoppedNote stopped={run.stopped || end?.reason === 'aborted'} />
        </Card>
      )}
    </div>
  );
}
