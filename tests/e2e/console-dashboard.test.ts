import { execFileSync } from 'node:child_process';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertJob } from '../support/jobs.ts';
import { screenshot, signIn, startConsole, type ConsoleHarness } from './support/console.ts';

let harness: ConsoleHarness;
let admin: Page;
const ADMIN = { username: 'admin', password: 'admin-password-1' };
const poll = { timeout: 15_000, interval: 100 };

beforeAll(async () => {
  harness = await startConsole();
  await harness.app.createUser({ ...ADMIN, role: 'ADMIN' });
  const job = await insertJob(harness.app.db, 'relay', { name: 'news relay', statistics: true, input: { type: 'uri', uri: 'udp://239.0.0.1:1234' } } as never, { active: true });
  const now = Date.now();
  await harness.app.db
    .insertInto('job_events')
    .values([
      { job_id: job.id, at: new Date(now - 20 * 3600_000), type: 'START', reason: null, detail: null, actor_kind: 'user', actor_name: 'admin' },
      { job_id: job.id, at: new Date(now - 20 * 3600_000 + 2000), type: 'UP', reason: null, detail: null, actor_kind: 'engine', actor_name: null },
      { job_id: job.id, at: new Date(now - 6 * 3600_000), type: 'EXIT', reason: 'input_unreachable', detail: null, actor_kind: 'engine', actor_name: null },
      { job_id: job.id, at: new Date(now - 4 * 3600_000), type: 'UP', reason: null, detail: null, actor_kind: 'engine', actor_name: null },
    ])
    .execute();
  ({ page: admin } = await harness.newPage());
  await admin.goto('/login');
  await signIn(admin, ADMIN.username, ADMIN.password);
}, 120_000);

afterAll(async () => {
  await harness?.close();
});

describe('console: dashboard', () => {
  it('shows the live readings of this server', async () => {
    await admin.goto('/my');
    await admin.getByRole('heading', { name: 'Dashboard' }).waitFor();
    // The gauges fill in from the live stream.
    await expect.poll(() => admin.getByText(/^\d+ cores$/).count(), poll).toBe(1);
    await expect.poll(async () => (await admin.locator('.facts').filter({ hasText: 'Local time' }).innerText()).match(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/) !== null, poll).toBe(true);
    const tasks = await admin.locator('.card').filter({ hasText: 'Jobs on/all' }).innerText();
    expect(tasks).toContain('1/1');
    expect(await admin.locator('.card').filter({ hasText: 'License status' }).innerText()).toContain('Active');
    // No GPU on this machine: no GPU card.
    expect(await admin.locator('.gpu-card').count()).toBe(0);
    await screenshot(admin, 'dashboard');
  });
});

describe('console: dashboard with two nodes', () => {
  it('shows the CPU/GPU nodes table, and a click on a row selects that node', async () => {
    const edge = await harness.app.db.insertInto('nodes').values({ node_id: 'edge-2-test', name: 'edge-2', ip: '10.0.0.2', version: '0.1.0', heartbeat_at: new Date() }).returningAll().executeTakeFirstOrThrow();
    await admin.goto('/my');
    await admin.getByRole('heading', { name: 'CPU/GPU nodes' }).waitFor();
    const table = admin.locator('.nodes-table');
    await table.getByRole('row').filter({ hasText: 'edge-2' }).click();
    await expect.poll(() => new URL(admin.url()).searchParams.get('node'), poll).toBe(String(edge.id));
    await expect.poll(() => admin.locator('.page-subtitle').innerText(), poll).toContain('edge-2 (no live readings');
    expect(await table.getByRole('row').filter({ hasText: 'edge-2' }).getAttribute('aria-selected')).toBe('true');
    await screenshot(admin, 'dashboard-nodes');
    await harness.app.db.deleteFrom('nodes').where('id', '=', edge.id).execute();
  });
});

describe('console: diagnostic check', () => {
  it('shows the real ffmpeg version and the Internet connection going from a spinner to off', async () => {
    await admin.goto('/my/versions');
    await admin.getByRole('heading', { name: 'Diagnostic Check' }).waitFor();
    const engine = admin.locator('tr[data-row="rixjobVersion"]');
    await engine.waitFor();
    const ffmpegFirstLine = execFileSync('ffmpeg', ['-version'], { encoding: 'utf8' }).split('\n')[0].replace(/\s+Copyright.*$/, '');
    expect(await engine.innerText()).toContain(ffmpegFirstLine);
    expect(await engine.getByRole('img').getAttribute('aria-label')).toContain('present');
    const internet = admin.locator('tr[data-row="online"]');
    await expect.poll(async () => (await internet.innerText()).trim().split(/\s+/).pop(), { timeout: 8000, interval: 100 }).toBe('off'); // the tests point the check at a closed loopback port (vitest.config.ts)
    await screenshot(admin, 'diagnostic-check');
  });
});

describe('console: statistics', () => {
  it('shows a card per job with its last 24 hours, and the detail tables with download links', async () => {
    await admin.goto('/my/statistics');
    await admin.getByRole('heading', { name: 'Statistics' }).waitFor();
    await admin.getByRole('link', { name: 'news relay' }).waitFor();
    expect(await admin.getByRole('img', { name: /Last 24 hours of news relay/ }).count()).toBe(1);
    await screenshot(admin, 'statistics');
    await admin.getByRole('link', { name: 'news relay' }).click();
    await admin.getByRole('table', { name: 'Events' }).getByText('input_unreachable').waitFor();
    expect(await admin.getByRole('link', { name: 'Download' }).first().getAttribute('href')).toMatch(/^\/api\/relays\/\d+\/events\/download\?size=30$/);
    await admin.getByLabel('Events record count').selectOption('10');
    expect(await admin.getByRole('link', { name: 'Download' }).first().getAttribute('href')).toMatch(/size=10$/);
    await screenshot(admin, 'statistics-view');
  });
});
