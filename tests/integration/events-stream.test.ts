import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';

interface StreamEvent {
  event: string;
  data: { topic: string; type: string; id?: number };
}

/** A client of GET /api/events: collects every event; `next` waits for one that matches. */
interface EventClient {
  status: number;
  contentType: string | null;
  events: StreamEvent[];
  /** Settles when the server ends the stream. */
  ended: Promise<void>;
  next(match: (event: StreamEvent) => boolean, timeoutMs?: number): Promise<StreamEvent>;
  close(): void;
}

let app: TestApp;
let adminCookie: string;
const clients: EventClient[] = [];

async function openEvents(cookie: string, query = ''): Promise<EventClient> {
  const abort = new AbortController();
  const response = await app.request(`/api/events${query}`, { cookie, signal: abort.signal });
  const events: StreamEvent[] = [];
  const waiters = new Set<() => void>();
  let markEnded: () => void = () => {};
  const ended = new Promise<void>((resolve) => (markEnded = resolve));
  const client: EventClient = {
    ended,
    status: response.status,
    contentType: response.headers.get('content-type'),
    events,
    next(match, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(match);
          if (!found) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching event within ${timeoutMs} ms; got ${JSON.stringify(events)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => abort.abort(),
  };
  clients.push(client);
  if (response.status === 200 && response.body) {
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
            if (event && data) events.push({ event, data: JSON.parse(data) as StreamEvent['data'] });
            for (const waiter of [...waiters]) waiter();
          }
        }
      } catch {
        // closed by the test or by the server
      }
      markEnded();
    })();
  }
  return client;
}

const createUser = (username: string) =>
  app.request('/api/users', { method: 'POST', cookie: adminCookie, json: { username, role: 'USER', password: 'a-good-password', confirm: 'a-good-password' } });

beforeAll(async () => {
  app = await startTestApp();
  const admin = await app.createUser({ username: 'admin', role: 'ADMIN' });
  adminCookie = await app.signIn(admin.username, admin.password);
});
afterAll(async () => {
  for (const client of clients) client.close();
  await app.close();
});

