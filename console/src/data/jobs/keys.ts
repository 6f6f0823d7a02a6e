import type { paths } from '../../../../openapi/client/index.ts';

/** relay or encoding: both kinds speak the same API under /api/{kind}s. */
export type JobKind = 'relay' | 'encoding';
export type JobListQuery = NonNullable<paths['/api/relays']['get']['parameters']['query']>;

/** Everything under [kind + 's'] is refreshed by the live topic of the same name (`relays`, `encodings`). */
export const jobKeys = {
  all: (kind: JobKind) => [`${kind}s`] as const,
  list: (kind: JobKind, query: JobListQuery) => [`${kind}s`, 'list', query] as const,
  detail: (kind: JobKind, id: number) => [`${kind}s`, 'detail', id] as const,
  templates: (kind: JobKind, query: JobListQuery) => [`${kind}s`, 'templates', query] as const,
  template: (kind: JobKind, id: number) => [`${kind}s`, 'template', id] as const,
  features: ['job-features'] as const,
  endpoints: ['endpoints'] as const,
};

/** The topic on which the API streams a kind's changes. */
export function jobTopic(kind: JobKind): string {
  return `${kind}s`;
}
