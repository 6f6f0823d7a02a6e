import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '../../api/config.ts';
import { freePort } from '../../api/db/embedded.ts';
import { EventBus } from '../../api/events/event-bus.ts';
import { startLocalNode, type LocalNode } from '../../api/node/index.ts';
import type { Schemas } from '../../openapi/client/index.ts';
import { makeTestMedia } from '../fixtures/media/lavfi.ts';
import { screenshot, signIn, startConsole, type ConsoleHarness } from './support/console.ts';

/**
 * The relay and encoding edit screens and their templates (spec 01 §2.4, §2.6, §2.11, §4, §5, §6)
 * against the real API, with a node that really runs a relay once it is switched on.
 */
let harness: ConsoleHarness;
let admin: Page;
let cookie: string;
let bus: EventBus;
let node: LocalNode;
let dir: string;
let source: string;
const ADMIN = { username: 'admin', password: 'admin-password-1' };
const VIEWER = { username: 'relay-viewer', password: 'viewer-password-1' };
const ids: Record<string, number> = {};

async function api<T>(method: string, url: string, json?: unknown): Promise<T> {
  const response = await harness.app.request(url, { method, cookie, json });
  const body = (await response.json()) as T;
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

const footerTitle = (page: Page) => page.locator('.job-footer h1');
const subTab = (page: Page, name: string | RegExp) => page.getByRole('tablist', { name: 'Details' }).getByRole('tab', { name });
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const dialog = (page: Page) => page.getByRole('dialog');

/** Every sub-tab of the Details tab, each in a screenshot for a person to look at. */
async function screenshotSubTabs(page: Page, prefix: string, tabs: (string | RegExp)[]): Promise<void> {
  for (const [i, tab] of tabs.entries()) {
    await subTab(page, tab).click();
    await page.getByRole('tabpanel').waitFor();
    await screenshot(page, `${prefix}-${i + 1}-${String(tab).replace(/[^a-z]+/gi, '-').replace(/^-|-$/g, '').toLowerCase()}`);
  }
}

beforeAll(async () => {
  harness = await startConsole();
  await harness.app.createUser({ ...ADMIN, role: 'ADMIN' });
  await harness.app.createUser({ ...VIEWER, permissions: { relay: { level: 'RELAY_VIEW', hide: false } } });
  cookie = await harness.app.signIn(ADMIN.username, ADMIN.password);
  const nodeId = (await harness.app.db.selectFrom('nodes').select('id').where('node_id', '=', 'test-node').executeTakeFirstOrThrow()).id;
  dir = mkdtempSync(path.join(tmpdir(), 'mediaplane-job-edit-'));
  bus = new EventBus(harness.app.databaseUrl, harness.app.db);
  await bus.start();
  node = await startLocalNode({ db: harness.app.db, databaseUrl: harness.app.databaseUrl, bus, nodeId, nodeName: 'local', paths: dataPaths(dir), sweepIntervalMs: 1000, log: () => {} });
  source = await makeTestMedia(path.join(dir, 'source.ts'), { seconds: 120, width: 160, height: 90 });

  // An encoding needs a video preset (spec 03): made through the presets API.
  const audio = await api<Schemas['AudioPreset']>('POST', '/api/presets/audio', { name: 'AAC 128', audioCodec: 'aac', audioBitrate: 128, channels: 2, sampleRate: 48000 });
  const video = await api<Schemas['VideoPreset']>('POST', '/api/presets/video', { name: 'H.264 3000', videoCodec: 'libx264', videoBitrate: 3000, audioPreset: audio.id });
  ids.preset = video.id;

  ({ page: admin } = await harness.newPage());
  await admin.goto('/login');
  await signIn(admin, ADMIN.username, ADMIN.password);
}, 180_000);

afterAll(async () => {
  await node?.stop();
  await bus?.stop();
  await harness?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('console: relay edit', () => {
  it('creates a relay udp→udp through the form, with the message for a missing input uri', async () => {
    await admin.goto('/my/relays/edit');
    expect(await footerTitle(admin).innerText()).toBe('New relay');
    // Relays: Input, Output, Subtitles, Advanced Setting (spec 01 §2.4); no Logs or Monitor yet.
    expect(await admin.getByRole('tablist', { name: 'Details' }).getByRole('tab').allInnerTexts()).toEqual(['Input', 'Output', 'Subtitles', 'Advanced Setting']);
    expect(await admin.getByRole('tab', { name: 'Logs' }).count()).toBe(0);
    const create = button(admin, 'Create');
    expect(await create.isDisabled()).toBe(true);

    await admin.getByLabel('Name', { exact: true }).fill('relay-one');
    // Leaving the URI empty shows the rule under the field.
    await admin.getByLabel('URI', { exact: true }).focus();
    await admin.getByLabel('Name', { exact: true }).focus();
    await admin.getByText('Input uri is required', { exact: true }).waitFor();
    expect(await admin.getByLabel('URI', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await screenshot(admin, 'relay-edit-missing-uri');

    // A source that answers: the media source check ends with a tick and what it carries.
    await admin.getByLabel('URI', { exact: true }).fill(source);
    await admin.getByRole('status').filter({ hasText: 'h264 160x90' }).waitFor();
    expect(await admin.getByText('Input uri is required').count()).toBe(0);

    // One UDP output, as a new relay starts with.
    await subTab(admin, 'Output').click();
    expect(await admin.getByRole('region', { name: 'Output 1' }).getByLabel('Type', { exact: true }).inputValue()).toBe('udp');
    const outputPort = await freePort();
    await admin.getByLabel('URI', { exact: true }).fill(`udp://127.0.0.1:${outputPort}`);
    await screenshotSubTabs(admin, 'relay-new', ['Input', 'Output', 'Subtitles', 'Advanced Setting']);

    expect(await create.isEnabled()).toBe(true);
    await create.click();
    await admin.waitForURL(/\/my\/relays\/edit\/\d+$/);
    ids.relay = Number(admin.url().split('/').pop());
    await admin.getByRole('heading', { name: `Relay relay-one (id:${ids.relay})` }).waitFor();
    // Saved: Update stays disabled until the form changes; the Logs and Monitor tabs appear.
    expect(await button(admin, 'Update').isDisabled()).toBe(true);
    await admin.getByRole('tab', { name: 'Logs' }).waitFor();
    await admin.getByRole('tab', { name: 'Monitor' }).waitFor();
    expect(await admin.getByText('Status:').count()).toBe(1);
    expect(await admin.getByTestId('job-status').innerText()).toBe('Stopped');

    const stored = await api<Schemas['Job']>('GET', `/api/relays/${ids.relay}`);
    expect(stored.input).toMatchObject({ type: 'uri', uri: source });
    expect(stored.outputs).toMatchObject([{ type: 'udp', uri: `udp://127.0.0.1:${outputPort}`, disabled: false }]);
  });

  it('reloads the saved relay, edits it and updates it', async () => {
    await admin.reload();
    await admin.getByRole('heading', { name: `Relay relay-one (id:${ids.relay})` }).waitFor();
    expect(await admin.getByLabel('URI', { exact: true }).inputValue()).toBe(source);
    const update = button(admin, 'Update');
    expect(await update.isDisabled()).toBe(true);

    // A failover input with its switch timeout (default 30 s); a second output, an SRT caller.
    await admin.getByLabel('Failover input', { exact: true }).click();
    expect(await admin.getByLabel('Switch timeout (seconds)').getAttribute('placeholder')).toBe('30');
    expect(await admin.getByLabel('Switch timeout (seconds)').inputValue()).toBe('30');
    await admin.getByLabel('URI', { exact: true }).nth(1).fill('udp://127.0.0.1:5998');
    await subTab(admin, 'Output').click();
    await button(admin, 'Add output').click();
    await admin.getByRole('region', { name: 'Output 2' }).getByLabel('Type', { exact: true }).selectOption('srt');
    await admin.getByRole('region', { name: 'Output 2' }).getByRole('button', { name: 'Edit link' }).click();

    // The SRT link editor and its rules (spec 01 §5); the stream id generator.
    const srt = admin.getByRole('dialog', { name: 'SRT link' });
    await srt.getByRole('heading', { name: 'SRT link' }).waitFor();
    await srt.getByLabel('Port', { exact: true }).fill('70000');
    await srt.getByLabel('Encrypted').check();
    await srt.getByLabel('Passphrase').fill('short');
    await srt.getByRole('button', { name: 'Apply' }).click();
    for (const message of ['Host is required', 'Port must be between 1 and 65536', 'Passphrase must be 10 to 79 characters']) await srt.getByText(message, { exact: true }).waitFor();
    await screenshot(admin, 'relay-edit-srt-link');
    await srt.getByLabel('Host', { exact: true }).fill('127.0.0.1');
    await srt.getByLabel('Port', { exact: true }).fill('9000');
    await srt.getByLabel('Passphrase').fill('a-long-passphrase');
    await srt.getByRole('button', { name: 'Generate stream id ...' }).click();
    const generator = admin.getByRole('dialog', { name: 'Stream id generator' });
    await generator.getByLabel('Pls Code').fill('262144');
    await generator.getByText('Pls Code must be between 0 and 262143').waitFor();
    await generator.getByLabel('Pls Code').fill('3');
    await generator.getByLabel('Stream', { exact: true }).fill('5');
    await generator.getByText('Stream id: 773').waitFor();
    await generator.getByRole('button', { name: 'Apply' }).click();
    expect(await srt.getByLabel('Stream id').inputValue()).toBe('773');
    // Listener mode hides the stream id.
    await srt.getByLabel('Listener').check();
    expect(await srt.getByLabel('Stream id').count()).toBe(0);
    await srt.getByLabel('Caller').check();
    await srt.getByRole('button', { name: 'Apply' }).click();
    await dialog(admin).waitFor({ state: 'detached' });
    await admin.getByText('srt://127.0.0.1:9000 · caller · stream id 773 · encrypted (pbkeylen 16)').waitFor();
    await screenshot(admin, 'relay-edit-outputs');

    expect(await update.isEnabled()).toBe(true);
    await update.click();
    await admin.getByText('Relay relay-one updated.').waitFor();
    await expect.poll(() => update.isDisabled()).toBe(true);
    const stored = await api<Schemas['Job']>('GET', `/api/relays/${ids.relay}`);
    expect(stored.failover).toMatchObject({ timeout: 30, input: { type: 'uri', uri: 'udp://127.0.0.1:5998' } });
    expect(stored.outputs[1]).toMatchObject({ type: 'srt', srtMode: 'caller', uri: 'srt://127.0.0.1:9000', srtStreamId: '773', secured: { keyType: 'AES_128', passphrase: 'a-long-passphrase' } });
  });

  it('locks the saved relay, shows its live status, and offers Update & Restart while it runs', async () => {
    // The Saved lock: the fields are locked; switching it off again lifts the stored lock at once.
    await subTab(admin, 'Output').click();
    await admin.getByLabel('Saved', { exact: true }).click();
    expect(await admin.getByLabel('Name', { exact: true }).isDisabled()).toBe(true);
    await button(admin, 'Update').click();
    await admin.getByText('Saved: the fields are locked. Switch Saved off to change them.').waitFor();
    expect((await api<Schemas['Job']>('GET', `/api/relays/${ids.relay}`)).saved).toBe(true);
    await admin.getByLabel('Saved', { exact: true }).click();
    await expect.poll(async () => (await api<Schemas['Job']>('GET', `/api/relays/${ids.relay}`)).saved).toBe(false);
    await expect.poll(() => admin.getByLabel('Name', { exact: true }).isEnabled()).toBe(true);

    // Only the primary output: the SRT caller has no peer here.
    await admin.getByRole('region', { name: 'Output 2' }).getByRole('switch', { name: 'Output 2 enabled' }).click();
    await button(admin, 'Update').click();
    await admin.getByText('Relay relay-one updated.').first().waitFor();
    await api('POST', `/api/relays/${ids.relay}/start`);
    // The status arrives live: Streaming, with In and Out bandwidth while on.
    await admin.getByTestId('job-status').filter({ hasText: 'Streaming' }).waitFor({ timeout: 30_000 });
    await expect.poll(() => admin.getByTestId('job-bandwidth-in').innerText(), { timeout: 30_000 }).toMatch(/^[1-9][\d.]* (Kbps|Mbps)$/);
    await expect.poll(() => admin.getByTestId('job-bandwidth-out').innerText(), { timeout: 30_000 }).toMatch(/^[1-9][\d.]* (Kbps|Mbps)$/);
    await button(admin, 'Update & Restart').waitFor();
    await admin.locator('#content').evaluate((content) => content.scrollTo(0, 0));
    await screenshot(admin, 'relay-edit-running');
    await api('POST', `/api/relays/${ids.relay}/stop`);
    await admin.getByTestId('job-status').filter({ hasText: 'Stopped' }).waitFor({ timeout: 30_000 });
    await button(admin, 'Update & Restart').waitFor({ state: 'detached' });
  });

  it('opens the Logs tab from #logs, and shows the form read-only (eye) without an edit permission', async () => {
    await admin.goto(`/my/relays/edit/${ids.relay}#logs`);
    expect(await admin.getByRole('tab', { name: 'Logs' }).getAttribute('aria-selected')).toBe('true');

    const { page: viewer } = await harness.newPage();
    await viewer.goto('/login');
    await signIn(viewer, VIEWER.username, VIEWER.password);
    await viewer.goto(`/my/relays/edit/${ids.relay}`);
    await viewer.getByRole('img', { name: 'Read only' }).waitFor();
    expect(await viewer.getByLabel('Name', { exact: true }).isDisabled()).toBe(true);
    expect(await button(viewer, 'Update').count()).toBe(0);
    // Without VIEW_LOG or EDIT: no Logs tab.
    expect(await viewer.getByRole('tab', { name: 'Logs' }).count()).toBe(0);
    await screenshot(viewer, 'relay-edit-read-only');
  });
});

describe('console: encoding edit', () => {
  it('creates an encoding with an adaptive ladder of 3 profiles', async () => {
    await admin.goto('/my/encodings/edit');
    expect(await footerTitle(admin).innerText()).toBe('New encoding');
    await admin.getByLabel('Name', { exact: true }).fill('abr-one');
    // A source that is not there: the failure hint of spec 01 §8.
    await admin.getByLabel('URI', { exact: true }).fill(path.join(dir, 'missing.ts'));
    await admin.getByText('Media info detection failed. Please make sure the source is available.', { exact: true }).waitFor();
    await admin.getByLabel('URI', { exact: true }).fill(source);
    await admin.getByRole('status').filter({ hasText: 'h264 160x90' }).waitFor();

    await subTab(admin, 'Output (1)').click();
    await admin.getByRole('region', { name: 'Output 1' }).getByLabel('Type', { exact: true }).selectOption('hls');
    await admin.getByLabel('Stream location').fill('live/abr-one');
    // The push base URL must differ from the stream location (spec 01 §5).
    await admin.getByLabel('Base URL for pushing to another location').fill('live/abr-one');
    await admin.getByText('Base URL should be different from stream location').waitFor();
    await admin.getByLabel('Base URL for pushing to another location').fill('');

    await subTab(admin, 'Video (1)').click();
    await admin.getByLabel('Preset', { exact: true }).focus();
    await admin.getByLabel('Resolution').focus();
    await admin.getByText('Preset is required').waitFor();
    await admin.getByLabel('Preset', { exact: true }).selectOption({ label: 'H.264 3000' });
    await admin.getByLabel('Adaptive (multiple profiles)', { exact: true }).click();
    expect(await admin.getByLabel('Count of profiles').inputValue()).toBe('3');
    await subTab(admin, 'Video (3)').waitFor();
    expect(await admin.getByLabel('Profile 3 width').inputValue()).toBe('854');
    await admin.getByLabel('Profile 2 video bitrate').fill('0');
    await admin.getByLabel('Profile 2 audio bitrate').focus();
    await admin.getByText('Video bitrate must be between 1 and 999999').waitFor();
    await admin.getByLabel('Profile 2 video bitrate').fill('2500');

    await subTab(admin, 'Audio (1)').click();
    // Source Auto: no more tracks; the volume goes 0 to 10 in steps of 0.1.
    expect(await button(admin, 'Add audio track').count()).toBe(0);
    await admin.getByLabel('Volume').fill('10.5');
    await admin.getByLabel('Normalization', { exact: true }).focus();
    await admin.getByText('Volume must be between 0 and 10').waitFor();
    await admin.getByLabel('Volume').fill('1.5');

    await screenshotSubTabs(admin, 'encoding-new', ['Input', /^Output/, /^Video/, /^Audio/, /^Subtitles/, 'Advanced Settings']);
    await button(admin, 'Create').click();
    await admin.waitForURL(/\/my\/encodings\/edit\/\d+$/);
    ids.encoding = Number(admin.url().split('/').pop());
    await admin.getByRole('heading', { name: `Encoding abr-one (ID:${ids.encoding})` }).waitFor();
    const stored = await api<Schemas['Job']>('GET', `/api/encodings/${ids.encoding}`);
    expect(stored).toMatchObject({ preset: ids.preset, adaptive: true, countOfProfiles: 3, audioSetting: { volume: 1.5 } });
    expect(stored.profiles.map((p) => [p.width, p.height, p.videoBitrate])).toEqual([
      [1920, 1080, 5000],
      [1280, 720, 2500],
      [854, 480, 1500],
    ]);
    expect(stored.outputs).toMatchObject([{ type: 'hls', uri: 'live/abr-one' }]);
  });

  it('saves the encoding as a template and creates a new encoding from it', async () => {
    await button(admin, 'Template').click();
    await admin.getByRole('menuitem', { name: 'Save as template' }).click();
    const save = dialog(admin);
    await save.getByLabel('Name').fill('abr-template');
    await save.getByRole('button', { name: 'Save' }).click();
    await admin.getByText('Template abr-template saved.').waitFor();
    const templates = await api<Schemas['JobPage']>('GET', '/api/encodings/templates');
    const template = templates.items.find((t) => t.name === 'abr-template');
    expect(template).toBeDefined();

    // The template's own screen: no Template dropdown, no Logs or Monitor.
    await admin.goto(`/my/encodings/templates/edit/${template!.id}`);
    await admin.getByRole('heading', { name: `Template abr-template (ID:${template!.id})` }).waitFor();
    expect(await button(admin, 'Template').count()).toBe(0);
    expect(await admin.getByRole('tab', { name: 'Monitor' }).count()).toBe(0);
    await subTab(admin, 'Video (3)').click();
    await screenshot(admin, 'encoding-template');

    await admin.goto('/my/encodings/edit');
    await button(admin, 'Template').click();
    await admin.getByRole('menuitem', { name: 'Load template' }).click();
    const load = dialog(admin);
    await load.getByLabel('Template').selectOption({ label: `abr-template (id:${template!.id})` });
    await load.getByLabel('Name').fill('abr-two');
    await load.getByRole('button', { name: 'Create' }).click();
    await admin.waitForURL(/\/my\/encodings\/edit\/\d+$/);
    const id = Number(admin.url().split('/').pop());
    await admin.getByRole('heading', { name: `Encoding abr-two (ID:${id})` }).waitFor();
    await subTab(admin, 'Video (3)').click();
    expect(await admin.getByLabel('Profile 2 video bitrate').inputValue()).toBe('2500');
    const created = await api<Schemas['Job']>('GET', `/api/encodings/${id}`);
    expect(created).toMatchObject({ name: 'abr-two', preset: ids.preset, adaptive: true, isTemplate: false });
    expect(created.profiles).toHaveLength(3);
  });
});
