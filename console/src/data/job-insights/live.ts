import { useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import type { JobKind } from '../jobs/keys.ts';
import { jobTopic } from '../jobs/keys.ts';
import { useLiveUpdates, type LiveEvent } from '../live.ts';
import { jobInsightKeys } from './keys.ts';

/** A refetch at most this often, however many events arrive. */
const REFETCH_GAP_MS = 1000;

/** Is this event of the kind's topic about job `id`? (`stats` events carry a list of jobs.) */
function concerns(event: LiveEvent, id: number): boolean {
  if (event.id === id || event.id === String(id)) return true;
  return event.type === 'stats' && Array.isArray(event.data) && event.data.some((entry) => (entry as { id?: unknown } | null)?.id === id);
}

/**
 * Keeps what a tab reads about one job current from the kind's live topic: the monitor on its
 * status and figures (state, SRT statistics), the batch results when a file is done.
 */
export function useJobInsightLive(kind: JobKind, id: number, what: 'monitor' | 'batch-results'): void {
  const queryClient = useQueryClient();
  const last = useRef(0);
  const timer = useRef<number | undefined>(undefined);
  useLiveUpdates([jobTopic(kind)], (event) => {
    if (!concerns(event, id)) return;
    if (what === 'batch-results' && event.type !== 'batch' && event.type !== 'status') return;
    const key = what === 'monitor' ? jobInsightKeys.monitor(kind, id) : jobInsightKeys.batchResultsOf(kind, id);
    const wait = last.current + REFETCH_GAP_MS - Date.now();
    window.clearTimeout(timer.current);
    const run = () => {
      last.current = Date.now();
      void queryClient.invalidateQueries({ queryKey: key });
    };
    if (wait <= 0) run();
    else timer.current = window.setTimeout(run, wait);
  });
}
