import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EventBus } from '../../api/events/event-bus.ts';
import { startLocalNode, type LocalNode } from '../../api/node/index.ts';
import { makeTestMedia } from '../fixtures/media/lavfi.ts';
import { waitFor } from '../support/jobs.ts';
import { screenshot, signIn, startConsole, type ConsoleHarness } from './support/console.ts';

/**
 * The Logs page and tab, the Batch Results page, the Monitor tab and the Trace page (spec 01 §2.6,
 * §2.8, §2.9), on the real API with a real node: relays read MPEG-TS files made by ffmpeg's lavfi
 * at their native rate (the streams are copied: cheap) and write an HLS output the console plays.
 */
let harness: ConsoleHarness;
let bus: EventBus;
let node: LocalNode;
let admin: Page;
let cookie: string;
let mediaDir: string;
let live: { id: number };
let nodeId: number;
const ADMIN = { username: 'admin', password: 'admin-password-1' };
const poll = { timeout: 30_000, interval: 200 };

const logTable = (page: Page) => page.getByRole('table', { name: 'Log entries' });
/** The Monitor tab's alert about the player. */
const playerAlert = (page: Page) => page.getByRole('alert').filter({ hasText: 'Error code:' });
const logTexts = (page: Page) => logTable(page).locator('tbody td.log-text').allInnerTexts();

