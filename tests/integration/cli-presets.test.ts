import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Schemas } from '../../openapi/client/index.ts';
import { makeWatermarkPng } from '../fixtures/media/lavfi.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { insertJob } from '../support/jobs.ts';
import { cliHome, tokenOf, type CliHome } from './cli-run.ts';

let app: TestApp;
let home: CliHome;
let token: string;
let dir: string;
/** Every CLI run is a node process of its own: slow on a busy machine. */
const SLOW = 180_000;
const cli = (args: string[], input?: string) => home.run(args, { token, ...(input !== undefined ? { input } : {}) });

function file(name: string, text: string): string {
  const at = path.join(dir, name);
  writeFileSync(at, text);
  return at;
}

beforeAll(async () => {
  app = await startTestApp();
  await app.createUser({ username: 'chief', password: 'chief-password-1', role: 'ADMIN' });
  token = await tokenOf(app, 'chief', 'chief-password-1');
  home = cliHome(app);
  dir = mkdtempSync(path.join(tmpdir(), 'mediaplane-cli-presets-'));
});
afterAll(async () => {
  home?.remove();
  await app?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('mediaplane presets', () => {
  let audioId: number;
  let videoId: number;

  it('creates an audio preset from YAML and a video preset from JSON, and shows them with get --json', async () => {
    const audio = await cli(['presets', 'create', 'audio', '--file', file('audio.yaml', 'name: AAC 128\naudioCodec: aac\naudioBitrate: 128\nchannels: 2\nsampleRate: 48000\n')]);
    expect(audio.stderr).toBe('');
    expect(audio.stdout.trim()).toMatch(/^Audio preset \d+ created\.$/);
    audioId = Number(/(\d+)/.exec(audio.stdout)?.[1]);

    const body = { name: 'x264 HD', videoCodec: 'libx264', videoBitrate: 3500, audioPreset: audioId, advancedOption: true, videoCodecParameters: { preset: 'veryfast', crf: 21 } };
    const video = await cli(['presets', 'create', 'video', '--file', file('video.json', JSON.stringify(body)), '--json']);
    expect(video.exitCode, video.stderr).toBe(0);
    videoId = (JSON.parse(video.stdout) as Schemas['VideoPreset']).id;

    const got = await cli(['presets', 'get', 'video', String(videoId), '--json']);
    expect(JSON.parse(got.stdout)).toMatchObject({ ...body, audioPresetName: 'AAC 128', usageCount: 0 });
  }, SLOW);

  it('lists both kinds as tables, with the usage', async () => {
    const list = await cli(['presets', 'list']);
    expect(list.exitCode, list.stderr).toBe(0);
    const lines = list.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('Video presets');
    expect(lines[1].split(/\s{2,}/)).toEqual(['ID', 'NAME', 'CODEC', 'BITRATE', 'AUDIO PRESET', 'USAGE']);
    expect(lines.find((l) => l.includes('x264 HD'))).toMatch(/x264 HD\s+libx264\s+3500 kbit\/s\s+AAC 128\s+0$/);
    expect(lines).toContain('Audio presets');
    expect(lines.find((l) => l.includes('AAC 128') && l.includes('aac'))).toMatch(/AAC 128\s+aac\s+128 kbit\/s\s+2\s+48000 Hz\s+1$/);
    const json = JSON.parse((await cli(['presets', 'list', '--type', 'audio', '--json'])).stdout) as { video?: unknown; audio: Schemas['AudioPresetList'] };
    expect(json.video).toBeUndefined();
    expect(json.audio.total).toBe(1);
  }, SLOW);

  it('updates only the fields of the file, and clones', async () => {
    const updated = await cli(['presets', 'update', 'video', String(videoId), '--file', '-', '--json'], 'videoBitrate: 4000\n');
    expect(updated.exitCode, updated.stderr).toBe(0);
    expect(JSON.parse(updated.stdout)).toMatchObject({ name: 'x264 HD', videoBitrate: 4000, videoCodecParameters: { preset: 'veryfast', crf: 21 } });
    const cloned = await cli(['presets', 'clone', 'video', String(videoId)]);
    expect(cloned.stdout.trim()).toMatch(/^Video preset \d+ cloned as \d+ "x264 HD \(copy\)"\.$/);
  }, SLOW);

  it('reports the API\'s validation messages and a refused delete as code: message, exit 1', async () => {
    const invalid = await cli(['presets', 'create', 'video', '--file', file('bad.yaml', `name: Bad\nvideoCodec: libx264\nvideoBitrate: 1000\naudioPreset: ${audioId}\nadvancedOption: true\nvideoCodecParameters:\n  crf: 99\n`)]);
    expect(invalid.exitCode).toBe(1);
    expect(invalid.stderr.trim()).toBe('VALIDATION_FAILED: body.videoCodecParameters.crf: Constant rate factor (crf) must be between 0 and 51');

    await insertJob(app.db, 'encoding', { name: 'on air', input: { type: 'uri', uri: 'udp://127.0.0.1:5000' }, outputs: [{ type: 'udp', uri: 'udp://127.0.0.1:5001' }], preset: videoId } as never);
    const refused = await cli(['presets', 'delete', 'video', String(videoId), '--yes']);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr.trim()).toBe('PRESET_IN_USE: Preset x264 HD is used by 1 job; remove it from that job first.');
    const unconfirmed = await cli(['presets', 'delete', 'audio', String(audioId)]);
    expect(unconfirmed.stderr.trim()).toBe(`CONFIRMATION_REQUIRED: not deleting audio preset ${audioId} without confirmation: stdin is not a terminal, pass --yes`);
  }, SLOW);

  it('shows the codecs and the options of one', async () => {
    const all = await cli(['presets', 'codecs']);
    expect(all.stdout).toMatch(/libx264\s+video\s+H\.264 \(libx264\)\s+\d+/);
    expect(all.stdout).toMatch(/libopus\s+audio\s+Opus \(libopus\)/);
    const x264 = await cli(['presets', 'codecs', '--codec', 'libx264']);
    expect(x264.stdout).toMatch(/crf\s+range\s+0 to 51 \(step 0\.5\)\s+-1/);
    expect(x264.stdout).toMatch(/preset\s+select\s+ultrafast, superfast, veryfast/);
    const missing = await cli(['presets', 'codecs', '--codec', 'libnothing']);
    expect(missing.stderr.trim()).toBe('NOT_FOUND: the server\'s ffmpeg offers no codec libnothing for presets');
  }, SLOW);
});

describe('mediaplane watermarks', () => {
  it('uploads images, creates a watermark from a local file, lists, updates and deletes it', async () => {
    const png = await makeWatermarkPng(path.join(dir, 'logo.png'));
    const uploaded = await cli(['watermarks', 'upload', png, png, '--json']);
    expect(uploaded.exitCode, uploaded.stderr).toBe(0);
    const stored = JSON.parse(uploaded.stdout) as Schemas['WatermarkFile'][];
    expect(stored.map((s) => [s.originalName, s.format, s.width, s.height])).toEqual([
      ['logo.png', 'png', 64, 32],
      ['logo.png', 'png', 64, 32],
    ]);
    const plain = await cli(['watermarks', 'upload', png]);
    expect(plain.stdout.trim()).toMatch(new RegExp(`^${png.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: wm-[a-z0-9]+-[a-f0-9]{16}\\.png \\(png, 64x32\\)$`));

    const created = await cli(['watermarks', 'create', '--name', 'Logo', '--image', png, '--alpha', '25', '--scale-percent', '50', '--resolution', '1280x720', '--x', '10', '--y', '20', '--json']);
    expect(created.exitCode, created.stderr).toBe(0);
    const watermark = JSON.parse(created.stdout) as Schemas['Watermark'];
    expect(watermark).toMatchObject({ name: 'Logo', alpha: 25, scaledImage: { width: 32, height: 16 }, resolution: { value: 'R_1280x720' }, x: 10, y: 20 });

    const list = await cli(['watermarks', 'list']);
    const lines = list.stdout.trimEnd().split('\n');
    expect(lines[0].split(/\s{2,}/)).toEqual(['ID', 'NAME', 'IMAGE', 'SCALED', 'TRANSPARENCY', 'RESOLUTION', 'POSITION', 'USAGE']);
    expect(lines[1]).toMatch(/Logo\s+64x32\s+32x16 \(50%\)\s+25%\s+1280x720\s+10,20\s+0$/);
    expect(lines.at(-1)).toBe('Total Watermarks: 1');

    const outside = await cli(['watermarks', 'update', String(watermark.id), '--x', '5000']);
    expect(outside.stderr.trim()).toBe('VALIDATION_FAILED: body.x: Position x must be at most 1248');
    const moved = await cli(['watermarks', 'update', String(watermark.id), '--x', '1248', '--json']);
    expect(JSON.parse(moved.stdout)).toMatchObject({ x: 1248, y: 20, alpha: 25, name: 'Logo' });

    expect((await cli(['watermarks', 'delete', String(watermark.id), '--yes'])).stdout.trim()).toBe(`Watermark ${watermark.id} deleted.`);
    expect((await cli(['watermarks', 'list'])).stdout).toContain('No watermarks');
  }, SLOW);
});
