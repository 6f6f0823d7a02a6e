import type { FormEvent, ReactNode } from 'react';
import { Field } from '../../components/form/Field.tsx';
import { Card, PageHeader } from '../../components/Page.tsx';
import type { RunStatus } from '../../data/tools/stream.ts';
import { NodeNote, RequestError, RunStopButton } from './ToolParts.tsx';

/** What the page uses of a tool's form (useToolForm of toolForm.ts) whose values hold a host and a count. */
interface HostForm<H extends string> {
  values: Record<H | 'count', string>;
  node: number | undefined;
  set: (field: H | 'count', value: string) => void;
  touch: (field: string) => void;
  errorOf: (field: string, requestError?: unknown) => string | undefined;
  submit: (run: (payload: Record<string, unknown>) => void) => (event: FormEvent) => void;
}

/** What the page uses of a tool's run (useToolRun of data/tools/stream.ts). */
interface HostRun {
  status: RunStatus;
  error: unknown;
  running: boolean;
  stop: () => void;
}

interface HostToolPageProps<H extends string> {
  /** The page's heading and the form's name ("Ping", "MTR"). */
  title: string;
  /** The host field: its name in the form's values and its label ("address", "Address"). */
  host: { name: H; label: string };
  form: HostForm<H>;
  run: HostRun;
  /** Starts a run with the form's payload once its values are valid. */
  onRun: (payload: Record<string, unknown>) => void;
  runLabel: string;
  stopLabel: string;
  /** Fields of the tool after Host and Count (MTR's No DNS). */
  fields?: ReactNode;
  /** The content of the Results card, shown once a run was started and was not refused. */
  children: ReactNode;
}

/**
 * A tool page that probes a host from the node (Ping, MTR): the form with the host and the count,
 * Start/Stop, the node it runs on, a refused request, and the Results card the tool fills.
 */
export function HostToolPage<H extends string>({ title, host, form, run, onRun, runLabel, stopLabel, fields, children }: HostToolPageProps<H>) {
  return (
    <div className="page">
      <PageHeader title={title} />
      <form className="form tool-form" noValidate aria-label={title} onSubmit={form.submit(onRun)}>
        <Card>
          <fieldset className="form-fieldset tool-fields" disabled={run.running}>
            <Field label={host.label} required error={form.errorOf(host.name, run.error)}>
              <input name={host.name} value={form.values[host.name]} placeholder="Host name or IP address" autoComplete="off" spellCheck={false} onChange={(e) => form.set(host.name, e.target.value)} onBlur={() => form.touch(host.name)} />
            </Field>
            <Field label="Count" required error={form.errorOf('count', run.error)}>
              <input name="count" type="number" min={1} max={1000} step={1} value={form.values.count} onChange={(e) => form.set('count', e.target.value)} onBlur={() => form.touch('count')} />
            </Field>
            {fields}
          </fieldset>
          <div className="tool-actions">
            <RunStopButton running={run.running} onStop={run.stop} runLabel={runLabel} stopLabel={stopLabel} />
            <NodeNote node={form.node} />
          </div>
        </Card>
      </form>
      <RequestError error={run.error} />
      {run.status !== 'idle' && !run.error && <Card title="Results">{children}</Card>}
    </div>
  );
}
