import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/app.ts';
import { dataPaths } from '../../api/config.ts';
import { EventBus } from '../../api/events/event-bus.ts';
import { pingRedis } from '../../api/events/redis-transport.ts';
import { createServices } from '../../api/services/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { waitFor } from '../support/jobs.ts';

/**
 * Redis Settings for real: a redis-server on a free loopback port, two API processes on one
 * database. Saving the setting on one makes both fan events out through Redis, and an event
 * published by one reaches an SSE client of the other.
 */
let a: TestApp;
let b: { url: string; events: EventBus; close(): Promise<void> };
let redis: ChildProcess;
let redisPort: number;
let cookie: string;
const stops: Array<() => unknown> = [];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** A second API process on the database of `a`, with its own event bus. */
async function startSecondInstance(app: TestApp) {
  const events = new EventBus(app.databaseUrl, app.db);
  await events.start();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'mediaplane-b-'));
  const services = createServices(app.db, events, { devMode: false, paths: dataPaths(dataDir), auth: { sessionIdleMinutes: 60, sessionMaxHours: 12 } });
  const stopSettings = await services.settings.start();
  const server: Server = await new Promise((resolve) => {
    const s = createApp(services, { log: () => {} }).listen(0, '127.0.0.1', () => resolve(s));
  });
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    events,
    async close() {
      stopSettings();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await events.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Reads GET /api/events of `baseUrl` and resolves with the first event that matches. */
async function sseClient(baseUrl: string) {
  const abort = new AbortController();
  stops.push(() => abort.abort());
  const response = await fetch(`${baseUrl}/api/events`, { headers: { cookie }, signal: abort.signal });
  expect(response.status).toBe(200);
  const seen: Array<{ event: string; data: { topic: string; type: string; id?: string | number } }> = [];
  const waiters = new Set<() => void>();
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.+)$/m.exec(block)?.[1];
          const data = /^data: (.+)$/m.exec(block)?.[1];
          if (event && data) seen.push({ event, data: JSON.parse(data) });
          for (const waiter of [...waiters]) waiter();
        }
      }
    } catch {
      // closed by the test
    }
  })();
  return {
    seen,
    next(match: (e: (typeof seen)[number]) => boolean) {
      return new Promise<(typeof seen)[number]>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching event; got ${JSON.stringify(seen)}`)), 10_000);
        const check = () => {
          const found = seen.find(match);
          if (!found) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
        };
        waiters.add(check);
        check();
      });
    },
  };
}

beforeAll(async () => {
  redisPort = await freePort();
  redis = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'], { stdio: 'ignore' });
  await waitFor(() => pingRedis({ host: '127.0.0.1', port: redisPort }).then(() => true, () => false), 'redis-server answering PING');
  a = await startTestApp();
  const stopA = await a.services.settings.start();
  stops.push(stopA);
  b = await startSecondInstance(a);
  const admin = await a.createUser({ username: 'admin', role: 'ADMIN' });
  cookie = await a.signIn(admin.username, admin.password);
}, 60_000);

afterAll(async () => {
  for (const stop of stops) await stop();
  await b?.close();
  await a?.close();
  redis?.kill('SIGTERM');
});

describe('PUT /api/settings/redis', () => {
  it('refuses an unreachable Redis with a 400 naming redisHost and the error', async () => {
    const closedPort = await freePort();
    const started = Date.now();
    const response = await a.request('/api/settings/redis', { method: 'PUT', cookie, json: { redisHost: `127.0.0.1:${closedPort}` } });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { code: string; message: string; details: Array<{ path: string }> };
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.message).toMatch(new RegExp(`^redisHost: Redis at 127\\.0\\.0\\.1:${closedPort} cannot be reached: .*ECONNREFUSED`));
    expect(body.details[0].path).toBe('redisHost');
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it('refuses an endpoint that is not host:port', async () => {
    const response = await a.request('/api/settings/redis', { method: 'PUT', cookie, json: { redisHost: 'localhost' } });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toContain('host:port');
  });

  it('saves a reachable Redis; both API processes then fan events out through it', async () => {
    const response = await a.request('/api/settings/redis', { method: 'PUT', cookie, json: { redisHost: `127.0.0.1:${redisPort}` } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ redisHost: `127.0.0.1:${redisPort}`, redisPasswordSet: false, connected: true });
    // B follows the setting through the settings event it receives.
    await waitFor(async () => b.events.redisReady, 'the second API process connected to redis');
    const onB = await fetch(`${b.url}/api/settings/redis`, { headers: { cookie } });
    expect(((await onB.json()) as { connected: boolean }).connected).toBe(true);
  });

  it('an event published by one API process reaches an SSE client of the other through Redis', async () => {
    // A raw subscriber proves what goes over Redis.
    const spy = createClient({ socket: { host: '127.0.0.1', port: redisPort } });
    await spy.connect();
    stops.push(() => spy.close());
    const onRedis: Array<{ topic: string; type: string; id?: unknown; _origin?: string }> = [];
    await spy.subscribe('mediaplane:events', (message) => onRedis.push(JSON.parse(message)));

    const client = await sseClient(b.url);
    const created = await a.request('/api/users', { method: 'POST', cookie, json: { username: 'via-redis', role: 'USER', password: 'a-good-password', confirm: 'a-good-password' } });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { id: number }).id;
    const received = await client.next((e) => e.event === 'users' && e.data.id === id);
    expect(received.data.type).toBe('created');
    await waitFor(async () => onRedis.some((m) => m.topic === 'users' && m.id === id && m._origin), 'the event on the redis channel');
    // Sent on both transports, delivered once.
    expect(client.seen.filter((e) => e.event === 'users' && e.data.id === id)).toHaveLength(1);

    // And what arrives on Redis alone (from a process B never hears through Postgres) reaches B's SSE client.
    await spy.duplicate().connect().then(async (publisher) => {
      await publisher.publish('mediaplane:events', JSON.stringify({ topic: 'users', type: 'updated', id: 424242, _origin: 'another-process', _seq: 1 }));
      await publisher.close();
    });
    const fromRedis = await client.next((e) => e.event === 'users' && e.data.id === 424242);
    expect(fromRedis.data).toEqual({ topic: 'users', type: 'updated', id: 424242 });
  });

  it('forgets the Redis on DELETE: events go through Postgres alone again', async () => {
    const response = await a.request('/api/settings/redis', { method: 'DELETE', cookie });
    expect(await response.json()).toEqual({ redisHost: '', redisPasswordSet: false, connected: false });
    await waitFor(async () => !b.events.redisReady, 'the second API process left redis');
  });
});