async function api<T>(method: string, url: string, json?: unknown): Promise<T> {
  const response = await harness.app.request(url, { method, cookie, json });
  const body = (await response.json()) as T;
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

async function stateOf(id: number): Promise<string | undefined> {
  const row = await harness.app.db.selectFrom('job_status').select('state').where('job_id', '=', id).executeTakeFirst();
  return row?.state;
}

beforeAll(async () => {
  harness = await startConsole();
  await harness.app.createUser({ ...ADMIN, role: 'ADMIN' });
  cookie = await harness.app.signIn(ADMIN.username, ADMIN.password);
  mediaDir = mkdtempSync(path.join(tmpdir(), 'mediaplane-insights-'));
  const source = await makeTestMedia(path.join(mediaDir, 'source.ts'), { seconds: 240, width: 320, height: 180 });
  mkdirSync(path.join(mediaDir, 'batch'));
  await makeTestMedia(path.join(mediaDir, 'batch', 'first.ts'), { seconds: 2, width: 160, height: 90 });

  // The node of this machine, on the test app's database and data directory (its logs and streams).
  bus = new EventBus(harness.app.databaseUrl, harness.app.db);
  await bus.start();
  ({ id: nodeId } = await harness.app.db.selectFrom('nodes').select('id').where('node_id', '=', 'test-node').executeTakeFirstOrThrow());
  node = await startLocalNode({ db: harness.app.db, databaseUrl: harness.app.databaseUrl, bus, nodeId, nodeName: 'local', paths: harness.app.services.paths, sweepIntervalMs: 1000, log: () => {} });

  live = await api<{ id: number }>('POST', '/api/relays', {
    name: 'insight relay',
    node: nodeId,
    input: { type: 'uri', uri: source },
    outputs: [{ type: 'hls', uri: 'insights/live', adaptiveOptions: { segmentDuration: 1 } }],
  });
  await api('POST', `/api/relays/${live.id}/start`);
  await waitFor(async () => (await stateOf(live.id)) === 'running', 'the relay running', 30_000);

  ({ page: admin } = await harness.newPage());
  await admin.goto('/login');
  await signIn(admin, ADMIN.username, ADMIN.password);
}, 180_000);

afterEach(async (context) => {
  // What the page showed when a test failed, for a person to look at.
  if (context.task.result?.state === 'fail' && admin) await screenshot(admin, `job-insights-failed-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => {});
});

afterAll(async () => {
  await node?.stop();
  await bus?.stop();
  await harness?.close();
  if (mediaDir) rmSync(mediaDir, { recursive: true, force: true });
});

describe('console: job logs', () => {
  it("shows a running relay's log at /my/relays/logs/{id} and adds a new line live, without a reload", async () => {
    await admin.goto(`/my/relays/logs/${live.id}`);
    await admin.getByRole('heading', { name: `Relay insight relay (id:${live.id})` }).waitFor();
    const tabs = admin.getByRole('navigation', { name: 'Job tabs' });
    expect(await tabs.getByRole('link').allInnerTexts()).toEqual(['Details', 'Logs']);
    expect(await tabs.getByRole('link', { name: 'Details' }).getAttribute('href')).toBe(`/my/relays/edit/${live.id}`);
    await logTable(admin).getByText(/^started pid \d+: ffmpeg /).waitFor();
    const first = logTable(admin).locator('tbody tr').first();
    expect(await first.locator('td.log-time').innerText()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(await first.locator('td.log-level').innerText()).toBe('NOTICE');
    await admin.getByTestId('log-follow-state').getByText('Live').waitFor();
    await screenshot(admin, 'job-logs-page-light');

    // A hard restart writes new lines; they appear at the top (Backward) while the page stays.
    await admin.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
    const before = (await logTexts(admin)).length;
    await api('POST', `/api/relays/${live.id}/restart`, { mode: 'hard' });
    await logTable(admin).getByText(/^hard restart requested/).waitFor({ timeout: 30_000 });
    const started = async () => (await logTexts(admin)).filter((text) => /^started pid \d+: ffmpeg /.test(text)).length;
    await expect.poll(started, poll).toBe(2);
    expect((await logTexts(admin)).length).toBeGreaterThan(before);
    expect(await admin.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    await waitFor(async () => (await stateOf(live.id)) === 'running', 'the relay running again', 30_000);
  });

  it('narrows the lines with a filter, shows "No log entries" when none match, and the API\'s message for a bad regular expression', async () => {
    await admin.goto(`/my/relays/logs/${live.id}`);
    await logTable(admin).getByText(/^hard restart requested/).waitFor();
    const all = (await logTexts(admin)).length;
    await admin.getByRole('button', { name: 'Filters' }).click();
    await admin.getByRole('region', { name: 'Log filters' }).waitFor();

    await admin.getByLabel('Filter text').fill('hard restart');
    await expect.poll(async () => logTexts(admin), poll).toEqual([expect.stringMatching(/^hard restart requested/)]);
    expect(all).toBeGreaterThan(1);
    expect(await admin.getByRole('button', { name: /Filters/ }).innerText()).toContain('1');
    await screenshot(admin, 'job-logs-filtered-light');

    await admin.getByLabel('Filter type').selectOption({ label: 'Starts with' });
    await admin.getByLabel('Filter text').fill('requested');
    await logTable(admin).getByText('No log entries', { exact: true }).waitFor();
    await admin.getByLabel('Filter type').selectOption({ label: 'Contains' });
    await expect.poll(async () => logTexts(admin), poll).toEqual([expect.stringMatching(/^hard restart requested/)]);

    await admin.getByLabel('Filter text').fill('no line says this');
    await logTable(admin).getByText('No log entries', { exact: true }).waitFor();

    await admin.getByLabel('Regular expression').check();
    await admin.getByLabel('Filter text').fill('started (pid');
    await admin.getByRole('region', { name: 'Log filters' }).getByRole('alert').getByText('Invalid regular expression "started (pid": Unterminated group').waitFor();
    await screenshot(admin, 'job-logs-bad-regex-light');
    await admin.getByLabel('Filter text').fill('^started pid \\d+');
    await expect.poll(async () => (await logTexts(admin)).length, poll).toBeGreaterThanOrEqual(2);
    for (const text of await logTexts(admin)) expect(text).toMatch(/^started pid \d+/);

    // A start time in the future leaves nothing; the quick range brings the lines back.
    await admin.getByRole('button', { name: 'Clear filters' }).click();
    await admin.getByLabel('Start', { exact: true }).check();
    await admin.getByLabel('Start date and time').fill('01-01-2099 00:00:00');
    await logTable(admin).getByText('No log entries', { exact: true }).waitFor();
    await admin.getByRole('button', { name: 'Last 1 h' }).click();
    await expect.poll(async () => (await logTexts(admin)).length, poll).toBeGreaterThanOrEqual(all);
  });
});

describe('console: monitor', () => {
  it('plays the HLS output of a running relay in the Monitor tab', async () => {
    await admin.goto(`/my/relays/edit/${live.id}#monitor`);
    await admin.getByRole('tab', { name: 'Monitor' }).waitFor();
    const output = admin.getByLabel('Output', { exact: true });
    await output.waitFor();
    expect(await output.locator('option').allInnerTexts()).toEqual(['Output 1 · HLS']);
    await admin.getByLabel('Token (LOCAL_STORAGE)').waitFor();
    const video = admin.getByTestId('monitor-video');
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 45_000, interval: 250 }).toBeGreaterThan(1);
    const at = await video.evaluate((v: HTMLVideoElement) => v.currentTime);
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 15_000, interval: 250 }).toBeGreaterThan(at + 0.5);
    expect(await playerAlert(admin).count()).toBe(0);
    await admin.getByRole('heading', { name: 'SRT statistics: output' }).waitFor();
    await admin.getByRole('heading', { name: 'SRT statistics: input' }).waitFor();
    await screenshot(admin, 'job-monitor-light');

    // The edit screen's Logs tab is the same viewer.
    await admin.getByRole('tab', { name: 'Logs' }).click();
    await logTable(admin).getByText(/^started pid \d+: ffmpeg /).first().waitFor();
  });

  it('plays an encoding with 3 HLS profiles in the Monitor tab: the master playlist lists them, the video advances', async () => {
    const audio = await api<{ id: number }>('POST', '/api/presets/audio', { name: 'monitor AAC', audioCodec: 'aac', audioBitrate: 64, channels: 2, sampleRate: 48000 });
    const video = await api<{ id: number }>('POST', '/api/presets/video', { name: 'monitor x264', videoCodec: 'libx264', videoBitrate: 300, audioPreset: audio.id, advancedOption: true, videoCodecParameters: { preset: 'ultrafast' } });
    const ladder = await api<{ id: number }>('POST', '/api/encodings', {
      name: 'insight ladder',
      node: nodeId,
      input: { type: 'uri', uri: path.join(mediaDir, 'source.ts') },
      outputs: [{ type: 'hls', uri: 'insights/ladder', adaptiveOptions: { segmentDuration: 1 } }],
      preset: video.id,
      adaptive: true,
      countOfProfiles: 3,
      profiles: [
        { width: 320, height: 180, videoBitrate: 300, audioBitrate: 64 },
        { width: 256, height: 144, videoBitrate: 200, audioBitrate: 64 },
        { width: 160, height: 90, videoBitrate: 100, audioBitrate: 64 },
      ],
    });
    await api('POST', `/api/encodings/${ladder.id}/start`);
    try {
      await waitFor(async () => (await stateOf(ladder.id)) === 'running', 'the encoding running', 30_000);
      await admin.goto(`/my/encodings/edit/${ladder.id}#monitor`);
      await admin.getByRole('tab', { name: 'Monitor' }).waitFor();
      // Streaming is shown as "Transcoding" for an encoding (spec 01 §2.5).
      await admin.getByTestId('job-status').filter({ hasText: 'Transcoding' }).first().waitFor({ timeout: 30_000 });
      const output = admin.getByLabel('Output', { exact: true });
      await output.waitFor();
      expect(await output.locator('option').allInnerTexts()).toEqual(['Output 1 · HLS']);
      const videoElement = admin.getByTestId('monitor-video');
      await expect.poll(() => videoElement.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 60_000, interval: 250 }).toBeGreaterThan(1);
      const at = await videoElement.evaluate((v: HTMLVideoElement) => v.currentTime);
      await expect.poll(() => videoElement.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 15_000, interval: 250 }).toBeGreaterThan(at + 0.5);
      expect(await playerAlert(admin).count()).toBe(0);
      // What the player reads: a master playlist with the three renditions at their sizes.
      const master = await (await fetch(`${harness.url}/streams/insights/ladder/index.m3u8`)).text();
      expect([...master.matchAll(/RESOLUTION=(\d+x\d+)/g)].map((m) => m[1]).sort()).toEqual(['160x90', '256x144', '320x180']);
      await screenshot(admin, 'encoding-monitor-ladder');
    } finally {
      await api('POST', `/api/encodings/${ladder.id}/stop`);
    }
  }, 150_000);

  it('shows "Error code: {code}" with the message when the player fails, and lets it be dismissed', async () => {
    const stopped = await api<{ id: number }>('POST', '/api/relays', { name: 'never started', input: { type: 'uri', uri: path.join(mediaDir, 'source.ts') }, outputs: [{ type: 'hls', uri: 'insights/never' }] });
    await admin.goto(`/my/relays/edit/${stopped.id}#monitor`);
    await admin.getByText('The relay is not running: its outputs play while it runs.').waitFor();
    const alert = playerAlert(admin);
    await alert.getByText('Error code: 404').waitFor({ timeout: 30_000 });
    expect(await alert.innerText()).toMatch(/networkError: manifestLoadError/);
    await screenshot(admin, 'job-monitor-error-light');
    await alert.getByRole('button', { name: 'Dismiss' }).click();
    expect(await playerAlert(admin).count()).toBe(0);
  });
});

