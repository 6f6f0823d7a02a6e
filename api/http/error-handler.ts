import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../errors.ts';

/** What a client error raised by Express or its body parser (they carry a 4xx `status`) answers. */
function clientErrorOf(error: { status?: number; type?: string }): { status: number; code: string; message: string } | undefined {
  const status = error.status;
  if (typeof status !== 'number' || status < 400 || status > 499) return undefined;
  if (status === 400) {
    const message = error.type === 'entity.parse.failed' ? 'The request body is not valid JSON.' : 'The request is malformed.';
    return { status, code: 'MALFORMED_REQUEST', message };
  }
  if (status === 413) return { status, code: 'PAYLOAD_TOO_LARGE', message: 'The request body is too large.' };
  if (status === 415) return { status, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'The request body is in an encoding the API does not read; send UTF-8 JSON.' };
  return { status, code: 'BAD_REQUEST', message: 'The request cannot be handled.' };
}

/** Every error leaves as `{ code, message, details?, requestId }`; a 500 says nothing of its cause. */
export function errorHandler(log: (line: string) => void) {
  return (error: unknown, _req: Request, res: Response, _next: NextFunction): void => {
    const requestId = res.locals.requestId as string | undefined;
    if (res.headersSent) {
      res.end();
      return;
    }
    if (error instanceof AppError) {
      for (const [name, value] of Object.entries(error.headers ?? {})) res.setHeader(name, value);
      res.status(error.status).json({ code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}), requestId });
      return;
    }
    const clientError = clientErrorOf((error ?? {}) as { status?: number; type?: string });
    if (clientError) {
      res.status(clientError.status).json({ code: clientError.code, message: clientError.message, requestId });
      return;
    }
    log(`request ${requestId}: ${(error as Error)?.stack ?? String(error)}`);
    res.status(500).json({ code: 'INTERNAL', message: 'Something went wrong on the server. Quote the request id when reporting it.', requestId });
  };
}
