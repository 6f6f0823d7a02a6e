import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../api/db/embedded.ts';
import type { Schemas } from '../../openapi/client/index.ts';
import { makeTestMedia } from '../fixtures/media/lavfi.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { insertJob } from '../support/jobs.ts';

type MediaInfo = Schemas['MediaInfo'];
type TraceResult = Schemas['TraceResult'];
type ErrorBody = Schemas['Error'];

const FAILED = 'Media info detection failed. Please make sure the source is available.';

let app: TestApp;
let adminCookie: string;
let source: string;

const detect = (kind: 'relay' | 'encoding', input: unknown, cookie = adminCookie) => app.request(`/api/${kind}s/media-info`, { method: 'POST', cookie, json: input });

beforeAll(async () => {
  app = await startTestApp();
  const admin = await app.createUser({ username: 'admin', role: 'ADMIN' });
  adminCookie = await app.signIn(admin.username, admin.password);
  // 6 s of H.264 (a keyframe every 25 frames at 25 fps) and AAC in MPEG-TS.
  source = await makeTestMedia(path.join(path.dirname(app.services.paths.logsDir), 'probe-source.ts'), { seconds: 6, width: 320, height: 180 });
}, 120_000);
afterAll(() => app.close());

describe('POST /api/relays/media-info', () => {
  it('finds the programs and streams of a source', async () => {
    const response = await detect('relay', { type: 'uri', uri: source });
    expect(response.status, await response.clone().text()).toBe(200);
    const info = (await response.json()) as MediaInfo;
    expect(info.format.name).toBe('mpegts');
    expect(info.streams.map((s) => [s.type, s.codec])).toEqual([
      ['video', 'h264'],
      ['audio', 'aac'],
    ]);
    expect(info.streams[0]).toMatchObject({ width: 320, height: 180, frameRate: 25 });
    expect(info.streams[1]).toMatchObject({ sampleRate: 48000 });
    expect(info.programs).toHaveLength(1);
    expect(info.programs[0].streams).toHaveLength(2);
  });

  it('answers 422 with the spec\'s text, and the cause in details, for an SRT source that is not there', async () => {
    const port = await freePort();
    const response = await detect('relay', { type: 'uri', uri: `srt://127.0.0.1:${port}?connect_timeout=1000` });
    expect(response.status).toBe(422);
    const body = (await response.json()) as ErrorBody;
    expect(body.code).toBe('MEDIA_INFO_FAILED');
    expect(body.message).toBe(FAILED);
    expect(body.details?.[0]?.path).toBe('input.uri');
    expect(body.details?.[0]?.message.length).toBeGreaterThan(0);
  });

  it('answers 422 with the same text for a UDP source that sends nothing (ffprobe gives up at its read timeout)', async () => {
    const port = await freePort();
    const response = await detect('encoding', { type: 'uri', uri: `udp://127.0.0.1:${port}` });
    expect(response.status).toBe(422);
    const body = (await response.json()) as ErrorBody;
    expect(body.message).toBe(FAILED);
    // ffprobe's own UDP read timeout ends it ("Input/output error"); the process bound is the backstop.
    expect(body.details?.[0]?.message).toMatch(/Input\/output error$|^timed out after \d+ ms$/);
  }, 40_000);

  it('probes uri inputs only: another type is a 400 naming input.type', async () => {
    const response = await detect('relay', { type: 'playlist', playlist: 3 });
    expect(response.status).toBe(400);
    const body = (await response.json()) as ErrorBody;
    expect(body.message).toBe('input.type: media info is detected for uri inputs only, not playlist');
    expect(body.details?.[0]?.path).toBe('input.type');
  });

  it('checks the URI first: no leading "-", no other scheme', async () => {
    const option = await detect('relay', { type: 'uri', uri: '-i /etc/passwd' });
    expect(option.status).toBe(400);
    expect(((await option.json()) as ErrorBody).details?.map((d) => [d.path, d.message])).toContainEqual(['body.uri', 'must not start with "-"']);
    const scheme = await detect('relay', { type: 'uri', uri: 'gopher://example.com/1' });
    expect(scheme.status).toBe(400);
    expect(((await scheme.json()) as ErrorBody).details?.[0]?.path).toBe('body.uri');
  });

  it('needs the kind\'s edit permission: RELAY_VIEW alone is 403, RELAY_VIEW with the Edit flag may', async () => {
    const viewer = await app.createUser({ username: 'viewer', permissions: { relay: { level: 'RELAY_VIEW', hide: false } } });
    const editor = await app.createUser({ username: 'view-editor', permissions: { relay: { level: 'RELAY_VIEW', hide: false, viewEdit: true } } });
    const denied = await detect('relay', { type: 'uri', uri: source }, await app.signIn(viewer.username, viewer.password));
    expect(denied.status).toBe(403);
    expect(((await denied.json()) as ErrorBody).message).toBe('You need RELAY_EDIT or RELAY_VIEW_EDIT to do this.');
    const editorCookie = await app.signIn(editor.username, editor.password);
    expect((await detect('relay', { type: 'uri', uri: source }, editorCookie)).status).toBe(200);
    expect((await detect('encoding', { type: 'uri', uri: source }, editorCookie)).status).toBe(403);
  });
});

