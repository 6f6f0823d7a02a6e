import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWatermarkPng } from '../fixtures/media/lavfi.ts';
import { screenshot, sidebarEntries, signIn, startConsole, type ConsoleHarness } from './support/console.ts';

let harness: ConsoleHarness;
let admin: Page;
let dir: string;
let logo: string;
let banner: string;
const ADMIN = { username: 'admin', password: 'admin-password-1' };
const VIEWER = { username: 'encoding-viewer', password: 'viewer-password-1' };
const poll = { timeout: 20_000, interval: 100 };

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const presetsTable = (page: Page, kind: 'Video' | 'Audio') => page.getByRole('table', { name: `${kind} presets` });
const watermarksTable = (page: Page) => page.getByRole('table', { name: 'Watermarks' });

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'mediaplane-e2e-wm-'));
  logo = await makeWatermarkPng(path.join(dir, 'logo.png'));
  // A 320×180 picture with a translucent band: big enough to see it placed in the preview.
  banner = path.join(dir, 'banner.png');
  await execa('ffmpeg', ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=320x180,format=rgba,drawbox=y=60:w=iw:h=60:color=white@0.5:t=fill', '-frames:v', '1', banner]);
  harness = await startConsole();
  await harness.app.createUser({ ...ADMIN, role: 'ADMIN' });
  await harness.app.createUser({ ...VIEWER, permissions: { encoding: { level: 'ENCODING_VIEW', hide: false } } });
  ({ page: admin } = await harness.newPage());
  await signIn(admin, ADMIN.username, ADMIN.password);
});

