import type { Request, Response } from 'express';
import type { Principal } from '../auth/principal.ts';
import { ForbiddenError } from '../errors.ts';
import type { AuthService } from '../services/auth.service.ts';
import { sessionIdOf } from './session-cookie.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuse writes that a browser sends on behalf of another site. The session cookie is
 * SameSite=Strict already; this also covers sign-in (login CSRF) and older browsers.
 */
export function refuseCrossSiteWrites(req: Request): void {
  if (SAFE_METHODS.has(req.method)) return;
  const fetchSite = req.get('sec-fetch-site');
  const origin = req.get('origin');
  // `Origin: null` is an opaque origin (a sandboxed frame, a page from file:, a cross-site redirect): never this console.
  const crossSite = fetchSite === 'cross-site' || (origin !== undefined && safeHost(origin) !== req.get('host'));
  if (crossSite) throw new ForbiddenError('Cross-site requests are refused.', 'CROSS_SITE_REQUEST');
}

function safeHost(origin: string): string | undefined {
  if (origin === 'null') return undefined;
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

/**
 * The caller of a request, from `Authorization: Bearer <token>` or the session cookie; undefined when
 * neither is live. `touch: false` checks without counting as activity.
 */
export async function principalOfRequest(auth: AuthService, req: Request, options: { touch?: boolean } = {}): Promise<{ principal: Principal; expiresAt?: Date } | undefined> {
  const header = req.get('authorization');
  if (header?.startsWith('Bearer ')) {
    const principal = await auth.principalForToken(header.slice(7).trim(), options);
    return principal ? { principal } : undefined;
  }
  const sessionId = sessionIdOf(req);
  return sessionId ? auth.principalForSession(sessionId, options) : undefined;
}

/** Resolve the caller into res.locals.principal (and the session's end into res.locals.sessionExpiresAt). */
export async function authenticate(auth: AuthService, req: Request, res: Response): Promise<void> {
  const found = await principalOfRequest(auth, req);
  res.locals.principal = found?.principal;
  res.locals.sessionExpiresAt = found?.expiresAt;
}