describe('GET /api/events', () => {
  it('answers 401 without a session', async () => {
    const response = await app.request('/api/events?topics=users');
    expect(response.status).toBe(401);
  });

  it('sends `event: users` to a USER_VIEW session when another request creates a user', async () => {
    const watcher = await app.createUser({ username: 'watcher', permissions: { user: { level: 'USER_VIEW', hide: false } } });
    const stream = await openEvents(await app.signIn(watcher.username, watcher.password), '?topics=users');
    expect(stream.status).toBe(200);
    expect(stream.contentType).toMatch(/^text\/event-stream/);

    const response = await createUser('newcomer');
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: number };
    const event = await stream.next((e) => e.data.id === id);
    expect(event).toEqual({ event: 'users', data: { topic: 'users', type: 'created', id } });
  });

  it('tells of updates, enabling, disabling and deletion too', async () => {
    const stream = await openEvents(adminCookie, '?topics=users');
    const { id } = (await (await createUser('lifecycle')).json()) as { id: number };
    await app.request(`/api/users/${id}/enabled`, { method: 'PUT', cookie: adminCookie, json: { enabled: false } });
    await app.request(`/api/users/${id}`, { method: 'DELETE', cookie: adminCookie });
    await stream.next((e) => e.data.id === id && e.data.type === 'deleted');
    expect(stream.events.filter((e) => e.data.id === id).map((e) => e.data.type)).toEqual(['created', 'disabled', 'deleted']);
  });

  it('sends nothing of the users topic to a user without USER_VIEW', async () => {
    const outsider = await app.createUser({ username: 'outsider' });
    const insider = await app.createUser({ username: 'insider', permissions: { user: { level: 'USER_VIEW', hide: false } } });
    const blind = await openEvents(await app.signIn(outsider.username, outsider.password), '?topics=users');
    const everything = await openEvents(await app.signIn(outsider.username, outsider.password));
    const seeing = await openEvents(await app.signIn(insider.username, insider.password), '?topics=users');
    expect(blind.status).toBe(200);

    const { id } = (await (await createUser('unseen')).json()) as { id: number };
    await seeing.next((e) => e.data.id === id);
    // A second event, published after the first reached the seeing client, bounds the wait:
    // once it has arrived too, the first would long have reached the blind clients as well.
    await app.services.events.publish({ topic: 'users', type: 'marker', id: -1 });
    await seeing.next((e) => e.data.type === 'marker');
    expect(blind.events).toEqual([]);
    expect(everything.events).toEqual([]);
  });

  it('sends only the topics asked for', async () => {
    const other = await openEvents(adminCookie, '?topics=relays');
    const users = await openEvents(adminCookie, '?topics=users');
    await app.services.events.publish({ topic: 'users', type: 'probe', id: -2 });
    await users.next((e) => e.data.type === 'probe');
    await app.services.events.publish({ topic: 'users', type: 'probe-2', id: -3 });
    await users.next((e) => e.data.type === 'probe-2');
    expect(other.events).toEqual([]);
  });

  it('ends the stream when its user is disabled', async () => {
    const leaving = await app.createUser({ username: 'leaving', permissions: { user: { level: 'USER_VIEW', hide: false } } });
    const stream = await openEvents(await app.signIn(leaving.username, leaving.password), '?topics=users');
    expect((await app.request(`/api/users/${leaving.id}/enabled`, { method: 'PUT', cookie: adminCookie, json: { enabled: false } })).status).toBe(200);
    await stream.ended;
    expect(stream.events.filter((e) => e.data.id === leaving.id)).toEqual([]);
  });

  it('ends the stream of a token whose user is deleted', async () => {
    const gone = await app.createUser({ username: 'gone', permissions: { user: { level: 'USER_VIEW', hide: false } } });
    const cookie = await app.signIn(gone.username, gone.password);
    const { secret } = (await (await app.request('/api/tokens', { method: 'POST', cookie, json: { name: 'stream' } })).json()) as { secret: string };
    const abort = new AbortController();
    const response = await app.request('/api/events', { token: secret, signal: abort.signal });
    expect(response.status).toBe(200);
    const reading = (async () => {
      for await (const _chunk of response.body as unknown as AsyncIterable<Uint8Array>) void _chunk;
    })();
    expect((await app.request(`/api/users/${gone.id}`, { method: 'DELETE', cookie: adminCookie })).status).toBe(200);
    await reading;
    abort.abort();
  });

  it('stops sending the users topic once USER_VIEW is taken away', async () => {
    const demoted = await app.createUser({ username: 'demoted', permissions: { user: { level: 'USER_VIEW', hide: false } } });
    const stream = await openEvents(await app.signIn(demoted.username, demoted.password), '?topics=users');
    const witness = await openEvents(adminCookie, '?topics=users');
    const before = (await (await createUser('seen-before')).json()) as { id: number };
    await stream.next((e) => e.data.id === before.id);

    const saved = await app.request(`/api/users/${demoted.id}`, { method: 'PUT', cookie: adminCookie, json: { username: 'demoted', role: 'USER', enabled: true, permissions: {} } });
    expect(saved.status).toBe(200);
    const after = (await (await createUser('seen-after')).json()) as { id: number };
    await witness.next((e) => e.data.id === after.id);
    await app.services.events.publish({ topic: 'users', type: 'marker', id: -4 });
    await witness.next((e) => e.data.type === 'marker');
    expect(stream.events.map((e) => e.data.id)).toEqual([before.id]);
  });

  it('keeps delivering, once each, after the database drops its listening connection', async () => {
    const stream = await openEvents(adminCookie, '?topics=users');
    const dropped = await sql<{ dropped: boolean }>`
      select pg_terminate_backend(pid) as dropped from pg_stat_activity
      where datname = current_database() and query ilike 'LISTEN%'`.execute(app.db);
    expect(dropped.rows).toEqual([{ dropped: true }]);

    // Publish until one arrives: the bus reconnects on its own.
    let attempt = 0;
    const back = stream.next((e) => e.data.type === 'reconnected');
    const publishing = setInterval(() => void app.services.events.publish({ topic: 'users', type: 'reconnected', id: -100 - attempt++ }), 200);
    try {
      await back;
    } finally {
      clearInterval(publishing);
    }
    // A further event arrives exactly once (no second listening connection left behind).
    await app.services.events.publish({ topic: 'users', type: 'once', id: -200 });
    await app.services.events.publish({ topic: 'users', type: 'after-once', id: -201 });
    await stream.next((e) => e.data.type === 'after-once');
    expect(stream.events.filter((e) => e.data.type === 'once')).toHaveLength(1);
  });
});
