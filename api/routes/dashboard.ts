import { dashboardOperations } from '../../openapi/paths/dashboard.ts';
import { principalOfRequest } from '../http/authenticate.ts';
import { implement } from '../http/operations.ts';
import type { Services } from '../services/index.ts';

const { getDashboard, streamDashboard } = dashboardOperations;

/** A comment this often keeps proxies from closing the stream; each one re-checks the caller. */
const KEEPALIVE_MS = 25_000;

export function dashboardRoutes({ dashboard, auth }: Services) {
  return [
    implement(getDashboard, async ({ query }) => dashboard.status(query.node)),
    implement(streamDashboard, async ({ query, req, res }) => {
      let closed = false;
      let stop: () => void = () => {};
      const close = () => {
        if (closed) return;
        closed = true;
        clearInterval(keepalive);
        stop();
        res.end();
      };
      // Resolving the node first: an unknown node is a 404, not an empty stream.
      await dashboard.resolve(query.node);
      res.status(200);
      res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
      res.setHeader('Cache-Control', 'no-cache, no-transform');
      res.setHeader('Connection', 'keep-alive');
      res.setHeader('X-Accel-Buffering', 'no');
      res.flushHeaders();
      res.write('retry: 2000\n\n');
      stop = await dashboard.follow(query.node, (status) => {
        if (!closed) res.write(`event: status\ndata: ${JSON.stringify(status)}\n\n`);
      });
      if (closed) stop();
      const keepalive = setInterval(() => {
        void principalOfRequest(auth, req, { touch: false })
          .then((found) => (found ? !closed && res.write(': keepalive\n\n') : close()))
          .catch(() => undefined);
      }, KEEPALIVE_MS);
      req.on('close', close);
      if (req.destroyed) close();
    }),
  ];
}
