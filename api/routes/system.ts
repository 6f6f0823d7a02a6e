import type { Response } from 'express';
import { systemOperations } from '../../openapi/paths/system.ts';
import { holdsAny } from '../../openapi/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import { TOPIC_PERMISSIONS } from '../events/topics.ts';
import { implement } from '../http/operations.ts';
import type { Services } from '../services/index.ts';

const {getSystemInfo, getHealth, getOpenApiDocument, streamEvents} = systemOperations;

const KEEPALIVE_MS = 25_000;

function mayReceive(principal: Principal, topic: string): boolean {
  const needed = TOPIC_PERMISSIONS[topic];
  return needed ? holdsAny(principal.granted, needed) : false;
}

export function systemRoutes(services: Services, openApiDocument: () => unknown) {
  return [
    implement(getSystemInfo, async () => services.system.info()),
    implement(getHealth, async () => services.system.health()),
    implement(getOpenApiDocument, async () => openApiDocument()),
    implement(streamEvents, async ({ principal, query, req, res }) => {
      const wanted = query.topics ? new Set(query.topics.split(',').map((t) => t.trim())) : undefined;
      openEventStream(res);
      const unsubscribe = services.events.subscribe((event) => {
        if (wanted && !wanted.has(event.topic)) return;
        if (!mayReceive(principal, event.topic)) return;
        res.write(`event: ${event.topic}\ndata: ${JSON.stringify(event)}\n\n`);
      });
      const keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS);
      req.on('close', () => {
        clearInterval(keepalive);
        unsubscribe();
      });
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
