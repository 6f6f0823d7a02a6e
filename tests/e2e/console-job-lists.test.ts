import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '../../api/config.ts';
import { freePort } from '../../api/db/embedded.ts';
import { EventBus } from '../../api/events/event-bus.ts';
import { startLocalNode, type LocalNode } from '../../api/node/index.ts';
import type { Schemas } from '../../openapi/client/index.ts';
import { makeTestMedia } from '../fixtures/media/lavfi.ts';
import { screenshot, signIn, startConsole, type ConsoleHarness } from './support/console.ts';

/**
 * The relay, encoding and template lists and the endpoints page (spec 01 §2.3, §2.5, §2.7, §2.10,
 * §4, §6) against the real API, with a node that really runs the relay switched on: it reads a
 * lavfi-made MPEG-TS file and sends it to a UDP port on loopback.
 */
let harness: ConsoleHarness;
let admin: Page;
let cookie: string;
let bus: EventBus;
let node: LocalNode;
let dir: string;
let nodeId: number;
/** A live source: ffmpeg sending MPEG-TS to a UDP port on loopback, in real time, all along. */
let sender: ChildProcess;
let liveOutput: string;
const ADMIN = { username: 'admin', password: 'admin-password-1' };
const VIEWER = { username: 'relay-viewer', password: 'viewer-password-1' };
const ids: Record<string, number> = {};

