import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from '../client.ts';
import type { JobKind } from '../jobs/keys.ts';

export type StatisticsJob = Schemas['StatisticsJob'];
export type JobHistoryEvent = Schemas['JobHistoryEvent'];
export type JobUptime = Schemas['JobUptime'];
export type JobDowntime = Schemas['JobDowntime'];
export type HistoryTable = 'events' | 'uptimes' | 'downtimes';

/** The record-count choices of the detail view's tables. */
export const RECORD_COUNTS = [10, 30, 50, 100, 500, 1000] as const;

export interface HistoryRange {
  size: number;
  /** A day, yyyy-MM-dd; absent: the latest records. */
  day?: string;
}

export const statisticsKeys = {
  summary: ['statistics', 'summary'] as const,
  history: (kind: JobKind, id: number, table: HistoryTable, range: HistoryRange) => ['statistics', kind, id, table, range] as const,
};

/** The cards of /my/statistics. */
export function useStatisticsSummary() {
  return useQuery({ queryKey: statisticsKeys.summary, queryFn: ({ signal }) => unwrap(api.GET('/api/statistics', { signal })), refetchInterval: 60_000 });
}

const paths = (kind: JobKind) => ({
  events: `/api/${kind}s/{id}/events` as '/api/relays/{id}/events',
  uptimes: `/api/${kind}s/{id}/uptimes` as '/api/relays/{id}/uptimes',
  downtimes: `/api/${kind}s/{id}/downtimes` as '/api/relays/{id}/downtimes',
});

function query(range: HistoryRange) {
  return range.day ? { size: range.size, from: range.day, to: range.day } : { size: range.size };
}

/** The download link of a table: the call of spec 03 §7, with the chosen record count (and the day). */
export function downloadUrl(kind: JobKind, id: number, table: HistoryTable, range: HistoryRange): string {
  const params = new URLSearchParams(Object.entries(query(range)).map(([k, v]) => [k, String(v)]));
  return `/api/${kind}s/${id}/${table}/download?${params.toString()}`;
}

export function useJobEvents(kind: JobKind, id: number, range: HistoryRange) {
  return useQuery({
    queryKey: statisticsKeys.history(kind, id, 'events', range),
    queryFn: ({ signal }) => unwrap(api.GET(paths(kind).events, { params: { path: { id }, query: query(range) }, signal })),
    placeholderData: keepPreviousData,
  });
}

export function useJobUptimes(kind: JobKind, id: number, range: HistoryRange) {
  return useQuery({
    queryKey: statisticsKeys.history(kind, id, 'uptimes', range),
    queryFn: ({ signal }) => unwrap(api.GET(paths(kind).uptimes, { params: { path: { id }, query: query(range) }, signal })),
    placeholderData: keepPreviousData,
  });
}

export function useJobDowntimes(kind: JobKind, id: number, range: HistoryRange) {
  return useQuery({
    queryKey: statisticsKeys.history(kind, id, 'downtimes', range),
    queryFn: ({ signal }) => unwrap(api.GET(paths(kind).downtimes, { params: { path: { id }, query: query(range) }, signal })),
    placeholderData: keepPreviousData,
  });
}
