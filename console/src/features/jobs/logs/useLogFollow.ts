import { useEffect, useRef, useState } from 'react';
import type { JobKind } from '../../../data/jobs/keys.ts';
import { followLogsUrl, type JobLogsFollowQuery, type LogEntry } from '../../../data/job-insights/queries.ts';

/** Lines arriving within this window are shown together: a chatty log costs one render per window. */
const BATCH_MS = 100;

export type FollowState = 'off' | 'connecting' | 'live' | 'interrupted';

/**
 * The live follow of a job's log: an EventSource on /api/{kind}s/{id}/logs/follow that hands the
 * new lines over in batches. It restarts when the filters change; the browser reconnects by
 * itself after a drop (the server asks for 2 s), and the backlog of the follow query fills the gap.
 */
export function useLogFollow(kind: JobKind, id: number, query: JobLogsFollowQuery, enabled: boolean, onLines: (lines: LogEntry[]) => void): FollowState {
  const [state, setState] = useState<FollowState>('off');
  const handler = useRef(onLines);
  handler.current = onLines;
  const url = followLogsUrl(kind, id, query);

  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') {
      setState('off');
      return;
    }
    setState('connecting');
    const source = new EventSource(url, { withCredentials: true });
    let pending: LogEntry[] = [];
    let timer: number | undefined;
    const flush = () => {
      timer = undefined;
      const batch = pending;
      pending = [];
      if (batch.length) handler.current(batch);
    };
    source.onopen = () => setState('live');
    source.onerror = () => setState(source.readyState === EventSource.CLOSED ? 'off' : 'interrupted');
    source.addEventListener('log', (message) => {
      try {
        pending.push(JSON.parse((message as MessageEvent<string>).data) as LogEntry);
      } catch {
        return;
      }
      timer ??= window.setTimeout(flush, BATCH_MS);
    });
    return () => {
      source.close();
      window.clearTimeout(timer);
    };
  }, [url, enabled]);

  return enabled ? state : 'off';
}
