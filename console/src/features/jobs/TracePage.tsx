import { useId, useState } from 'react';
import { formatDateTime } from '../../components/format.ts';
import { Icon } from '../../components/icons.tsx';
import { messageOf } from '../../data/client.ts';
import type { JobKind } from '../../data/jobs/keys.ts';
import type { Job } from '../../data/jobs/queries.ts';
import { useTraceJob, type TraceResult } from '../../data/job-insights/queries.ts';
import { JobPageFrame } from './logs/JobPageFrame.tsx';

/** The tab names of the trace keys the API answers; another key shows as it is spelled. */
const TRACE_LABELS: Record<string, string> = { format: 'Format', programs: 'Programs', streams: 'Streams', keyframes: 'Keyframes' };

/** What the job reads, as the input row shows it (its token is never part of the uri). */
function inputText(job: Job): string {
  const input = job.input;
  return input.uri ?? input.path ?? input.type;
}

function TraceTabs({ result }: { result: TraceResult }) {
  const baseId = useId();
  const [current, setCurrent] = useState(0);
  const active = Math.min(current, result.traces.length - 1);
  const table = result.traces[active];
  function onKeyDown(event: React.KeyboardEvent) {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    event.preventDefault();
    const next = (active + (event.key === 'ArrowRight' ? 1 : -1) + result.traces.length) % result.traces.length;
    setCurrent(next);
    document.getElementById(`${baseId}-tab-${next}`)?.focus();
  }
  if (!table) return <p className="muted">The trace found nothing to show.</p>;
  return (
    <div className="trace-result">
      <p className="muted trace-meta">
        Traced <span className="cell-mono">{result.input}</span> at {formatDateTime(result.tracedAt)}
      </p>
      <div className="insight-tabs" role="tablist" aria-label="Trace keys" onKeyDown={onKeyDown}>
        {result.traces.map((trace, i) => (
          <button
            key={trace.key}
            id={`${baseId}-tab-${i}`}
            type="button"
            role="tab"
            aria-selected={i === active}
            aria-controls={`${baseId}-panel`}
            tabIndex={i === active ? 0 : -1}
            className={`insight-tab${i === active ? ' is-current' : ''}`}
            onClick={() => setCurrent(i)}
          >
            {TRACE_LABELS[trace.key] ?? trace.key}
          </button>
        ))}
      </div>
      <div id={`${baseId}-panel`} role="tabpanel" aria-labelledby={`${baseId}-tab-${active}`} className="table-wrap trace-panel">
        <table className="table" aria-label={TRACE_LABELS[table.key] ?? table.key}>
          <thead>
            <tr>
              {table.columns.map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.length === 0 ? (
              <tr>
                <td colSpan={Math.max(1, table.columns.length)} className="table-message">
                  Nothing found
                </td>
              </tr>
            ) : (
              table.rows.map((row, r) => (
                <tr key={r}>
                  {row.map((cell, c) => (
                    <td key={c} className="cell-mono">
                      {cell}
                    </td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function TraceView({ kind, job }: { kind: JobKind; job: Job }) {
  const inputId = useId();
  const trace = useTraceJob(kind, job.id);
  return (
    <section className="trace" aria-label="Trace">
      <div className="trace-row">
        <label htmlFor={inputId}>Input</label>
        <input id={inputId} type="text" readOnly value={inputText(job)} className="cell-mono" />
        <button type="button" className="button" disabled={trace.isPending} onClick={() => trace.mutate()}>
          <Icon name="search" size={14} />
          {trace.isPending ? 'Tracing ...' : 'Trace'}
        </button>
      </div>
      {trace.error && (
        <p className="log-alert" role="alert">
          {messageOf(trace.error)}
        </p>
      )}
      {trace.data && <TraceTabs result={trace.data} />}
    </section>
  );
}

/** /my/{kind}s/trace/{id} (spec 01 §2.8): the job's input with a Trace button, then one tab per trace key, each a table. */
export default function TracePage({ kind }: { kind: JobKind }) {
  return (
    <JobPageFrame kind={kind} current={null} pageLabel="Trace">
      {(job) => <TraceView kind={kind} job={job} />}
    </JobPageFrame>
  );
}
