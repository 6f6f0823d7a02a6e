import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './client.ts';

/** Retry only what may pass on a second try: never a 4xx answer. */
function retry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status < 500) return false;
  return failureCount < 1;
}

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry, staleTime: 10_000, refetchOnWindowFocus: true },
    mutations: { retry: false },
  },
});
