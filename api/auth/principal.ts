import { grantedPermissions, holdsAny, type UserPermissionMap } from '../../openapi/permissions.ts';
import type { UserRow } from '../db/tables.ts';

/** Who is calling: the signed-in user (by session cookie or API token) and what it may do. */
export interface Principal {
  userId: number;
  username: string;
  role: string;
  granted: ReadonlySet<string>;
  via: 'session' | 'token';
  /** SHA-256 of the session id when signed in by cookie. */
  sessionIdHash?: string;
}

export function principalOf(user: UserRow, via: Principal['via'], sessionIdHash?: string): Principal {
  return {
    userId: user.id,
    username: user.username,
    role: user.role,
    granted: grantedPermissions(user.role, user.permissions as UserPermissionMap),
    via,
    sessionIdHash,
  };
}

export function can(principal: Principal, ...anyOf: string[]): boolean {
  return holdsAny(principal.granted, anyOf);
}

/** Where a request came from, for the login history and throttling. */
export interface ClientInfo {
  ip: string;
  userAgent: string;
}
