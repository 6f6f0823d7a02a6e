import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Schemas } from '../../openapi/client/index.ts';
import { WATERMARK_FILE_PATTERN } from '../../openapi/schemas/watermarks.ts';
import { makeWatermarkPng } from '../fixtures/media/lavfi.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { insertJob } from '../support/jobs.ts';

type Watermark = Schemas['Watermark'];
type WatermarkFile = Schemas['WatermarkFile'];
type ErrorBody = Schemas['Error'];

let app: TestApp;
let admin: string;
let dir: string;
/** A 64×32 PNG with alpha and a 200×100 JPEG, made by ffmpeg's lavfi. */
let png: Buffer;
let jpeg: Buffer;

async function call<T>(method: string, url: string, json?: unknown, cookie = admin): Promise<{ status: number; body: T }> {
  const response = await app.request(url, { method, cookie, ...(json !== undefined ? { json } : {}) });
  return { status: response.status, body: (await response.json()) as T };
}

async function upload(bytes: Buffer, name: string, cookie = admin, type = 'application/octet-stream'): Promise<{ status: number; body: WatermarkFile & ErrorBody }> {
  const response = await app.request(`/api/watermarks/files?name=${encodeURIComponent(name)}`, { method: 'POST', cookie, body: new Uint8Array(bytes), headers: { 'content-type': type } });
  return { status: response.status, body: (await response.json()) as WatermarkFile & ErrorBody };
}

async function uploaded(bytes = png, name = 'logo.png'): Promise<WatermarkFile> {
  const { status, body } = await upload(bytes, name);
  expect(status, JSON.stringify(body)).toBe(201);
  return body;
}

async function create(body: Record<string, unknown>): Promise<Watermark> {
  const { status, body: created } = await call<Watermark>('POST', '/api/watermarks', body);
  expect(status, JSON.stringify(created)).toBe(201);
  return created;
}

async function issues(method: string, url: string, json: unknown): Promise<Record<string, string>> {
  const { status, body } = await call<ErrorBody>(method, url, json);
  expect(status, JSON.stringify(body)).toBe(400);
  return Object.fromEntries((body.details ?? []).map((d) => [d.path.replace(/^body\./, ''), d.message]));
}

const storedFiles = () => readdir(app.services.paths.watermarksDir).then((names) => names.filter((n) => WATERMARK_FILE_PATTERN.test(n)));

beforeAll(async () => {
  app = await startTestApp();
  const user = await app.createUser({ username: 'admin', role: 'ADMIN' });
  admin = await app.signIn(user.username, user.password);
  dir = mkdtempSync(path.join(tmpdir(), 'mediaplane-wm-'));
  png = readFileSync(await makeWatermarkPng(path.join(dir, 'logo.png')));
  const jpegFile = path.join(dir, 'photo.jpg');
  await execa('ffmpeg', ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=200x100', '-frames:v', '1', jpegFile]);
  jpeg = readFileSync(jpegFile);
});
afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('POST /api/watermarks/files', () => {
  it('stores a PNG under a generated name and reads its size from the image', async () => {
    const stored = await uploaded(png, 'my logo.png');
    expect(stored).toMatchObject({ originalName: 'my logo.png', format: 'png', width: 64, height: 32, size: png.length });
    expect(stored.file).toMatch(WATERMARK_FILE_PATTERN);
    expect(stored.file.endsWith('.png')).toBe(true);
    const served = await app.request(`/api/watermarks/files/${stored.file}`, { cookie: admin });
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
  });

  it('goes by the content, not the name: a JPEG called .png is stored as a JPEG', async () => {
    const stored = await uploaded(jpeg, 'photo.png');
    expect(stored).toMatchObject({ format: 'jpeg', width: 200, height: 100 });
    expect(stored.file.endsWith('.jpg')).toBe(true);
  });

  it('refuses what is not an image, an empty body and an image over 10 MB', async () => {
    const text = await upload(Buffer.from('not an image at all, just text'), 'fake.png');
    expect(text.status).toBe(400);
    expect(text.body.message).toBe('body: fake.png is not a PNG, JPEG, GIF or WebP image');
    const empty = await upload(Buffer.alloc(0), 'empty.png');
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('body: The upload is empty: send the image as the request body');
    const huge = await upload(Buffer.concat([png, Buffer.alloc(10 * 1024 * 1024)]), 'huge.png');
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: 'The image is larger than 10 MB.' });
  });
});

