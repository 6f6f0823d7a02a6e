import { createReadStream } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { readdirSync, readFileSync } from 'node:fs';
import { readSse } from '../../cli/sse.ts';
import type { Schemas } from '../../openapi/client/index.ts';
import { waitFor } from '../support/jobs.ts';

export type ToolEvent = Schemas['ToolEvent'];

/** A tool event and when it arrived (ms since the request was sent). */
export interface Arrived {
  event: ToolEvent;
  atMs: number;
}

/** Read a tool's SSE stream as it comes; `onEvent` may abort. */
export async function readToolStream(response: Response, started: number, onEvent?: (event: ToolEvent, all: Arrived[]) => void): Promise<Arrived[]> {
  const all: Arrived[] = [];
  try {
    for await (const message of readSse(response.body as ReadableStream<Uint8Array>)) {
      const event = JSON.parse(message.data) as ToolEvent;
      if (event.type !== message.event) throw new Error(`event ${message.event} carries type ${event.type}`);
      all.push({ event, atMs: Date.now() - started });
      onEvent?.(event, all);
    }
  } catch (error) {
    if ((error as Error).name !== 'AbortError') throw error;
  }
  return all;
}

export const ofType = <T extends ToolEvent['type']>(events: Arrived[], type: T) => events.filter((e) => e.event.type === type).map((e) => e.event as Extract<ToolEvent, { type: T }>);

/** A plain HTTP server of one file (an MPEG-TS made by lavfi), as a CDN would serve it. */
export async function serveFile(file: string): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    if (req.url !== '/source.ts') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'video/mp2t' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/source.ts`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Processes of a process group (the pid of its leader), as /proc tells them. */
export function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // fields[0] is the state, fields[2] the process group.
      if (fields[0] !== 'Z' && Number(fields[2]) === pgid) members.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return members;
}

export function waitUntilGone(pgid: number, what: string): Promise<true> {
  return waitFor(async () => groupMembers(pgid).length === 0, what, 10_000);
}
