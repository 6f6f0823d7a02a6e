import type { Response } from 'express';
import { systemOperations } from '../../openapi/paths/system.ts';
import { holdsAny } from '../../openapi/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import { TOPIC_PERMISSIONS } from '../events/topics.ts';
import { principalOfRequest } from '../http/authenticate.ts';
import { implement } from '../http/operations.ts';
import type { Services } from '../services/index.ts';

const { getSystemInfo, listNodeSummaries, getHealth, getOpenApiDocument, streamEvents } = systemOperations;

const KEEPALIVE_MS = 25_000;

function mayReceive(principal: Principal, topic: string): boolean {
  const needed = TOPIC_PERMISSIONS[topic];
  return needed ? holdsAny(principal.granted, needed) : false;
}

export function systemRoutes(services: Services, openApiDocument: () => unknown) {
  return [
    implement(getSystemInfo, async () => services.system.info()),
    implement(listNodeSummaries, async () => services.system.listNodes()),
    implement(getHealth, async () => services.system.health()),
    implement(getOpenApiDocument, async () => openApiDocument()),
    implement(streamEvents, async ({ principal, query, req, res }) => {
      const wanted = query.topics ? new Set(query.topics.split(',').map((t) => t.trim())) : undefined;
      let current: Principal = principal;
      let closed = false;
      // The stream lives as long as its session or token: a change of its user (disabled, deleted, new
      // role or permissions) re-checks it at once, and every keepalive re-checks it (sign-out, timeouts).
      const recheck = async () => {
        const found = await principalOfRequest(services.auth, req, { touch: false }).catch(() => ({ principal: current }));
        if (found) current = found.principal;
        else close();
      };
      let queue: Promise<void> = Promise.resolve();
      const enqueue = (step: () => Promise<void> | void) => {
        queue = queue.then(() => (closed ? undefined : step())).catch(() => {});
      };
      openEventStream(res);
      const unsubscribe = services.events.subscribe((event) => {
        enqueue(async () => {
          if (event.topic === 'users' && event.id === current.userId) await recheck();
          if (closed || (wanted && !wanted.has(event.topic)) || !mayReceive(current, event.topic)) return;
          res.write(`event: ${event.topic}\ndata: ${JSON.stringify(event)}\n\n`);
        });
      });
      const keepalive = setInterval(
        () =>
          enqueue(async () => {
            await recheck();
            if (!closed) res.write(': keepalive\n\n');
          }),
        KEEPALIVE_MS,
      );
      function close() {
        if (closed) return;
        closed = true;
        clearInterval(keepalive);
        unsubscribe();
        res.end();
      }
      req.on('close', close);
    }),
  ];
}

function openEventStream(res: Response): void {
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('Connection', 'keep-alive');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  res.write('retry: 2000\n\n');
}