async function api<T>(method: string, url: string, json?: unknown): Promise<T> {
  const response = await harness.app.request(url, { method, cookie, json });
  const body = (await response.json()) as T;
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

async function createRelay(name: string, output: { type: string; uri: string }, extra: Record<string, unknown> = {}): Promise<number> {
  const job = await api<Schemas['Job']>('POST', '/api/relays', { name, node: nodeId, input: { type: 'uri', uri: 'udp://127.0.0.1:5000' }, outputs: [output], ...extra });
  ids[name] = job.id;
  return job.id;
}

const relaysTable = (page: Page) => page.getByRole('table', { name: 'Relays' });
const rowOf = (table: Locator, name: string) => table.getByRole('row').filter({ has: table.page().getByRole('link', { name, exact: true }) });
const namesIn = (table: Locator) => table.locator('tbody tr td:nth-child(3)').allInnerTexts();
const count = (page: Page, label: string) => page.locator('.list-counts .count').filter({ hasText: `${label}:` }).innerText();
const dialog = (page: Page) => page.getByRole('dialog');

/** The ffmpeg processes whose argv names this output URL (read from /proc). */
function ffmpegPidsWriting(output: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (argv[0]?.endsWith('ffmpeg') && argv.some((arg) => arg.includes(output))) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** Wait until the list's names are these (the server answered the last search, filter or sort). */
async function expectNames(table: Locator, names: string[]): Promise<void> {
  await expect.poll(() => namesIn(table).then((found) => found.map((n) => n.trim())), { timeout: 15_000 }).toEqual(names);
}

beforeAll(async () => {
  harness = await startConsole();
  await harness.app.createUser({ ...ADMIN, role: 'ADMIN' });
  await harness.app.createUser({ ...VIEWER, permissions: { relay: { level: 'RELAY_VIEW', hide: false } } });
  cookie = await harness.app.signIn(ADMIN.username, ADMIN.password);
  nodeId = (await harness.app.db.selectFrom('nodes').select('id').where('node_id', '=', 'test-node').executeTakeFirstOrThrow()).id;

  // The node that runs what is switched on, on the test app's database.
  dir = mkdtempSync(path.join(tmpdir(), 'mediaplane-job-lists-'));
  bus = new EventBus(harness.app.databaseUrl, harness.app.db);
  await bus.start();
  node = await startLocalNode({ db: harness.app.db, databaseUrl: harness.app.databaseUrl, bus, nodeId, nodeName: 'local', paths: dataPaths(dir), sweepIntervalMs: 1000, log: () => {} });
  const source = await makeTestMedia(path.join(dir, 'source.ts'), { seconds: 180, width: 160, height: 90 });

  await createRelay('alpha-news', { type: 'udp', uri: 'udp://127.0.0.1:41001' });
  await createRelay('beta-sports', { type: 'srt', uri: 'srt://127.0.0.1:41002' });
  await createRelay('gamma-movies', { type: 'udp', uri: 'udp://127.0.0.1:41003' }, { videoType: 'VOD' });
  const sourcePort = await freePort();
  sender = spawn('ffmpeg', ['-hide_banner', '-nostdin', '-loglevel', 'error', '-re', '-stream_loop', '-1', '-i', source, '-c', 'copy', '-f', 'mpegts', `udp://127.0.0.1:${sourcePort}?pkt_size=1316`], { stdio: 'ignore' });
  liveOutput = `udp://127.0.0.1:${await freePort()}`;
  const live = await api<Schemas['Job']>('POST', '/api/relays', {
    name: 'delta-live',
    node: nodeId,
    input: { type: 'uri', uri: `udp://127.0.0.1:${sourcePort}` },
    outputs: [{ type: 'udp', uri: liveOutput }],
  });
  ids['delta-live'] = live.id;
  await api('POST', `/api/relays/${ids['alpha-news']}/comments`, { type: 'CRITICAL', comment: 'The source drops at night' });
  await api('POST', `/api/relays/${ids['alpha-news']}/comments`, { type: 'NOTICE', comment: 'Owned by the news desk' });

  ({ page: admin } = await harness.newPage());
  await admin.goto('/login');
  await signIn(admin, ADMIN.username, ADMIN.password);
}, 180_000);

afterAll(async () => {
  sender?.kill('SIGKILL');
  await node?.stop();
  await bus?.stop();
  await harness?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('console: relay list', () => {
  it('lists the relays with their columns and counts, and searches, filters and sorts on the server', async () => {
    await admin.getByRole('link', { name: 'Relays', exact: true }).click();
    await admin.getByRole('heading', { name: 'Relays' }).waitFor();
    const table = relaysTable(admin);
    // Newest first (ID descending).
    await expectNames(table, ['delta-live', 'gamma-movies', 'beta-sports', 'alpha-news']);
    expect(await count(admin, 'Total')).toBe('Total: 4');
    expect(await count(admin, 'Active')).toBe('Active: 0');
    expect(await count(admin, 'Failed')).toBe('Failed: 0');
    expect(await count(admin, 'Waiting')).toBe('Waiting: 0');
    const headers = (await table.locator('thead th').allInnerTexts()).map((h) => h.trim().toUpperCase());
    expect(headers).toEqual(['', 'ID', 'NAME', 'NODE', 'OUTPUT', 'INPUT', 'STARTED', 'LAST RESET', 'RESTARTS', 'CPU', 'RSS', 'CREATED BY', 'CONTROLS']);

    // A row while off: CPU 0.00%, the others "--"; the output type and status; the input type.
    const beta = rowOf(table, 'beta-sports');
    const cells = (await beta.locator('td').allInnerTexts()).map((c) => c.replace(/\s+/g, ' ').trim());
    expect(cells.slice(3, 12)).toEqual(['local', 'Stopped SRT', 'URI --', '--', '--', '--', '0.00%', '--', 'admin']);
    expect(await beta.getByRole('link', { name: 'beta-sports', exact: true }).getAttribute('href')).toBe(`/my/relays/edit/${ids['beta-sports']}`);
    expect(await beta.getByRole('link', { name: 'Logs of relay beta-sports' }).getAttribute('href')).toBe(`/my/relays/logs/${ids['beta-sports']}`);
    // Restarts are disabled while the relay is off.
    expect(await beta.getByRole('button', { name: 'Hard restart relay beta-sports' }).isDisabled()).toBe(true);
    expect(await beta.getByRole('button', { name: 'Soft restart relay beta-sports' }).isDisabled()).toBe(true);
    // The comment icon takes the colour of the worst comment.
    await rowOf(table, 'alpha-news').getByRole('img', { name: '2 comments, the most serious critical' }).waitFor();
    expect(await admin.getByRole('link', { name: 'Add Relay' }).getAttribute('href')).toBe('/my/relays/edit');
    await screenshot(admin, 'relays-list');

    // Search (debounced 800 ms, on the server): by name, then by ID.
    const search = admin.getByPlaceholder('Enter Name or ID');
    await search.fill('sport');
    await expectNames(table, ['beta-sports']);
    await search.fill(String(ids['gamma-movies']));
    await expectNames(table, ['gamma-movies']);
    await search.fill('no-such-relay');
    await table.getByText('No relays', { exact: true }).waitFor();
    await admin.getByRole('button', { name: 'Clear all filters' }).click();
    await expectNames(table, ['delta-live', 'gamma-movies', 'beta-sports', 'alpha-news']);

    // Filters: Type (single) and Output types (multi).
    await admin.getByLabel('Type', { exact: true }).selectOption('VOD');
    await expectNames(table, ['gamma-movies']);
    await admin.getByLabel('Type', { exact: true }).selectOption('');
    await admin.getByRole('button', { name: 'Output types: All' }).click();
    // The filter's state lives in the URL: the box shows checked once the list state has it (a moment under load).
    const srt = admin.getByRole('group', { name: 'Output types' }).getByLabel('SRT', { exact: true });
    await srt.click();
    await expect.poll(() => srt.isChecked()).toBe(true);
    await admin.keyboard.press('Escape');
    await expectNames(table, ['beta-sports']);
    await admin.getByRole('button', { name: 'Clear all filters' }).click();
    await expectNames(table, ['delta-live', 'gamma-movies', 'beta-sports', 'alpha-news']);

    // Sort by Name, ascending then descending; back to ID.
    await table.getByRole('button', { name: 'Name' }).click();
    await expectNames(table, ['alpha-news', 'beta-sports', 'delta-live', 'gamma-movies']);
    await table.getByRole('button', { name: 'Name' }).click();
    await expectNames(table, ['gamma-movies', 'delta-live', 'beta-sports', 'alpha-news']);
    await table.getByRole('button', { name: 'ID' }).click();
    await expectNames(table, ['alpha-news', 'beta-sports', 'gamma-movies', 'delta-live']);
  });

  it('starts a relay after "Start relay {name}?", and shows its live status, figures and reload button without a reload', async () => {
    const table = relaysTable(admin);
    const row = rowOf(table, 'delta-live');
    const toggle = row.getByRole('switch', { name: 'Relay delta-live on' });

    // Declined: nothing changes.
    await toggle.click();
    expect(await dialog(admin).getByText('Start relay delta-live?', { exact: true }).isVisible()).toBe(true);
    await dialog(admin).getByRole('button', { name: 'Cancel' }).click();
    expect(await toggle.getAttribute('aria-checked')).toBe('false');

    await toggle.click();
    await dialog(admin).getByRole('button', { name: 'Yes' }).click();
    // The node starts ffmpeg; its status, memory and start time reach the row over the live stream.
    await row.getByTestId('job-status').filter({ hasText: 'Streaming' }).waitFor({ timeout: 30_000 });
    await expect.poll(() => row.locator('td').nth(10).innerText(), { timeout: 30_000 }).toMatch(/^\d+(\.\d)? (KB|MB)$/);
    expect(await row.locator('td').nth(6).innerText()).toMatch(/^\d{4}-\d{2}-\d{2}\s+\d{2}:\d{2}:\d{2}$/);
    expect(await row.locator('td').nth(9).innerText()).toMatch(/^\d+\.\d{2}%$/);
    await expect.poll(() => count(admin, 'Active')).toBe('Active: 1');
    expect(await row.getByRole('button', { name: 'Hard restart relay delta-live' }).isEnabled()).toBe(true);
    expect(await row.getByRole('button', { name: 'Soft restart relay delta-live' }).isEnabled()).toBe(true);
    expect(await row.locator('td').nth(8).innerText()).toBe('0');

    // Its ffmpeg killed outright: the supervisor starts it again, and the Restarts cell counts it, live.
    const killed = ffmpegPidsWriting(liveOutput);
    expect(killed).toHaveLength(1);
    process.kill(killed[0], 'SIGKILL');
    await expect.poll(() => row.locator('td').nth(8).innerText(), { timeout: 30_000 }).toBe('1');
    await row.getByTestId('job-status').filter({ hasText: 'Streaming' }).waitFor({ timeout: 30_000 });
    await expect.poll(() => ffmpegPidsWriting(liveOutput).filter((pid) => pid !== killed[0]).length, { timeout: 30_000 }).toBe(1);
    // (Its log is read in console-job-insights.test.ts, on a node writing where the API reads.)

    // Changed while running (through the API, as another console would): the hard restart becomes
    // the warning button that reloads.
    const job = await api<Schemas['Job']>('GET', `/api/relays/${ids['delta-live']}`);
    await api('PUT', `/api/relays/${ids['delta-live']}`, { ...job, outputs: [{ ...job.outputs[0], uri: `udp://127.0.0.1:${await freePort()}` }] });
    await row.getByRole('button', { name: 'Reload relay delta-live' }).waitFor();
    expect(await row.getByRole('button', { name: 'Hard restart relay delta-live' }).count()).toBe(0);
    await screenshot(admin, 'relays-live');

    // Stopped elsewhere: the row follows.
    await api('POST', `/api/relays/${ids['delta-live']}/stop`);
    await row.getByTestId('job-status').filter({ hasText: 'Stopped' }).waitFor();
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false');
    await expect.poll(() => row.locator('td').nth(9).innerText()).toBe('0.00%');
    await expect.poll(() => count(admin, 'Active')).toBe('Active: 0');
  });

  it('saves a relay as a template from its menu and lists it on the template list', async () => {
    const row = rowOf(relaysTable(admin), 'beta-sports');
    await row.getByRole('button', { name: 'Actions for relay beta-sports' }).click();
    const menu = admin.getByRole('menu', { name: 'Actions for relay beta-sports' });
    expect(await menu.getByRole('menuitem').allInnerTexts()).toEqual(['View', 'Save as template', 'Alarm history', 'Delete']);
    await menu.getByRole('menuitem', { name: 'Save as template' }).click();
    await dialog(admin).getByLabel('Name').fill('');
    await dialog(admin).getByText('Name is required', { exact: true }).waitFor();
    expect(await dialog(admin).getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await dialog(admin).getByLabel('Name').fill('sports-template');
    await dialog(admin).getByRole('button', { name: 'Save' }).click();
    await admin.getByText('Template sports-template saved.').waitFor();

    await admin.getByRole('link', { name: 'Relay templates' }).click();
    const templates = admin.getByRole('table', { name: 'Relay templates' });
    await rowOf(templates, 'sports-template').waitFor();
    expect(await rowOf(templates, 'sports-template').getByRole('link', { name: 'sports-template', exact: true }).getAttribute('href')).toMatch(/^\/my\/relays\/templates\/edit\/\d+$/);
    await admin.getByPlaceholder('Enter Name or ID').fill('nothing-like-this');
    await templates.getByText('No encodings', { exact: true }).waitFor();
    await admin.getByRole('button', { name: 'Clear all filters' }).click();
    await screenshot(admin, 'relay-templates');

    await rowOf(templates, 'sports-template').getByRole('button', { name: 'Delete template sports-template' }).click();
    await dialog(admin).getByText('Delete template sports-template?').waitFor();
    await dialog(admin).getByRole('button', { name: 'Delete' }).click();
    await templates.getByText('No encodings', { exact: true }).waitFor();
  });

  it('lets a VIEW_EDIT user save a relay over an existing template, but not add one', async () => {
    const template = await api<Schemas['Job']>('POST', '/api/relays/templates', { name: 'shared-template', input: { type: 'uri', uri: 'udp://127.0.0.1:5000' }, outputs: [{ type: 'udp', uri: 'udp://127.0.0.1:41009' }] });
    const editor = { username: 'relay-view-edit', password: 'view-edit-password-1' };
    await harness.app.createUser({ ...editor, permissions: { relay: { level: 'RELAY_VIEW', hide: false, viewEdit: true } } as never });
    const { page } = await harness.newPage();
    await page.goto('/login');
    await signIn(page, editor.username, editor.password);
    await page.getByRole('link', { name: 'Relays', exact: true }).click();
    const row = rowOf(relaysTable(page), 'beta-sports');
    await row.getByRole('button', { name: 'Actions for relay beta-sports' }).click();
    await page.getByRole('menu').getByRole('menuitem', { name: 'Save as template' }).click();
    expect(await dialog(page).getByLabel('New template').isDisabled()).toBe(true);
    expect(await dialog(page).getByLabel('Update a template').isChecked()).toBe(true);
    await dialog(page).getByRole('combobox', { name: 'Template' }).selectOption({ label: `shared-template (id:${template.id})` });
    await dialog(page).getByRole('button', { name: 'Save' }).click();
    await page.getByText('Template shared-template saved.').waitFor();
    const saved = await api<Schemas['Job']>('GET', `/api/relays/templates/${template.id}`);
    expect(saved.outputs.map((o) => o.type)).toEqual(['srt']);
    await page.context().close();
  });

  it('acts on the selected relays from the bulk bar after a confirmation, listing the ones refused', async () => {
    await admin.getByRole('link', { name: 'Relays', exact: true }).click();
    const table = relaysTable(admin);
    await rowOf(table, 'alpha-news').getByRole('checkbox').check();
    await rowOf(table, 'gamma-movies').getByRole('checkbox').check();
    const bar = admin.getByRole('region', { name: 'Bulk actions' });
    await bar.getByText('2 selected').waitFor();
    expect(await bar.getByRole('button').allInnerTexts()).toEqual(['Start', 'Stop', 'Hard restart', 'Soft restart', 'Delete', 'Clear selection']);
    await screenshot(admin, 'relays-bulk');

    // Both are off: a hard restart is refused for each, and the refusals are listed.
    await bar.getByRole('button', { name: 'Hard restart' }).click();
    await dialog(admin).getByText('Hard restart 2 relays?').waitFor();
    await dialog(admin).getByRole('button', { name: 'Yes' }).click();
    const alert = admin.getByRole('dialog', { name: 'Error' });
    await alert.getByText('2 relays of 2 could not be restarted:').waitFor();
    expect(await alert.getByRole('listitem').allInnerTexts()).toEqual([
      expect.stringMatching(new RegExp(`^alpha-news \\(id:${ids['alpha-news']}\\): .*off`)),
      expect.stringMatching(new RegExp(`^gamma-movies \\(id:${ids['gamma-movies']}\\): .*off`)),
    ]);
    await alert.getByRole('button', { name: 'Close' }).click();

    await rowOf(table, 'alpha-news').getByRole('checkbox').check();
    await rowOf(table, 'gamma-movies').getByRole('checkbox').check();
    await bar.getByRole('button', { name: 'Delete' }).click();
    await admin.getByRole('dialog', { name: 'Confirm deleting' }).getByText('Delete 2 relays?').waitFor();
    await admin.getByRole('dialog', { name: 'Confirm deleting' }).getByRole('button', { name: 'Delete' }).click();
    await admin.getByText('2 relays deleted.').waitFor();
    await expectNames(table, ['delta-live', 'beta-sports']);
    expect(await count(admin, 'Total')).toBe('Total: 2');
  });

  it('shows a VIEW-only user the eye icon, no usable switch, no restart, no log link and no bulk bar', async () => {
    const { page } = await harness.newPage();
    await page.goto('/login');
    await signIn(page, VIEWER.username, VIEWER.password);
    await page.getByRole('link', { name: 'Relays', exact: true }).click();
    const table = relaysTable(page);
    const row = rowOf(table, 'delta-live');
    await row.waitFor();
    expect(await row.getByRole('link', { name: 'View relay delta-live' }).getAttribute('href')).toBe(`/my/relays/edit/${ids['delta-live']}`);
    expect(await table.getByRole('link', { name: /^Edit relay/ }).count()).toBe(0);
    expect(await row.getByRole('switch', { name: 'Relay delta-live on' }).isDisabled()).toBe(true);
    expect(await table.getByRole('checkbox').count()).toBe(0);
    expect(await row.getByRole('button', { name: /restart/i }).count()).toBe(0);
    expect(await row.getByRole('link', { name: /^Logs of/ }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Add Relay' }).count()).toBe(0);
    await row.getByRole('button', { name: 'Actions for relay delta-live' }).click();
    expect(await page.getByRole('menu').getByRole('menuitem').allInnerTexts()).toEqual(['View']);
    await page.keyboard.press('Escape');
    // No encodings permission: neither the entries nor the endpoints.
    expect(await page.getByRole('link', { name: 'Encodings', exact: true }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Endpoints' }).count()).toBe(0);
    await screenshot(page, 'relays-viewer');
    await page.context().close();
  });
});

describe('console: encoding list and endpoints', () => {
  it('lists encodings with the preset link, the output markers and "Transcoding" for Streaming', async () => {
    const audio = await api<{ id: number }>('POST', '/api/presets/audio', { name: 'aac-128', audioCodec: 'aac', audioBitrate: 128, sampleRate: 48000 });
    const video = await api<{ id: number }>('POST', '/api/presets/video', { name: 'h264-2m', videoCodec: 'libx264', videoBitrate: 2000, audioPreset: audio.id });
    const encoding = await api<Schemas['Job']>('POST', '/api/encodings', {
      name: 'hls-encrypted',
      preset: video.id,
      node: nodeId,
      input: { type: 'uri', uri: 'udp://127.0.0.1:5001' },
      outputs: [{ type: 'hls', uri: path.join(dir, 'hls/index.m3u8'), encryption: true }],
    });

    await admin.getByRole('link', { name: 'Encodings', exact: true }).click();
    await admin.getByRole('heading', { name: 'Encodings' }).waitFor();
    const table = admin.getByRole('table', { name: 'Encodings' });
    const row = rowOf(table, 'hls-encrypted');
    await row.waitFor();
    expect(await row.getByRole('link', { name: 'h264-2m' }).getAttribute('href')).toBe(`/my/presets/edit/video/${video.id}`);
    expect((await row.locator('.output-types').innerText()).replace(/\s+/g, ' ').trim()).toBe('HLS E');
    expect(await admin.getByRole('link', { name: 'Add Transcoder' }).getAttribute('href')).toBe('/my/encodings/edit');
    expect(await admin.getByLabel('Status', { exact: true }).locator('option').allInnerTexts()).toEqual(['All', 'Active', 'Inactive', 'Transcoding', 'Waiting', 'Failed']);
    expect(await admin.getByRole('button', { name: 'Preset: All' }).count()).toBe(1);
    await admin.getByRole('button', { name: 'Preset: All' }).click();
    await admin.getByRole('group', { name: 'Preset' }).getByLabel('h264-2m').waitFor();
    await admin.keyboard.press('Escape');
    await screenshot(admin, 'encodings-list');
    await admin.getByPlaceholder('Enter Name or ID').fill('nothing-like-this');
    await table.getByText('No encodings', { exact: true }).waitFor();
    await admin.getByRole('button', { name: 'Clear all filters' }).click();
    expect(encoding.id).toBeGreaterThan(0);
  });

  it('shows an ENCODING_VIEW user the eye icon, no usable switch and no bulk bar; the API refuses that user a start with 403', async () => {
    const viewer = { username: 'encoding-viewer', password: 'viewer-password-2' };
    await harness.app.createUser({ ...viewer, permissions: { encoding: { level: 'ENCODING_VIEW', hide: false } } });
    const { page } = await harness.newPage();
    await page.goto('/login');
    await signIn(page, viewer.username, viewer.password);
    await page.getByRole('link', { name: 'Encodings', exact: true }).click();
    const table = page.getByRole('table', { name: 'Encodings' });
    const row = rowOf(table, 'hls-encrypted');
    await row.waitFor();
    const id = (await api<Schemas['JobPage']>('GET', '/api/encodings?search=hls-encrypted')).items[0].id;
    expect(await row.getByRole('link', { name: 'View encoding hls-encrypted' }).getAttribute('href')).toBe(`/my/encodings/edit/${id}`);
    expect(await table.getByRole('link', { name: /^Edit encoding/ }).count()).toBe(0);
    expect(await row.getByRole('switch', { name: 'Encoding hls-encrypted on' }).isDisabled()).toBe(true);
    expect(await table.getByRole('checkbox').count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Bulk actions' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Add Transcoder' }).count()).toBe(0);
    await screenshot(page, 'encodings-viewer');

    // The server is the guard: the same user's start, asked directly, is refused.
    const viewerCookie = await harness.app.signIn(viewer.username, viewer.password);
    const refused = await harness.app.request(`/api/encodings/${id}/start`, { method: 'POST', cookie: viewerCookie });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'FORBIDDEN' });
    expect((await api<Schemas['Job']>('GET', `/api/encodings/${id}`)).active).toBe(false);
    await page.context().close();
  });

  it('edits the two required integration endpoints under the Russian title', async () => {
    await admin.getByRole('link', { name: 'Endpoints' }).click();
    await admin.getByRole('heading', { name: 'Настройки интеграции' }).waitFor();
    const update = admin.getByRole('button', { name: 'Update' });
    expect(await update.isDisabled()).toBe(true);
    await admin.getByLabel('Runprox URL').fill('not a url');
    await admin.getByLabel('DVB URL').focus();
    await admin.getByText('Runprox URL must be a URL', { exact: true }).waitFor();
    await admin.getByLabel('DVB URL').press('Enter');
    await admin.getByText('DVB URL is required', { exact: true }).waitFor();
    await admin.getByLabel('Runprox URL').fill('http://runprox.example.com:8080');
    await admin.getByLabel('DVB URL').fill('http://astra.example.com:8000');
    await update.click();
    await admin.getByText('Endpoints updated.').waitFor();
    expect(await update.isDisabled()).toBe(true);
    await screenshot(admin, 'endpoints');
    await admin.reload();
    await admin.getByRole('heading', { name: 'Настройки интеграции' }).waitFor();
    expect(await admin.getByLabel('Runprox URL').inputValue()).toBe('http://runprox.example.com:8080');
    expect(await admin.getByLabel('DVB URL').inputValue()).toBe('http://astra.example.com:8000');
  });
});
