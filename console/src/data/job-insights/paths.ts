import type { JobKind } from '../jobs/keys.ts';

/**
 * The typed client knows each path literally; relays and encodings share one shape, so the
 * encoding paths are typed as their relay twins (as data/jobs/paths.ts does).
 */
export const jobInsightPaths = (kind: JobKind) => ({
  logs: `/api/${kind}s/{id}/logs` as '/api/relays/{id}/logs',
  follow: `/api/${kind}s/{id}/logs/follow` as '/api/relays/{id}/logs/follow',
  batchResults: `/api/${kind}s/{id}/batch-results` as '/api/relays/{id}/batch-results',
  detectMediaInfo: `/api/${kind}s/media-info` as '/api/relays/media-info',
  mediaInfo: `/api/${kind}s/{id}/media-info` as '/api/relays/{id}/media-info',
  trace: `/api/${kind}s/{id}/trace` as '/api/relays/{id}/trace',
  monitor: `/api/${kind}s/{id}/monitor` as '/api/relays/{id}/monitor',
});
