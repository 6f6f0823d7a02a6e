import { useQuery } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from '../client.ts';

export type DiagnosticRow = Schemas['DiagnosticRow'];
export type InternetCheck = Schemas['InternetCheck'];

export const diagnosticsKeys = {
  report: ['diagnostics', 'report'] as const,
  internet: ['diagnostics', 'internet'] as const,
};

/** The versions of the server components (read on the server each time the page opens). */
export function useDiagnostics() {
  return useQuery({ queryKey: diagnosticsKeys.report, queryFn: ({ signal }) => unwrap(api.GET('/api/diagnostics', { signal })), staleTime: 0, refetchOnWindowFocus: false });
}

/** The Internet Connection row: request (pending), then on or off. */
export function useInternetCheck() {
  return useQuery({ queryKey: diagnosticsKeys.internet, queryFn: ({ signal }) => unwrap(api.GET('/api/diagnostics/internet', { signal })), staleTime: 0, refetchOnWindowFocus: false, retry: false });
}
