import { useCallback, useEffect, useRef } from 'react';
import { PingRequest } from '../../../../openapi/schemas/tools.ts';
import { Field } from '../../components/form/Field.tsx';
import { Card, PageHeader } from '../../components/Page.tsx';
import { eventsOf, useToolRun, type ToolBodies } from '../../data/tools/stream.ts';
import { usePageTitle } from '../../shell/breadcrumbs.tsx';
import { NodeNote, RequestError, StoppedNote, Waiting } from './ToolParts.tsx';
import { numberOrText, useToolForm } from './toolForm.ts';

interface PingValues extends Record<string, unknown> {
  address: string;
  count: string;
}

/** /my/tools/ping: ping a host from the node; each reply shows as it comes, ping's own error in red. */
export default function PingPage() {
  usePageTitle('Ping');
  const run = useToolRun('ping');
  const toPayload = useCallback((v: PingValues) => ({ address: v.address.trim(), count: numberOrText(v.count) ?? 10 }), []);
  const form = useToolForm(PingRequest, { address: '', count: '10' }, toPayload);
  const lines = eventsOf(run.events, 'line');
  const errors = eventsOf(run.events, 'error');
  const summary = eventsOf(run.events, 'summary')[0]?.summary;
  const end = eventsOf(run.events, 'end')[0];
  const output = useRef<HTMLDivElement>(null);
  useEffect(() => {
    output.current?.scrollTo({ top: output.current.scrollHeight });
  }, [lines.length]);

  return (
    <div className="page">
      <PageHeader title="Ping" />
      <form className="form tool-form" noValidate aria-label="Ping" onSubmit={form.submit((payload) => void run.start(payload as ToolBodies['ping']))}>
        <Card>
          <fieldset className="form-fieldset tool-fields" disabled={run.running}>
            <Field label="Address" required error={form.errorOf('address', run.error)}>
              <input name="address" value={form.values.address} placeholder="Host name or IP address" autoComplete="off" spellCheck={false} onChange={(e) => form.set('address', e.target.value)} onBlur={() => form.touch('address')} />
            </Field>
            <Field label="Count" required error={form.errorOf('count', run.error)}>
              <input name="count" type="number" min={1} max={1000} step={1} value={form.values.count} onChange={(e) => form.set('count', e.target.value)} onBlur={() => form.touch('count')} />
            </Field>
          </fieldset>
          <div className="tool-actions">
            {/* Distinct keys: one DOM button turned from Stop into submit would submit the form at the end of the click that stopped the run. */}
            {run.running ? (
              <button key="stop" type="button" className="button button-danger" onClick={run.stop}>
                Abort
              </button>
            ) : (
              <button key="run" type="submit" className="button">
                Ping
              </button>
            )}
            <NodeNote node={form.node} />
          </div>
        </Card>
      </form>
      <RequestError error={run.error} />
      {run.status !== 'idle' && !run.error && (
        <Card title="Results">
          <div className="tool-output" ref={output} role="log" aria-label="Ping results" aria-live="polite">
            {lines.map((line, i) => (
              <div key={i} className={`tool-line tool-line-${line.kind}`}>
                {line.text}
              </div>
            ))}
            {errors.map((error, i) => (
              <div key={`e${i}`} className="tool-line tool-error" role="alert">
                {error.error}
              </div>
            ))}
          </div>
          {run.running && lines.filter((l) => l.kind === 'reply' || l.kind === 'no_answer' || l.kind === 'error').length === 0 && errors.length === 0 && <Waiting />}
          {summary && (
            <p className="tool-summary">
              {summary.transmitted} transmitted, {summary.received} received, {summary.lossPercent}% packet loss
              {summary.rtt ? `, rtt min/avg/max ${summary.rtt.minMs}/${summary.rtt.avgMs}/${summary.rtt.maxMs} ms` : ''}
            </p>
          )}
          <StoppedNote stopped={run.stopped || end?.reason === 'aborted'} what="Aborted." />
        </Card>
      )}
    </div>
  );
}
