import type { NextFunction, Request, Response } from 'express';
import { ForbiddenError } from '../errors.ts';
import type { AuthService } from '../services/auth.service.ts';
import { sessionIdOf } from './session-cookie.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuse writes that a browser sends on behalf of another site. The session cookie is
 * SameSite=Strict already; this also covers sign-in (login CSRF) and older browsers.
 */
export function refuseCrossSiteWrites(req: Request, _res: Response, next: NextFunction): void {
  if (SAFE_METHODS.has(req.method)) return next();
  const fetchSite = req.get('sec-fetch-site');
  const origin = req.get('origin');
  const crossSite = fetchSite === 'cross-site' || (origin !== undefined && origin !== 'null' && safeHost(origin) !== req.get('host'));
  if (crossSite) return next(new ForbiddenError('Cross-site requests are refused.', 'CROSS_SITE_REQUEST'));
  next();
}

function safeHost(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

/** Resolve the caller from `Authorization: Bearer <token>` or the session cookie into res.locals.principal. */
export function authenticate(auth: AuthService) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      const header = req.get('authorization');
      if (header?.startsWith('Bearer ')) {
        res.locals.principal = await auth.principalForToken(header.slice(7).trim());
      } else {
        const sessionId = sessionIdOf(req);
        if (sessionId) {
          const found = await auth.principalForSession(sessionId);
          res.locals.principal = found?.principal;
          res.locals.sessionExpiresAt = found?.expiresAt;
        }
      }
      next();
    } catch (error) {
      next(error);
    }
  };
}