describe('GET /api/relays/{id}/media-info', () => {
  it('probes a stored relay\'s input for a viewer, and answers 404 for the other kind', async () => {
    const job = await insertJob(app.db, 'relay', { name: 'stored', input: { type: 'uri', uri: source } } as never);
    const viewer = await app.createUser({ username: 'stored-viewer', permissions: { relay: { level: 'RELAY_VIEW', hide: false } } });
    const cookie = await app.signIn(viewer.username, viewer.password);
    const response = await app.request(`/api/relays/${job.id}/media-info`, { cookie });
    expect(response.status).toBe(200);
    expect(((await response.json()) as MediaInfo).streams).toHaveLength(2);
    const other = await app.request(`/api/encodings/${job.id}/media-info`, { cookie: adminCookie });
    expect(other.status).toBe(404);
    expect(((await other.json()) as ErrorBody).message).toBe(`No encoding with id ${job.id}`);
    const outsider = await app.createUser({ username: 'outsider' });
    expect((await app.request(`/api/relays/${job.id}/media-info`, { cookie: await app.signIn(outsider.username, outsider.password) })).status).toBe(403);
  });
});

describe('POST /api/encodings/{id}/trace', () => {
  it('answers one table per trace key, with the first keyframes a second apart (GOP of 25 frames)', async () => {
    const job = await insertJob(app.db, 'encoding', { name: 'traced', relayVideo: true, input: { type: 'uri', uri: source } } as never);
    const response = await app.request(`/api/encodings/${job.id}/trace`, { method: 'POST', cookie: adminCookie });
    expect(response.status, await response.clone().text()).toBe(200);
    const trace = (await response.json()) as TraceResult;
    expect(trace.input).toBe(source);
    expect(trace.traces.map((t) => t.key)).toEqual(['format', 'programs', 'streams', 'keyframes']);
    for (const table of trace.traces) for (const row of table.rows) expect(row).toHaveLength(table.columns.length);

    const format = trace.traces[0];
    expect(format.rows).toContainEqual(['Format', 'mpegts']);
    expect(format.rows).toContainEqual(['Streams', '2']);
    const streams = trace.traces[2];
    expect(streams.rows.map((row) => [row[streams.columns.indexOf('Type')], row[streams.columns.indexOf('Codec')], row[streams.columns.indexOf('Resolution')]])).toEqual([
      ['video', 'h264', '320x180'],
      ['audio', 'aac', ''],
    ]);
    const keyframes = trace.traces[3];
    expect(keyframes.columns).toEqual(['Keyframe', 'Time (s)', 'Interval (s)', 'GOP (frames)']);
    expect(keyframes.rows.length).toBeGreaterThanOrEqual(5);
    expect(keyframes.rows[0][2]).toBe('');
    for (const row of keyframes.rows.slice(1)) {
      expect(row[2]).toBe('1.000');
      expect(row[3]).toBe('25');
    }
  });

  it('answers 422 with the spec\'s text when the stored source is not there, and needs the view permission', async () => {
    const port = await freePort();
    const job = await insertJob(app.db, 'encoding', { name: 'gone', relayVideo: true, input: { type: 'uri', uri: `srt://127.0.0.1:${port}?connect_timeout=1000` } } as never);
    const response = await app.request(`/api/encodings/${job.id}/trace`, { method: 'POST', cookie: adminCookie });
    expect(response.status).toBe(422);
    expect(((await response.json()) as ErrorBody).message).toBe(FAILED);
    const relayViewer = await app.createUser({ username: 'relay-only', permissions: { relay: { level: 'RELAY_VIEW', hide: false } } });
    expect((await app.request(`/api/encodings/${job.id}/trace`, { method: 'POST', cookie: await app.signIn(relayViewer.username, relayViewer.password) })).status).toBe(403);
  });
});
