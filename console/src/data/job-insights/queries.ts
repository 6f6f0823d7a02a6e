import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from '../client.ts';
import type { JobKind } from '../jobs/keys.ts';
import { jobInsightKeys, type BatchResultsQuery, type JobLogsFollowQuery, type JobLogsQuery } from './keys.ts';
import { jobInsightPaths } from './paths.ts';

export type LogEntry = Schemas['LogEntry'];
export type LogEntries = Schemas['LogEntries'];
export type BatchResult = Schemas['BatchResult'];
export type BatchResultPage = Schemas['BatchResultPage'];
export type JobMonitor = Schemas['JobMonitor'];
export type MonitorDelivery = Schemas['MonitorDelivery'];
export type SrtStats = Schemas['SrtStats'];
export type TraceResult = Schemas['TraceResult'];
export type MediaInfo = Schemas['MediaInfo'];
export type { BatchResultsQuery, JobLogsFollowQuery, JobLogsQuery };

const byId = (id: number) => ({ path: { id } });

/** The last lines of a job's log, filtered (spec 01 §2.9). A new filter keeps the old lines until the new ones come. */
export function useJobLogs(kind: JobKind, id: number, query: JobLogsQuery, enabled = true) {
  return useQuery({
    queryKey: jobInsightKeys.logs(kind, id, query),
    queryFn: ({ signal }) => unwrap(api.GET(jobInsightPaths(kind).logs, { params: { ...byId(id), query }, signal })),
    placeholderData: keepPreviousData,
    // The live follow keeps the lines current; a read again on focus would drop what it appended.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    enabled,
  });
}

/**
 * The URL of a job's live log (Server-Sent Events: `event: log`, data a LogEntry) for EventSource,
 * which cannot go through the typed client. Absent values are left out.
 */
export function followLogsUrl(kind: JobKind, id: number, query: JobLogsFollowQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, String(value));
  const search = params.toString();
  return `/api/${kind}s/${id}/logs/follow${search ? `?${search}` : ''}`;
}

export function useBatchResults(kind: JobKind, id: number, query: BatchResultsQuery, enabled = true) {
  return useQuery({
    queryKey: jobInsightKeys.batchResults(kind, id, query),
    queryFn: ({ signal }) => unwrap(api.GET(jobInsightPaths(kind).batchResults, { params: { ...byId(id), query }, signal })),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** The playable outputs and SRT statistics of a job (the Monitor tab). */
export function useJobMonitor(kind: JobKind, id: number, enabled = true) {
  return useQuery({
    queryKey: jobInsightKeys.monitor(kind, id),
    queryFn: ({ signal }) => unwrap(api.GET(jobInsightPaths(kind).monitor, { params: byId(id), signal })),
    enabled,
  });
}

/** The media info of a stored job's input (probed on the server; may take seconds). */
export function useJobMediaInfo(kind: JobKind, id: number, enabled = true) {
  return useQuery({
    queryKey: jobInsightKeys.mediaInfo(kind, id),
    queryFn: ({ signal }) => unwrap(api.GET(jobInsightPaths(kind).mediaInfo, { params: byId(id), signal })),
    staleTime: 60_000,
    refetchOnWindowFocus: false,
    enabled,
  });
}

/** The media source check of an input not saved yet. */
export function useDetectMediaInfo(kind: JobKind) {
  return useMutation({ mutationFn: (input: Schemas['Input']) => unwrap(api.POST(jobInsightPaths(kind).detectMediaInfo, { body: input })) });
}

/** Trace a stored job's input: one table per trace key (a read, but it probes the source on each call). */
export function useTraceJob(kind: JobKind, id: number) {
  return useMutation({ mutationFn: () => unwrap(api.POST(jobInsightPaths(kind).trace, { params: byId(id) })) });
}
