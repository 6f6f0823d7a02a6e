import type { ReactNode } from 'react';
import { messageOf } from '../../data/client.ts';
import { useNodeSummaries } from '../../data/system/queries.ts';

/** Where the tool runs: the selected node (`?node=`), or the node serving the console. */
export function NodeNote({ node }: { node: number | undefined }) {
  const nodes = useNodeSummaries(node !== undefined);
  if (node === undefined) return null;
  const name = nodes.data?.items.find((n) => n.id === node)?.name;
  return <p className="tool-node">Node: {name ?? `#${node}`}</p>;
}

/** The waiting message of a run that has no result yet. */
export function Waiting({ children = 'Waiting for results ...' }: { children?: ReactNode }) {
  return (
    <p className="tool-waiting" role="status">
      <span className="spinner" aria-hidden="true" />
      {children}
    </p>
  );
}

/** A refused request (the API's message) or a broken stream. */
export function RequestError({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <div className="notice notice-error" role="alert">
      {messageOf(error)}
    </div>
  );
}

export function StoppedNote({ stopped, what = 'Stopped.' }: { stopped: boolean; what?: string }) {
  return stopped ? <p className="tool-note">{what}</p> : null;
}

/**
 * The form's run button, which is a stop button while the tool runs. Distinct keys: one DOM button
 * turned from Stop into submit would submit the form at the end of the click that stopped the run.
 */
export function RunStopButton({ running, onStop, runLabel, stopLabel, runDisabled }: { running: boolean; onStop: () => void; runLabel: string; stopLabel: string; runDisabled?: boolean }) {
  return running ? (
    <button key="stop" type="button" className="button button-danger" onClick={onStop}>
      {stopLabel}
    </button>
  ) : (
    <button key="run" type="submit" className="button" disabled={runDisabled}>
      {runLabel}
    </button>
  );
}
