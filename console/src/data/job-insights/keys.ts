import type { paths } from '../../../../openapi/client/index.ts';
import type { JobKind } from '../jobs/keys.ts';

export type JobLogsQuery = NonNullable<paths['/api/relays/{id}/logs']['get']['parameters']['query']>;
export type JobLogsFollowQuery = NonNullable<paths['/api/relays/{id}/logs/follow']['get']['parameters']['query']>;
export type BatchResultsQuery = NonNullable<paths['/api/relays/{id}/batch-results']['get']['parameters']['query']>;

/**
 * What is read about one job. The monitor and the batch results live under [kind + 's'] so the
 * kind's live topic refreshes them; the log has a root of its own: its live follow (an event
 * stream per filter) keeps it current, and status events must not re-read it.
 */
export const jobInsightKeys = {
  logs: (kind: JobKind, id: number, query: JobLogsQuery) => ['job-logs', kind, id, query] as const,
  batchResults: (kind: JobKind, id: number, query: BatchResultsQuery) => [`${kind}s`, 'batch-results', id, query] as const,
  batchResultsOf: (kind: JobKind, id: number) => [`${kind}s`, 'batch-results', id] as const,
  monitor: (kind: JobKind, id: number) => [`${kind}s`, 'monitor', id] as const,
  mediaInfo: (kind: JobKind, id: number) => ['job-media-info', kind, id] as const,
};
