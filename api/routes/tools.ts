import type { Request, Response } from 'express';
import { toolOperations } from '../../openapi/paths/tools.ts';
import { can, type Principal } from '../auth/principal.ts';
import { principalOfRequest } from '../http/authenticate.ts';
import { implement } from '../http/operations.ts';
import type { Services } from '../services/index.ts';
import type { ToolRequest } from '../services/tools.service.ts';

const { runPing, runMtr, runKeyframe, runMediaCheck } = toolOperations;

/** A comment on a quiet stream this often keeps proxies from closing it; each one re-checks the caller. */
const KEEPALIVE_MS = 15_000;

/**
 * Glue of the tools: admit the run on its node (errors answer as JSON before any stream), then
 * stream its events as SSE until it ends; the client closing the request aborts it (the node
 * ends the child).
 */
export function toolRoutes(services: Services) {
  const { tools, auth } = services;
  const stream = async (principal: Principal, request: ToolRequest, req: Request, res: Response) => {
    const run = await tools.admit(principal, request);
    const abort = new AbortController();
    const stop = () => abort.abort();
    res.on('close', stop);
    // The client may have gone while the node was asked.
    if (res.closed || res.socket?.destroyed) stop();
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache, no-transform');
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
    const send = (event: { type: string; [field: string]: unknown }) => {
      if (!res.writableEnded && !abort.signal.aborted) res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    };
    const keepalive = setInterval(() => {
      void principalOfRequest(auth, req, { touch: false })
        .then((found) => {
          if (!found || !can(found.principal, ...runPing.permission.anyOf)) stop();
          else if (!abort.signal.aborted) res.write(': keepalive\n\n');
        })
        .catch(() => undefined);
    }, KEEPALIVE_MS);
    try {
      send({ type: 'start', tool: run.tool, target: run.target, nodeId: run.nodeId, nodeName: run.nodeName, startedAt: new Date().toISOString() });
      const end = await run.execute(abort.signal, send);
      send({ type: 'end', ...end });
    } catch (error) {
      send({ type: 'error', error: `the tool could not run: ${(error as Error).message}` });
      send({ type: 'end', reason: 'failed', exitCode: null, durationMs: 0 });
    } finally {
      clearInterval(keepalive);
      res.off('close', stop);
      run.release();
      res.end();
    }
  };
  return [
    implement(runPing, async ({ principal, body, req, res }) => stream(principal, { tool: 'ping', body }, req, res)),
    implement(runMtr, async ({ principal, body, req, res }) => stream(principal, { tool: 'mtr', body }, req, res)),
    implement(runKeyframe, async ({ principal, body, req, res }) => stream(principal, { tool: 'keyframe', body }, req, res)),
    implement(runMediaCheck, async ({ principal, body, req, res }) => stream(principal, { tool: 'mediacheck', body }, req, res)),
  ];
}
