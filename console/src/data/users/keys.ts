import type { paths } from '../../../../openapi/client/index.ts';

export type UserListQuery = NonNullable<paths['/api/users']['get']['parameters']['query']>;
export type LoginHistoryQuery = NonNullable<paths['/api/users/histories']['get']['parameters']['query']>;

/** Everything under ['users'] is refreshed by the live topic `users`. */
export const userKeys = {
  all: ['users'] as const,
  list: (query: UserListQuery) => ['users', 'list', query] as const,
  detail: (id: number) => ['users', 'detail', id] as const,
  histories: (query: LoginHistoryQuery) => ['users', 'histories', query] as const,
};
