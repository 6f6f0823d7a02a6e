import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Schemas } from '../../openapi/client/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { insertJob } from '../support/jobs.ts';
import { readDashboardStatuses } from './dashboard-support.ts';

/** GET /api/dashboard and its live stream: real readings of this machine, one sampler for all streams. */
let app: TestApp;
let admin: string;

/** Read `count` status events from the stream, and the way to close it. */
const readStatuses = (count: number, cookie = admin, query = '') => readDashboardStatuses(app, cookie, count, query);

beforeAll(async () => {
  app = await startTestApp();
  const user = await app.createUser({ username: 'admin', role: 'ADMIN' });
  admin = await app.signIn(user.username, user.password);
  await insertJob(app.db, 'relay', { name: 'on relay', input: { type: 'uri', uri: 'udp://239.0.0.1:1234' } } as never, { active: true });
  await insertJob(app.db, 'relay', { name: 'off relay', input: { type: 'uri', uri: 'udp://239.0.0.1:1235' } } as never);
});
afterAll(() => app.close());

describe('GET /api/dashboard', () => {
  it('reads CPU, load, memory, disk, tasks and versions of this machine', async () => {
    const response = await app.request('/api/dashboard', { cookie: admin });
    expect(response.status).toBe(200);
    const status = (await response.json()) as Schemas['DashboardStatus'];
    expect(status.live).toBe(true);
    expect(status.cpuCoreCount).toBeGreaterThan(0);
    expect(status.cpu).toBeGreaterThanOrEqual(0);
    expect(status.cpuAverageLoad).toMatchObject({ minute1: expect.any(Number), minute5: expect.any(Number), minute15: expect.any(Number) });
    expect(status.memoryTotal).toBeGreaterThan(0);
    expect(status.memoryPercentage).toBeGreaterThan(0);
    expect(status.hddTotal).toBeGreaterThan(0);
    expect(status.uptime).toBeGreaterThan(0);
    expect(status.localTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d\d:\d\d$/);
    expect(status).toMatchObject({ activeTasks: 1, allTasks: 2, servicesUp: 0, servicesDown: 1, licenseStatus: 'Active' });
    expect(Array.isArray(status.gpus)).toBe(true);
  });

  it('answers 404 for a node that does not exist', async () => {
    expect((await app.request('/api/dashboard?node=999999', { cookie: admin })).status).toBe(404);
    expect((await app.request('/api/dashboard/stream?node=999999', { cookie: admin })).status).toBe(404);
  });

  it('refuses a caller that is not signed in', async () => {
    expect((await app.request('/api/dashboard')).status).toBe(401);
  });
});

describe('GET /api/dashboard/stream', () => {
  it('streams a status per sample, and one sampler serves every open stream', async () => {
    const sampler = app.services.sampler;
    const first = readStatuses(2);
    const second = readStatuses(2);
    const [a, b] = await Promise.all([first, second]);
    expect(a.statuses[1].cpuCoreCount).toBeGreaterThan(0);
    expect(sampler.listenerCount).toBe(2);
    // The two streams got the same samples: one sampler, not one per console (the one opened a moment
    // later may start with the sample after the first's).
    const shared = a.statuses.map((s) => s.at).filter((at) => b.statuses.some((other) => other.at === at));
    expect(shared.length).toBeGreaterThan(0);
    a.close();
    b.close();
    const deadline = Date.now() + 5000;
    while (sampler.active && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(sampler.active).toBe(false);
    expect(sampler.listenerCount).toBe(0);
  });
});