afterAll(async () => {
  await harness?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('console: presets', () => {
  it('creates an audio preset, with the Opus limits of spec 03 §5', async () => {
    await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Presets' }).click();
    await admin.getByRole('heading', { name: 'Presets', exact: true }).waitFor();
    await presetsTable(admin, 'Video').getByText('No video presets').waitFor();
    await presetsTable(admin, 'Audio').getByText('No audio presets').waitFor();

    await admin.getByRole('link', { name: 'Add audio preset' }).click();
    await admin.waitForURL(/\/my\/presets\/edit\/audio$/);
    const create = admin.getByRole('button', { name: 'Create' });
    // The name is required: Create waits for it.
    expect(await create.isDisabled()).toBe(true);
    await field(admin, 'Name').fill('Opus stereo');
    await field(admin, 'Audio codec').selectOption({ label: 'Opus (libopus)' });
    await admin.getByText('Opus: 32 to 2048 kbit/s, up to 256 kbit/s per channel.').waitFor();
    await field(admin, 'Audio bitrate (kbit/s)').fill('600');
    await field(admin, 'Audio bitrate (kbit/s)').blur();
    await admin.getByText('Opus takes up to 256 kbit/s per channel: at most 512 kbit/s for 2 channels').waitFor();
    expect(await create.isDisabled()).toBe(true);
    await field(admin, 'Audio bitrate (kbit/s)').fill('256');
    // Opus takes 48000 Hz among its rates; 44100 is not offered.
    expect(await field(admin, 'Sample rate (Hz)').locator('option').allInnerTexts()).toEqual(['Select sample rate', '48000', '24000', '16000', '12000', '8000']);
    await screenshot(admin, 'preset-audio-new');
    expect(await create.isEnabled()).toBe(true);
    await create.click();
    await admin.waitForURL(/\/my\/presets\/edit\/audio\/\d+$/);
    await admin.getByRole('heading', { name: 'Audio preset Opus stereo' }).waitFor();
    // Saved: Update is disabled until something changes.
    expect(await admin.getByRole('button', { name: 'Update' }).isDisabled()).toBe(true);
  });

  it('creates a video preset with the codec\'s options as select, range, checkbox and string', async () => {
    await admin.goto('/my/presets/edit/video');
    await admin.getByRole('heading', { name: 'Add video preset' }).waitFor();
    await field(admin, 'Name').fill('x264 HD');
    await field(admin, 'Video bitrate (kbit/s)').fill('3500');
    await field(admin, 'Audio preset').selectOption({ label: 'Opus stereo' });
    await admin.getByRole('switch', { name: 'Advanced options' }).click();
    await admin.getByRole('heading', { name: 'H.264 (libx264) options' }).waitFor();

    await field(admin, 'Preset').selectOption('veryfast');
    await field(admin, 'Tune').selectOption('zerolatency');
    const crf = field(admin, 'Constant rate factor (crf)');
    expect(await crf.getAttribute('min')).toBe('0');
    expect(await crf.getAttribute('max')).toBe('51');
    await crf.fill('60');
    await crf.blur();
    await admin.getByText('Constant rate factor (crf) must be between 0 and 51').waitFor();
    expect(await admin.getByRole('button', { name: 'Create' }).isDisabled()).toBe(true);
    await crf.fill('23');
    await field(admin, 'B-frames (bf) slider').fill('3');
    await admin.getByRole('checkbox', { name: /Forced keyframes as IDR/ }).check();
    await field(admin, 'x264 parameters').fill('nal-hrd=cbr');
    await screenshot(admin, 'preset-video-options');

    await admin.getByRole('button', { name: 'Create' }).click();
    await admin.waitForURL(/\/my\/presets\/edit\/video\/\d+$/);
    await admin.getByRole('heading', { name: 'Video preset x264 HD' }).waitFor();
    const id = Number(/(\d+)$/.exec(admin.url())?.[1]);
    const cookie = await harness.app.signIn(ADMIN.username, ADMIN.password);
    const saved = (await (await harness.app.request(`/api/presets/video/${id}`, { cookie })).json()) as { videoCodecParameters: Record<string, unknown> };
    expect(saved.videoCodecParameters).toEqual({ preset: 'veryfast', tune: 'zerolatency', crf: 23, bf: 3, 'forced-idr': true, 'x264-params': 'nal-hrd=cbr' });
  });

  it('lists both kinds with their usage, clones one, and deletes after confirmation', async () => {
    await admin.goto('/my/presets');
    await presetsTable(admin, 'Video').getByRole('link', { name: 'x264 HD', exact: true }).waitFor();
    // The audio preset is used by the video preset.
    const audioRow = presetsTable(admin, 'Audio').locator('tbody tr', { hasText: 'Opus stereo' });
    await expect.poll(() => audioRow.locator('td').nth(5).innerText(), poll).toBe('1');
    await screenshot(admin, 'presets-list');

    await presetsTable(admin, 'Video').getByRole('link', { name: 'Clone video preset x264 HD' }).click();
    await admin.waitForURL(/\/my\/presets\/clone\/video\/\d+$/);
    expect(await field(admin, 'Name').inputValue()).toBe('x264 HD (copy)');
    expect(await field(admin, 'Preset').inputValue()).toBe('veryfast');
    await admin.getByRole('button', { name: 'Create' }).click();
    await admin.waitForURL(/\/my\/presets\/edit\/video\/\d+$/);

    await admin.goto('/my/presets');
    await presetsTable(admin, 'Video').getByRole('button', { name: 'Delete video preset x264 HD (copy)' }).click();
    await admin.getByRole('dialog').getByText('Delete preset x264 HD (copy)?').waitFor();
    await admin.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await presetsTable(admin, 'Video').getByRole('link', { name: 'x264 HD (copy)', exact: true }).waitFor({ state: 'detached' });

    // An audio preset in use is refused, and the Error alert says why.
    await presetsTable(admin, 'Audio').getByRole('button', { name: 'Delete audio preset Opus stereo' }).click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    const alert = admin.getByRole('dialog', { name: 'Error' });
    await alert.getByText('Audio preset Opus stereo is used by 1 video preset; remove it from them first.').waitFor();
    await alert.getByRole('button', { name: 'Close', exact: true }).click();
  });
});

describe('console: watermarks', () => {
  it('uploads images with a progress bar, then places one and sees it in the preview', async () => {
    await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Watermarks' }).click();
    await watermarksTable(admin).getByText('No watermarks').waitFor();
    expect(await admin.getByText('Total Watermarks:').innerText()).toBe('Total Watermarks: 0');
    await admin.getByRole('link', { name: 'Add New' }).click();
    await admin.waitForURL(/\/my\/watermarks\/edit$/);
    await admin.getByText('You can upload several images at once (PNG, JPEG, GIF or WebP, up to 10 MB each); choose the one this watermark shows.').waitFor();

    await admin.locator('input[type="file"]').setInputFiles([banner, logo]);
    const uploads = admin.getByRole('list', { name: 'Uploads' });
    // Each upload ends with its file name; the first to arrive is the one used.
    await uploads.getByText('banner.png').first().waitFor();
    await uploads.getByText('logo.png').first().waitFor();
    await expect.poll(() => uploads.getByRole('progressbar').count(), poll).toBe(0);
    await uploads.getByText('In use').waitFor();
    const chosen = await uploads.locator('li.is-chosen .upload-name').innerText();
    if (!chosen.includes('banner.png')) await uploads.getByRole('button', { name: 'Use banner.png' }).click();
    await expect.poll(() => field(admin, 'Name').inputValue(), poll).toMatch(/^(banner|logo)$/);
    await field(admin, 'Name').fill('Channel banner');
    expect(await field(admin, 'Scaled width').inputValue()).toBe('320');

    // Size 50 %: both sides follow; the inputs take effect 800 ms after typing stops.
    await field(admin, 'Size').fill('50');
    await expect.poll(() => field(admin, 'Scaled width').inputValue(), poll).toBe('160');
    expect(await field(admin, 'Scaled height').inputValue()).toBe('90');
    await field(admin, 'Resolution').selectOption({ label: '1280x720' });
    await field(admin, 'Position x').fill('1200');
    await admin.getByText('Position x must be at most 1120').waitFor();
    expect(await admin.getByRole('button', { name: 'Create' }).isDisabled()).toBe(true);
    await field(admin, 'Position x').fill('1080');
    await field(admin, 'Position y').fill('40');
    await field(admin, 'Transparency').fill('30');
    await expect.poll(() => admin.locator('.watermark-frame-image').evaluate((img) => (img as HTMLImageElement).style.opacity), poll).toBe('0.7');
    const placed = await admin.locator('.watermark-frame-image').evaluate((img) => {
      const el = img as HTMLImageElement;
      return { left: parseFloat(el.style.left), top: parseFloat(el.style.top), width: parseFloat(el.style.width), loaded: el.complete && el.naturalWidth };
    });
    // 1080/1280, 40/720 and 160/1280 of the frame; the image itself has loaded.
    expect(placed.left).toBeCloseTo(84.375, 3);
    expect(placed.top).toBeCloseTo((40 / 720) * 100, 3);
    expect(placed.width).toBeCloseTo(12.5, 3);
    expect(placed.loaded).toBe(320);
    await screenshot(admin, 'watermark-edit');

    await admin.getByRole('button', { name: 'Create' }).click();
    await admin.waitForURL(/\/my\/watermarks\/edit\/\d+$/);
    await admin.getByRole('heading', { name: 'Watermark Channel banner' }).waitFor();
    expect(await admin.getByRole('button', { name: 'Update' }).isDisabled()).toBe(true);
  });

  it('shows a progress bar while an image uploads, then its file name', async () => {
    // A noisy 1024×1024 picture (a few MB) sent through a throttled link: the upload takes seconds.
    const big = path.join(dir, 'noise.png');
    await execa('ffmpeg', ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', "nullsrc=s=1024x1024,geq=r='random(1)*255':g='random(2)*255':b='random(3)*255'", '-frames:v', '1', '-pix_fmt', 'rgb24', big]);
    const { context, page } = await harness.newPage();
    await signIn(page, ADMIN.username, ADMIN.password);
    await page.goto('/my/watermarks/edit');
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 512 * 1024 });
    await page.locator('input[type="file"]').setInputFiles(big);
    const progress = page.getByRole('progressbar', { name: 'Uploading noise.png' });
    await progress.waitFor();
    await expect.poll(() => progress.evaluate((bar) => (bar as HTMLProgressElement).value), poll).toBeGreaterThan(0);
    await screenshot(page, 'watermark-upload-progress');
    await page.getByRole('list', { name: 'Uploads' }).getByText('noise.png').waitFor();
    await progress.waitFor({ state: 'detached', timeout: 60_000 });
    await page.getByText('PNG 1024x1024').waitFor();
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  }, 120_000);

  it('lists watermarks with a name search on submit and the total, and deletes after "Delete watermark {name}?"', async () => {
    const cookie = await harness.app.signIn(ADMIN.username, ADMIN.password);
    const file = (await (await harness.app.request('/api/watermarks?search=banner', { cookie })).json()) as { items: { file: string }[] };
    await harness.app.request('/api/watermarks', { method: 'POST', cookie, json: { name: 'Another mark', file: file.items[0].file } });

    await admin.goto('/my/watermarks');
    await watermarksTable(admin).getByRole('link', { name: 'Another mark', exact: true }).waitFor();
    expect(await admin.getByText('Total Watermarks:').innerText()).toBe('Total Watermarks: 2');
    expect(await watermarksTable(admin).locator('tbody tr td:nth-child(3)').allInnerTexts()).toEqual(['Another mark', 'Channel banner']);
    await watermarksTable(admin).getByRole('button', { name: 'Name' }).click();
    await expect.poll(() => watermarksTable(admin).locator('tbody tr td:nth-child(3)').allInnerTexts(), poll).toEqual(['Channel banner', 'Another mark']);
    await screenshot(admin, 'watermarks-list');

    // Typing alone does not search; submitting does.
    await admin.getByLabel('Search by name').fill('channel');
    await admin.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => watermarksTable(admin).locator('tbody tr').count(), poll).toBe(1);
    expect(await admin.getByText('Total Watermarks:').innerText()).toBe('Total Watermarks: 1');

    await admin.getByLabel('Search by name').fill('');
    await admin.getByLabel('Search by name').press('Enter');
    await watermarksTable(admin).getByRole('button', { name: 'Delete watermark Another mark' }).click();
    await admin.getByRole('dialog').getByText('Delete watermark Another mark?').waitFor();
    await admin.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await watermarksTable(admin).getByRole('link', { name: 'Another mark', exact: true }).waitFor({ state: 'detached' });
  });
});