describe('console: batch results and trace', () => {
  it('lists the batch results of a batch relay at /my/relays/batch_logs/{id}', async () => {
    const batch = await api<{ id: number }>('POST', '/api/relays', {
      name: 'insight batch',
      node: nodeId,
      videoType: 'VOD',
      input: { type: 'uri', uri: path.join(mediaDir, 'batch', '*.ts'), batchLogEnabled: true },
      outputs: [{ type: 'hls', uri: 'insights/batch/{SRC_FILE_TITLE}' }],
    });
    await api('POST', `/api/relays/${batch.id}/start`);
    const entry = () => harness.app.db.selectFrom('job_batch_entries').select('id').where('job_id', '=', batch.id).executeTakeFirst();
    await waitFor(entry, 'a batch entry', 45_000).catch(async (error: Error) => {
      const status = await harness.app.db.selectFrom('job_status').selectAll().where('job_id', '=', batch.id).executeTakeFirst();
      throw new Error(`${error.message}; the batch job's status: ${JSON.stringify(status)}`);
    });

    await admin.goto(`/my/relays/logs/${batch.id}`);
    const tabs = admin.getByRole('navigation', { name: 'Job tabs' });
    await tabs.getByRole('link', { name: 'Batch Results' }).click();
    await admin.waitForURL(new RegExp(`/my/relays/batch_logs/${batch.id}$`));
    const table = admin.getByRole('table', { name: 'Batch results' });
    const row = table.locator('tbody tr').filter({ hasText: 'first.ts' });
    await row.waitFor();
    expect(await table.locator('thead th').allInnerTexts()).toEqual(
      ['Start Time', 'End Time', 'Source File', 'Output File(s)', 'Status', 'Elapsed Time', 'Source File Duration', 'Source File Size', 'Transcoding Speed', 'Speed To Play Speed Ratio', 'Job Name'].map((h) => h.toUpperCase()),
    );
    const cells = await row.locator('td').allInnerTexts();
    expect(cells[2]).toContain('first.ts');
    expect(cells[4]).toMatch(/^(DONE|FAILED|NONE)$/);
    expect(cells[10]).toBe('insight batch');
    await screenshot(admin, 'job-batch-results-light');
  });

  it('traces the input of a relay: one tab per trace key, each a table', async () => {
    await admin.goto(`/my/relays/trace/${live.id}`);
    expect(await admin.getByLabel('Input', { exact: true }).inputValue()).toBe(path.join(mediaDir, 'source.ts'));
    await admin.getByRole('button', { name: 'Trace' }).click();
    const keys = admin.getByRole('tablist', { name: 'Trace keys' });
    await keys.waitFor({ timeout: 30_000 });
    expect(await keys.getByRole('tab').allInnerTexts()).toEqual(['Format', 'Programs', 'Streams', 'Keyframes']);
    await admin.getByRole('table', { name: 'Format' }).getByText('mpegts', { exact: true }).waitFor();
    await keys.getByRole('tab', { name: 'Streams' }).click();
    await admin.getByRole('table', { name: 'Streams' }).getByText('h264', { exact: true }).waitFor();
    await screenshot(admin, 'job-trace-light');
  });
});

