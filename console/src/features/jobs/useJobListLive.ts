import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { Schemas } from '../../data/client.ts';
import type { JobPage } from '../../data/jobs/queries.ts';
import { useLiveUpdates, type LiveEvent } from '../../data/live.ts';
import { workStatusOf } from './jobLabels.ts';

type JobStatus = Schemas['JobStatus'];

/** The `stats` event of the node reconciler: the latest figures of up to 40 running jobs. */
interface StatsEntry {
  id: number;
  cpu?: number;
  rss?: number;
  inputBps?: number;
  outputBps?: number;
}

/** The `status` event: one job's observed state. */
interface StatusData {
  state: JobStatus['state'];
  cpu?: number;
  rss?: number;
  restarts?: number;
  reason?: string | null;
}

/** A refetch of the subscribed lists at most this often, however many events arrive. */
const REFETCH_GAP_MS = 1000;

function patchRows(queryClient: QueryClient, topic: string, patch: (item: JobPage['items'][number]) => JobPage['items'][number] | undefined): void {
  queryClient.setQueriesData<JobPage>({ queryKey: [topic, 'list'] }, (page) => {
    if (!page) return page;
    let changed = false;
    const items = page.items.map((item) => {
      const next = patch(item);
      if (!next) return item;
      changed = true;
      return next;
    });
    return changed ? { ...page, items } : page;
  });
}

function applyStats(queryClient: QueryClient, topic: string, entries: StatsEntry[]): void {
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  patchRows(queryClient, topic, (item) => {
    const stats = byId.get(item.id);
    if (!stats) return undefined;
    const inputs = stats.inputBps === undefined ? item.status.inputs : item.status.inputs.length ? item.status.inputs.map((input, i) => (i === 0 ? { ...input, bps: stats.inputBps as number } : input)) : [{ bps: stats.inputBps, srtStat: null }];
    return { ...item, status: { ...item.status, cpu: stats.cpu ?? item.status.cpu, rss: stats.rss ?? item.status.rss, inputs } };
  });
}

function applyStatus(queryClient: QueryClient, topic: string, id: number, data: StatusData): void {
  patchRows(queryClient, topic, (item) => {
    if (item.id !== id) return undefined;
    const status = {
      ...item.status,
      state: data.state,
      workStatus: workStatusOf(item.status.on, data.state),
      cpu: data.cpu ?? item.status.cpu,
      rss: data.rss ?? item.status.rss,
      restarts: data.restarts ?? item.status.restarts,
      reason: data.reason === undefined ? item.status.reason : data.reason,
    };
    return { ...item, status };
  });
}

/** The switch moved (here or in another console): the row follows at once. */
function applyDesired(queryClient: QueryClient, topic: string, id: number, active: boolean): void {
  patchRows(queryClient, topic, (item) => {
    if (item.id !== id || item.active === active) return undefined;
    return { ...item, active, status: { ...item.status, on: active, workStatus: workStatusOf(active, item.status.state) } };
  });
}

/**
 * Live updates of a job list (spec: status, CPU, RSS and restarts change in place, without a
 * reload). Figures (`stats`) and states (`status`) patch the rows on screen at once, with no
 * request; every other change (and a state change, for the server's counts and times) refetches
 * the lists of the topic, at most once a second, so thousands of jobs changing cost one page
 * request a second.
 */
export function useJobListLive(topic: string): void {
  const queryClient = useQueryClient();
  const timer = useRef<number | undefined>(undefined);
  const lastRefetch = useRef(0);

  useEffect(() => () => window.clearTimeout(timer.current), []);

  function scheduleRefetch() {
    if (timer.current !== undefined) return;
    const wait = Math.max(150, REFETCH_GAP_MS - (Date.now() - lastRefetch.current));
    timer.current = window.setTimeout(() => {
      timer.current = undefined;
      lastRefetch.current = Date.now();
      void queryClient.invalidateQueries({ queryKey: [topic] });
    }, wait);
  }

  useLiveUpdates([topic], (event: LiveEvent) => {
    if (event.topic !== topic) return;
    if (event.type === 'stats') {
      if (Array.isArray(event.data)) applyStats(queryClient, topic, event.data as StatsEntry[]);
      return;
    }
    if (event.type === 'status' && typeof event.id === 'number' && event.data && typeof event.data === 'object') {
      applyStatus(queryClient, topic, event.id, event.data as StatusData);
    }
    if (event.type === 'desired' && typeof event.id === 'number' && event.data && typeof (event.data as { active?: unknown }).active === 'boolean') {
      applyDesired(queryClient, topic, event.id, (event.data as { active: boolean }).active);
    }
    if (event.type === 'batch') return;
    scheduleRefetch();
  });
}
