import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../errors.ts';

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
    const status = (error as { status?: number; type?: string }).status;
    if (status === 400 || (error as { type?: string }).type === 'entity.parse.failed') {
      res.status(400).json({ code: 'MALFORMED_REQUEST', message: 'The request body is not valid JSON.', requestId });
      return;
    }
    if (status === 413) {
      res.status(413).json({ code: 'PAYLOAD_TOO_LARGE', message: 'The request body is too large.', requestId });
      return;
    }
    log(`request ${requestId}: ${(error as Error)?.stack ?? String(error)}`);
    res.status(500).json({ code: 'INTERNAL', message: 'Something went wrong on the server. Quote the request id when reporting it.', requestId });
  };
}
