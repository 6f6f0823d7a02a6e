import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

/** Give every request an id (kept from X-Request-Id when sane) and note where it came from. */
export function requestContext(req: Request, res: Response, next: NextFunction): void {
  const given = req.get('x-request-id');
  const id = given && /^[\w.-]{1,100}$/.test(given) ? given : randomUUID();
  res.locals.requestId = id;
  res.setHeader('X-Request-Id', id);
  // Read when an operation asks for it (sign-in, sessions): resolving the client address behind a proxy is work most requests never need.
  let client: { ip: string; userAgent: string } | undefined;
  Object.defineProperty(res.locals, 'client', {
    enumerable: true,
    get: () => (client ??= { ip: req.ip ?? req.socket.remoteAddress ?? 'unknown', userAgent: (req.get('user-agent') ?? '').slice(0, 1000) }),
  });
  next();
}
