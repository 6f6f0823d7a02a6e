import { useCallback, useEffect, useRef } from 'react';
import { PingRequest } from '../../../../openapi/schemas/tools.ts';
import { eventsOf, useToolRun, type ToolBodies } from '../../data/tools/stream.ts';
import { usePageTitle } from '../../shell/breadcrumbs.tsx';
import { HostToolPage } from './HostToolPage.tsx';
import { StoppedNote, Waiting } from './ToolParts.tsx';
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
    <HostToolPage title="Ping" host={{ name: 'address', label: 'Address' }} form={form} run={run} onRun={(payload) => void run.start(payload as ToolBodies['ping'])} runLabel="Ping" stopLabel="Abort">
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
    </HostToolPage>
  );
}