describe('watermarks', () => {
  it('creates a watermark: the scaled size follows the size in percent, the resolution its name', async () => {
    const { file } = await uploaded();
    const created = await create({ name: 'Channel logo', file, alpha: 30, scalePercent: 50, resolution: { value: 'R_1280x720' }, x: 100, y: 50 });
    expect(created).toMatchObject({
      name: 'Channel logo',
      file,
      alpha: 30,
      scalePercent: 50,
      image: { width: 64, height: 32 },
      scaledImage: { width: 32, height: 16 },
      resolution: { value: 'R_1280x720', name: '1280x720', width: 1280, height: 720 },
      x: 100,
      y: 50,
      usageCount: 0,
    });
    const image = await app.request(`/api/watermarks/${created.id}/image`, { cookie: admin });
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer()).equals(png)).toBe(true);
  });

  it('names each broken rule of spec 03 §5', async () => {
    expect(await issues('POST', '/api/watermarks', {})).toMatchObject({ name: 'Name is required', file: 'Upload an image' });
    const { file } = await uploaded();
    expect(await issues('POST', '/api/watermarks', { name: 'x'.repeat(101), file, alpha: 101, scalePercent: 2.5 })).toEqual({
      name: 'Name must be at most 100 characters',
      alpha: 'Transparency must be between 0 and 100',
      scalePercent: 'Size goes in steps of 1',
    });
    expect(await issues('POST', '/api/watermarks', { name: 'Too big', file, scaledImage: { width: 65, height: -1 } })).toEqual({ 'scaledImage.height': 'Scaled height must be at least 0' });
    expect(await issues('POST', '/api/watermarks', { name: 'Too big', file, scaledImage: { width: 65, height: 33 } })).toEqual({
      'scaledImage.width': 'Scaled width must be between 0 and 64',
      'scaledImage.height': 'Scaled height must be between 0 and 32',
    });
    // 1920 - 64 = 1856 and 1080 - 32 = 1048 are the furthest the full-size image may go.
    expect(await issues('POST', '/api/watermarks', { name: 'Outside', file, x: 1857, y: 1049 })).toEqual({ x: 'Position x must be at most 1856', y: 'Position y must be at most 1048' });
    expect(await issues('POST', '/api/watermarks', { name: 'Outside', file, scaledImage: { width: 64, height: 32 }, resolution: { value: 'CUSTOM', width: 100, height: 40 }, x: 37, y: 9 })).toEqual({
      x: 'Position x must be at most 36',
      y: 'Position y must be at most 8',
    });
    expect(await issues('POST', '/api/watermarks', { name: 'Custom', file, resolution: { value: 'CUSTOM', width: -1 } })).toEqual({
      'resolution.width': 'Custom resolution width must be at least 0',
      'resolution.height': 'Custom resolution height is required',
    });
    expect(await issues('POST', '/api/watermarks', { name: 'Gone', file: 'wm-abcdef-0123456789abcdef.png' })).toEqual({ file: 'No uploaded image named wm-abcdef-0123456789abcdef.png: upload it first' });
    expect(await issues('POST', '/api/watermarks', { name: 'Path', file: '../../etc/passwd' })).toEqual({ file: 'Not an uploaded image: upload one with POST /api/watermarks/files' });
  });

  it('lists with a name search, sorted by name either way, with the total', async () => {
    const { file } = await uploaded();
    for (const name of ['Zulu mark', 'alpha mark', 'Mike mark']) await create({ name, file });
    const asc = await call<Schemas['WatermarkPage']>('GET', '/api/watermarks?search=mark&sort=name&order=asc');
    expect(asc.body.items.map((w) => w.name)).toEqual(['alpha mark', 'Mike mark', 'Zulu mark']);
    expect(asc.body.total).toBe(3);
    const desc = await call<Schemas['WatermarkPage']>('GET', '/api/watermarks?search=mark&order=desc');
    expect(desc.body.items.map((w) => w.name)).toEqual(['Zulu mark', 'Mike mark', 'alpha mark']);
    const none = await call<Schemas['WatermarkPage']>('GET', '/api/watermarks?search=nothing-like-it');
    expect(none.body).toMatchObject({ items: [], total: 0 });
  });

  it('replacing the image removes the old file; deleting removes the watermark and its file', async () => {
    const first = await uploaded(png, 'first.png');
    const second = await uploaded(jpeg, 'second.jpg');
    const created = await create({ name: 'Replaced', file: first.file });
    const updated = await call<Watermark>('PUT', `/api/watermarks/${created.id}`, { name: 'Replaced', file: second.file, scalePercent: 10, resolution: { value: 'CUSTOM', width: 640, height: 360 }, x: 620, y: 350 });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ image: { width: 200, height: 100 }, scaledImage: { width: 20, height: 10 }, resolution: { value: 'CUSTOM', name: 'Custom', width: 640, height: 360 } });
    expect(await storedFiles()).not.toContain(first.file);
    expect((await app.request(`/api/watermarks/files/${first.file}`, { cookie: admin })).status).toBe(404);

    expect((await call('DELETE', `/api/watermarks/${created.id}`)).status).toBe(200);
    expect((await call('GET', `/api/watermarks/${created.id}`)).status).toBe(404);
    expect(await storedFiles()).not.toContain(second.file);
  });

  it('refuses to delete a watermark an encoding uses, saying how many', async () => {
    const { file } = await uploaded();
    const used = await create({ name: 'On air', file });
    await insertJob(app.db, 'encoding', { name: 'marked', input: { type: 'uri', uri: 'udp://127.0.0.1:5000' }, outputs: [{ type: 'udp', uri: 'udp://127.0.0.1:5001' }], watermark: used.id } as never);
    expect((await call<Watermark>('GET', `/api/watermarks/${used.id}`)).body.usageCount).toBe(1);
    const refused = await call<ErrorBody>('DELETE', `/api/watermarks/${used.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'WATERMARK_IN_USE', message: 'Watermark On air is used by 1 encoding; remove it from that encoding first.' });
  });
});

describe('permissions (spec 03 §6)', () => {
  it('ENCODING_VIEW views; VIEW_EDIT edits and uploads; VIEW_DELETE deletes; only ENCODING_EDIT adds', async () => {
    const { file } = await uploaded();
    const target = await create({ name: 'Guarded', file });
    const users = {
      viewer: { encoding: { level: 'ENCODING_VIEW', hide: false } },
      editor: { encoding: { level: 'ENCODING_VIEW', hide: false, viewEdit: true } },
      deleter: { encoding: { level: 'ENCODING_VIEW', hide: false, viewDelete: true } },
      stranger: { relay: { level: 'RELAY_EDIT', hide: false } },
    };
    const cookies: Record<string, string> = {};
    for (const [name, permissions] of Object.entries(users)) {
      const user = await app.createUser({ username: `wm-${name}`, permissions });
      cookies[name] = await app.signIn(user.username, user.password);
    }
    const form = { name: 'Guarded', file, alpha: 10 };

    expect((await call('GET', '/api/watermarks', undefined, cookies.viewer)).status).toBe(200);
    expect((await app.request(`/api/watermarks/${target.id}/image`, { cookie: cookies.viewer })).status).toBe(200);
    expect((await upload(png, 'v.png', cookies.viewer)).status).toBe(403);
    expect((await call('PUT', `/api/watermarks/${target.id}`, form, cookies.viewer)).status).toBe(403);
    const refused = await call<ErrorBody>('DELETE', `/api/watermarks/${target.id}`, undefined, cookies.viewer);
    expect(refused.body.message).toBe('You need ENCODING_EDIT or ENCODING_VIEW_DELETE to do this.');

    expect((await upload(png, 'e.png', cookies.editor)).status).toBe(201);
    expect((await call('PUT', `/api/watermarks/${target.id}`, form, cookies.editor)).status).toBe(200);
    const addNew = await call<ErrorBody>('POST', '/api/watermarks', { ...form, name: 'By editor' }, cookies.editor);
    expect(addNew.status).toBe(403);
    expect(addNew.body.message).toBe('You need ENCODING_EDIT to do this.');
    expect((await call('DELETE', `/api/watermarks/${target.id}`, undefined, cookies.editor)).status).toBe(403);

    expect((await call('PUT', `/api/watermarks/${target.id}`, form, cookies.deleter)).status).toBe(403);
    expect((await call('DELETE', `/api/watermarks/${target.id}`, undefined, cookies.deleter)).status).toBe(200);

    expect((await call('GET', '/api/watermarks', undefined, cookies.stranger)).status).toBe(403);
  });
});
