import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from '../client.ts';
import { userKeys, type LoginHistoryQuery, type UserListQuery } from './keys.ts';

export type User = Schemas['User'];
export type UserPage = Schemas['UserPage'];
export type LoginHistoryEntry = Schemas['LoginHistoryEntry'];

export function useUsers(query: UserListQuery) {
  return useQuery({
    queryKey: userKeys.list(query),
    queryFn: ({ signal }) => unwrap(api.GET('/api/users', { params: { query }, signal })),
    placeholderData: keepPreviousData,
  });
}

export function useUser(id: number | undefined) {
  return useQuery({
    queryKey: userKeys.detail(id ?? 0),
    queryFn: ({ signal }) => unwrap(api.GET('/api/users/{id}', { params: { path: { id: id as number } }, signal })),
    enabled: id !== undefined,
  });
}

export function useLoginHistory(query: LoginHistoryQuery) {
  return useQuery({
    queryKey: userKeys.histories(query),
    queryFn: ({ signal }) => unwrap(api.GET('/api/users/histories', { params: { query }, signal })),
    placeholderData: keepPreviousData,
  });
}
