import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { ApiError, api, type Schemas } from '../client.ts';
import { authKeys } from './keys.ts';

export type Session = Schemas['Session'];
export type SessionUser = Schemas['User'];

/** The session probe: the signed-in user, or null when there is none (401 is an answer here). */
export async function fetchSession(): Promise<Session | null> {
  const { data, error, response } = await api.GET('/api/auth/session');
  if (response.status === 401) return null;
  if (!response.ok || !data) throw ApiError.from(response.status, error, response.headers.get('x-request-id'));
  return data;
}

export function useSession() {
  return useQuery({ queryKey: authKeys.session, queryFn: fetchSession, staleTime: 60_000 });
}

/** The signed-in user; only inside the authenticated shell, where the session is loaded. */
export function useCurrentUser(): SessionUser {
  const { data } = useSession();
  if (!data) throw new Error('useCurrentUser() outside the signed-in shell');
  return data.user;
}

/** The flat permission names the signed-in user holds. */
export function useGranted(): ReadonlySet<string> {
  const { data } = useSession();
  return useMemo(() => new Set(data?.user.grantedPermissions ?? []), [data]);
}

/** Does the signed-in user hold any one of these permissions? */
export function useCan(...anyOf: string[]): boolean {
  const granted = useGranted();
  return anyOf.some((name) => granted.has(name));
}
