import { useQuery } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from '../client.ts';
import { timerKeys } from './keys.ts';

export type Timer = Schemas['Timer'];
export type TimerList = Schemas['TimerList'];
export type TimerWrite = Schemas['TimerWrite'];

export function useTimers() {
  return useQuery({ queryKey: timerKeys.list, queryFn: ({ signal }) => unwrap(api.GET('/api/timers', { signal })) });
}

export function useTimer(id: number | undefined) {
  return useQuery({
    queryKey: timerKeys.detail(id ?? 0),
    queryFn: ({ signal }) => unwrap(api.GET('/api/timers/{id}', { params: { path: { id: id as number } }, signal })),
    enabled: id !== undefined,
  });
}

/** The relays or encodings a timer may act on, by name (a search of the job list). */
export function useTaskChoices(kind: 'relay' | 'encoding', search: string) {
  return useQuery({
    queryKey: ['timers', 'tasks', kind, search],
    queryFn: ({ signal }) =>
      unwrap(api.GET(kind === 'relay' ? '/api/relays' : '/api/encodings', { params: { query: { search: search || undefined, size: 50, sort: 'name', order: 'asc' } }, signal })),
    staleTime: 10_000,
  });
}