describe('console: job insight permissions', () => {
  it('hides the Logs tab and page from a user without view-log or edit, and keeps Monitor for view', async () => {
    await harness.app.createUser({ username: 'relay-viewer', password: 'viewer-password-1', permissions: { relay: { level: 'RELAY_VIEW', hide: false } } });
    const { page } = await harness.newPage();
    await page.goto('/login');
    await signIn(page, 'relay-viewer', 'viewer-password-1');
    await page.goto(`/my/relays/edit/${live.id}`);
    const tabs = page.getByRole('tablist').first();
    await tabs.getByRole('tab', { name: 'Monitor' }).waitFor();
    expect(await tabs.getByRole('tab').allInnerTexts()).toEqual(['Details', 'Monitor']);
    await page.goto(`/my/relays/logs/${live.id}`);
    await page.waitForURL(/\/my$/);

    await harness.app.createUser({ username: 'relay-log-reader', password: 'reader-password-1', permissions: { relay: { level: 'RELAY_VIEW', hide: false, viewLog: true } } });
    const reader = await harness.newPage();
    await reader.page.goto('/login');
    await signIn(reader.page, 'relay-log-reader', 'reader-password-1');
    await reader.page.goto(`/my/relays/logs/${live.id}`);
    await logTable(reader.page).getByText(/^started pid \d+: ffmpeg /).first().waitFor();
  });
});
