import { BULK_ACTION_PATHS, type BulkAction } from '../../../../openapi/schemas/job-api.ts';
import type { JobKind } from './keys.ts';

/**
 * The typed client knows each path literally; relays and encodings share one shape, so the
 * encoding paths are typed as their relay twins. One place holds that cast.
 */
export const jobPaths = (kind: JobKind) => ({
  list: `/api/${kind}s` as '/api/relays',
  one: `/api/${kind}s/{id}` as '/api/relays/{id}',
  start: `/api/${kind}s/{id}/start` as '/api/relays/{id}/start',
  stop: `/api/${kind}s/{id}/stop` as '/api/relays/{id}/stop',
  restart: `/api/${kind}s/{id}/restart` as '/api/relays/{id}/restart',
  /** The operation of one bulk action; the five share one body and one answer, so they are typed as the first. */
  bulk: (action: BulkAction) => `/api/${kind}s/bulk/${BULK_ACTION_PATHS[action]}` as '/api/relays/bulk/start',
  saveAsTemplate: `/api/${kind}s/{id}/template` as '/api/relays/{id}/template',
  comments: `/api/${kind}s/{id}/comments` as '/api/relays/{id}/comments',
  comment: `/api/${kind}s/{id}/comments/{commentId}` as '/api/relays/{id}/comments/{commentId}',
  templates: `/api/${kind}s/templates` as '/api/relays/templates',
  template: `/api/${kind}s/templates/{id}` as '/api/relays/templates/{id}',
  fromTemplate: `/api/${kind}s/templates/{id}/jobs` as '/api/relays/templates/{id}/jobs',
});