describe('console: an ENCODING_VIEW user', () => {
  it('sees presets and watermarks, but no control that changes them', async () => {
    const { page } = await harness.newPage();
    await signIn(page, VIEWER.username, VIEWER.password);
    const entries = await sidebarEntries(page);
    expect(entries).toContain('Presets');
    expect(entries).toContain('Watermarks');

    await page.goto('/my/presets');
    await presetsTable(page, 'Video').getByRole('link', { name: 'x264 HD', exact: true }).waitFor();
    expect(await page.getByRole('link', { name: 'Add video preset' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Delete/ }).count()).toBe(0);
    await presetsTable(page, 'Video').getByRole('link', { name: 'View video preset x264 HD' }).click();
    await page.getByRole('heading', { name: 'Video preset x264 HD' }).waitFor();
    await page.getByText('Read only: you may view presets but not change them.').waitFor();
    expect(await page.getByRole('button', { name: 'Update' }).count()).toBe(0);
    expect(await field(page, 'Name').isDisabled()).toBe(true);

    await page.goto('/my/watermarks');
    await watermarksTable(page).getByRole('link', { name: 'Channel banner', exact: true }).waitFor();
    expect(await page.getByRole('link', { name: 'Add New' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete watermark Channel banner' }).count()).toBe(0);
    await page.goto('/my/watermarks/edit');
    await page.waitForURL(/\/my$/);
    await screenshot(page, 'watermarks-viewer-redirected');
  });
});
