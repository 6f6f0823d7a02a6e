import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Schemas } from '../../openapi/client/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { insertJob } from '../support/jobs.ts';

/** GET /api/statistics: the cards of /my/statistics, from job events, on a real Postgres. */
let app: TestApp;
let admin: string;
let relayId: number;
const HOUR = 3600_000;

beforeAll(async () => {
  app = await startTestApp();
  const user = await app.createUser({ username: 'admin', role: 'ADMIN' });
  admin = await app.signIn(user.username, user.password);
  const relay = await insertJob(app.db, 'relay', { name: 'stats relay', statistics: true, input: { type: 'uri', uri: 'udp://239.0.0.1:1234' } } as never, { active: true });
  relayId = relay.id;
  await insertJob(app.db, 'encoding', { name: 'no stats', input: { type: 'uri', uri: 'udp://239.0.0.1:1235' } } as never);
  const now = Date.now();
  // Up since 30 hours ago (before the window), down 5 h to 3 h ago, up again since.
  await app.db
    .insertInto('job_events')
    .values([
      { job_id: relayId, at: new Date(now - 30 * HOUR), type: 'START', reason: null, detail: null, actor_kind: 'user', actor_name: 'admin' },
      { job_id: relayId, at: new Date(now - 30 * HOUR + 1000), type: 'UP', reason: null, detail: null, actor_kind: 'engine', actor_name: null },
      { job_id: relayId, at: new Date(now - 5 * HOUR), type: 'EXIT', reason: 'input_unreachable', detail: null, actor_kind: 'engine', actor_name: null },
      { job_id: relayId, at: new Date(now - 3 * HOUR), type: 'UP', reason: null, detail: null, actor_kind: 'engine', actor_name: null },
    ])
    .execute();
});
afterAll(() => app.close());

describe('GET /api/statistics', () => {
  it('gives a card per job with statistics on, with 24 hourly buckets of its last day', async () => {
    const response = await app.request('/api/statistics', { cookie: admin });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Schemas['StatisticsSummary'];
    expect(body.items.map((i) => i.name)).toEqual(['stats relay']);
    const card = body.items[0];
    expect(card).toMatchObject({ id: relayId, type: 'relay', enabled: true });
    expect(card.data).toHaveLength(24);
    // Up before the window: the first hour is all up; the outage shows as down hours.
    expect(card.data[0]).toMatchObject({ upPercent: 100, downPercent: 0 });
    expect(card.data.some((h) => h.downPercent === 100)).toBe(true);
    expect(card.upPercent).toBeGreaterThan(85);
    expect(card.upPercent).toBeLessThan(95);
    expect(card.timeline.map((s) => s.state)).toEqual(['up', 'down', 'up']);
  });

  it('refuses a user without STATISTICS_VIEW and answers one who holds it', async () => {
    const plain = await app.createUser({ username: 'plain', permissions: {} });
    const viewer = await app.createUser({ username: 'viewer', permissions: { statistics: { level: 'STATISTICS_VIEW', hide: false } } });
    expect((await app.request('/api/statistics', { cookie: await app.signIn(plain.username, plain.password) })).status).toBe(403);
    expect((await app.request('/api/statistics', { cookie: await app.signIn(viewer.username, viewer.password) })).status).toBe(200);
  });

  it('lets a statistics viewer download the events of a job as CSV (the detail view\'s link)', async () => {
    const viewer = await app.createUser({ username: 'viewer2', permissions: { statistics: { level: 'STATISTICS_VIEW', hide: false } } });
    const response = await app.request(`/api/relays/${relayId}/events/download?size=30`, { cookie: await app.signIn(viewer.username, viewer.password) });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('input_unreachable');
  });
});
