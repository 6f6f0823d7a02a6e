import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchEntry } from '../../engine/batch/batch-entry.ts';
import type { Schemas } from '../../openapi/client/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { insertJob } from '../support/jobs.ts';

type EventList = Schemas['JobHistoryEventList'];
type UptimeList = Schemas['JobUptimeList'];
type DowntimeList = Schemas['JobDowntimeList'];
type BatchPage = Schemas['BatchResultPage'];
type ErrorBody = Schemas['Error'];

let app: TestApp;
let adminCookie: string;
let relayId: number;

const T0 = Date.parse('2026-11-20T08:00:00Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000);
const sec = (seconds: number) => Math.floor((T0 + seconds * 1000) / 1000);

/**
 * The story of a relay as the node records it: switched on by an operator, up, its input lost,
 * up again, restarted by a timer, then switched off; and the next day on again, still up.
 */
const STORY = [
  { s: 0, type: 'START', reason: null, detail: null, actor_kind: 'user', actor_name: 'operator' },
  { s: 5, type: 'UP', reason: null, detail: null, actor_kind: 'engine', actor_name: null },
  { s: 3600, type: 'EXIT', reason: 'input_unreachable', detail: 'udp://239.0.0.1:1234: Connection timed out, "no data", retrying', actor_kind: 'engine', actor_name: null },
  { s: 3660, type: 'UP', reason: null, detail: null, actor_kind: 'engine', actor_name: null },
  { s: 7200, type: 'RESTART', reason: 'soft', detail: '=cmd|calc', actor_kind: 'timer', actor_name: 'nightly' },
  { s: 10_800, type: 'STOP', reason: null, detail: null, actor_kind: 'user', actor_name: 'operator' },
  { s: 86_400, type: 'START', reason: null, detail: null, actor_kind: 'user', actor_name: 'operator' },
  { s: 86_410, type: 'UP', reason: null, detail: null, actor_kind: 'engine', actor_name: null },
];

async function get<T>(path: string, cookie = adminCookie): Promise<T> {
  const response = await app.request(path, { cookie });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as T;
}

/** RFC 4180: quoted cells with doubled quotes and line breaks inside, CRLF between records. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  if (cell !== '' || row.length) rows.push([...row, cell]);
  return rows;
}

beforeAll(async () => {
  app = await startTestApp();
  const admin = await app.createUser({ username: 'admin', role: 'ADMIN' });
  adminCookie = await app.signIn(admin.username, admin.password);
  const relay = await insertJob(app.db, 'relay', { name: 'history relay', input: { type: 'uri', uri: 'udp://239.0.0.1:1234' } } as never);
  relayId = relay.id;
  await app.db
    .insertInto('job_events')
    .values(STORY.map((e) => ({ job_id: relayId, at: at(e.s), type: e.type, reason: e.reason, detail: e.detail, actor_kind: e.actor_kind, actor_name: e.actor_name })))
    .execute();
});
afterAll(() => app.close());

describe('GET /api/relays/{id}/events', () => {
  it('lists the events newest first, with time in seconds, reason, detail and who', async () => {
    const { items } = await get<EventList>(`/api/relays/${relayId}/events?size=100`);
    expect(items.map((e) => e.type)).toEqual(['UP', 'START', 'STOP', 'RESTART', 'UP', 'EXIT', 'UP', 'START']);
    expect(items[0]).toMatchObject({ time: sec(86_410), type: 'UP', reason: null, actor: null });
    expect(items[3]).toMatchObject({ time: sec(7200), type: 'RESTART', reason: 'soft', actor: 'nightly' });
    expect(items[5]).toMatchObject({ type: 'EXIT', reason: 'input_unreachable', detail: STORY[2].detail });
  });

  it('gives at most size records, and only those between from and to (whole days for dates)', async () => {
    expect((await get<EventList>(`/api/relays/${relayId}/events?size=3`)).items.map((e) => e.time)).toEqual([sec(86_410), sec(86_400), sec(10_800)]);
    const firstDay = await get<EventList>(`/api/relays/${relayId}/events?from=2026-11-20&to=2026-11-20`);
    expect(firstDay.items).toHaveLength(6);
    const window = await get<EventList>(`/api/relays/${relayId}/events?from=${at(3000).toISOString()}&to=${at(7200).toISOString()}`);
    expect(window.items.map((e) => e.type)).toEqual(['RESTART', 'UP', 'EXIT']);
  });

  it('refuses a size out of range and a date that is not one', async () => {
    const size = await app.request(`/api/relays/${relayId}/events?size=0`, { cookie: adminCookie });
    expect(((await size.json()) as ErrorBody).message).toBe('query.size: must be at least 1');
    const date = await app.request(`/api/relays/${relayId}/events?from=yesterday`, { cookie: adminCookie });
    expect(date.status).toBe(400);
    expect(((await date.json()) as ErrorBody).details?.[0]?.path).toBe('query.from');
  });
});

describe('GET /api/relays/{id}/uptimes and /downtimes', () => {
  it('derives the uptimes from the events, newest first; the open one has no until', async () => {
    const { items } = await get<UptimeList>(`/api/relays/${relayId}/uptimes?size=10`);
    expect(items.map(({ from, until }) => ({ from, until }))).toEqual([
      { from: sec(86_410), until: undefined },
      { from: sec(3660), until: sec(10_800) },
      { from: sec(5), until: sec(3600) },
    ]);
    expect(items[1].durationSeconds).toBe(10_800 - 3660);
    expect(items[0].durationSeconds).toBeGreaterThan(0);
  });

  it('lists the downtime with its reason, and keeps to from–to', async () => {
    const { items } = await get<DowntimeList>(`/api/relays/${relayId}/downtimes`);
    expect(items).toEqual([{ from: sec(3600), until: sec(3660), durationSeconds: 60, reason: 'input_unreachable' }]);
    expect((await get<UptimeList>(`/api/relays/${relayId}/uptimes?from=2026-11-21`)).items.map((u) => u.from)).toEqual([sec(86_410)]);
    expect((await get<DowntimeList>(`/api/relays/${relayId}/downtimes?from=2026-11-21`)).items).toEqual([]);
  });
});

describe('GET /api/relays/{id}/events|uptimes|downtimes/download', () => {
  it('downloads the events as a CSV file that reads back: header row, quoted cells, UTC times', async () => {
    const response = await app.request(`/api/relays/${relayId}/events/download?size=5`, { cookie: adminCookie });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="relay-${relayId}-events.csv"`);
    const rows = parseCsv(await response.text());
    expect(rows[0]).toEqual(['Time', 'Type', 'Reason', 'Detail', 'By']);
    expect(rows.slice(1)).toEqual([
      ['2026-11-21 08:00:10', 'UP', '', '', 'engine'],
      ['2026-11-21 08:00:00', 'START', '', '', 'operator'],
      ['2026-11-20 11:00:00', 'STOP', '', '', 'operator'],
      // A cell a spreadsheet would run as a formula is defused.
      ['2026-11-20 10:00:00', 'RESTART', 'soft', "'=cmd|calc", 'nightly'],
      ['2026-11-20 09:01:00', 'UP', '', '', 'engine'],
    ]);
    const all = parseCsv(await (await app.request(`/api/relays/${relayId}/events/download?size=100`, { cookie: adminCookie })).text());
    expect(all.find((row) => row[1] === 'EXIT')).toEqual(['2026-11-20 09:00:00', 'EXIT', 'input_unreachable', STORY[2].detail, 'engine']);
  });

  it('downloads uptimes and downtimes with their header rows; an open interval has an empty until', async () => {
    const uptimes = await app.request(`/api/relays/${relayId}/uptimes/download?size=10`, { cookie: adminCookie });
    expect(uptimes.headers.get('content-disposition')).toBe(`attachment; filename="relay-${relayId}-uptimes.csv"`);
    const up = parseCsv(await uptimes.text());
    expect(up[0]).toEqual(['From', 'Until', 'Duration (seconds)']);
    expect(up.slice(1).map((row) => row.slice(0, 2))).toEqual([
      ['2026-11-21 08:00:10', ''],
      ['2026-11-20 09:01:00', '2026-11-20 11:00:00'],
      ['2026-11-20 08:00:05', '2026-11-20 09:00:00'],
    ]);
    const down = parseCsv(await (await app.request(`/api/relays/${relayId}/downtimes/download?size=10`, { cookie: adminCookie })).text());
    expect(down).toEqual([
      ['From', 'Until', 'Duration (seconds)', 'Reason'],
      ['2026-11-20 09:00:00', '2026-11-20 09:01:00', '60', 'input_unreachable'],
    ]);
  });
});

describe('who may read the history', () => {
  it('lets STATISTICS_VIEW or the kind\'s view permission read it, and refuses everyone else', async () => {
    const statistics = await app.createUser({ username: 'statistician', permissions: { statistics: { level: 'STATISTICS_VIEW', hide: false } } });
    const relayViewer = await app.createUser({ username: 'relay-viewer', permissions: { relay: { level: 'RELAY_VIEW', hide: false } } });
    const encodingViewer = await app.createUser({ username: 'encoding-viewer', permissions: { encoding: { level: 'ENCODING_VIEW', hide: false } } });
    for (const user of [statistics, relayViewer]) {
      const cookie = await app.signIn(user.username, user.password);
      for (const what of ['events', 'uptimes', 'downtimes', 'events/download', 'uptimes/download', 'downtimes/download']) {
        expect((await app.request(`/api/relays/${relayId}/${what}`, { cookie })).status, `${user.username} ${what}`).toBe(200);
      }
    }
    const cookie = await app.signIn(encodingViewer.username, encodingViewer.password);
    const denied = await app.request(`/api/relays/${relayId}/events/download`, { cookie });
    expect(denied.status).toBe(403);
    expect(((await denied.json()) as ErrorBody).message).toBe('You need RELAY_VIEW or RELAY_EDIT or STATISTICS_VIEW to do this.');
    const other = await app.request(`/api/encodings/${relayId}/events`, { cookie });
    expect(other.status).toBe(404);
    expect(((await other.json()) as ErrorBody).message).toBe(`No encoding with id ${relayId}`);
  });
});

describe('GET /api/encodings/{id}/batch-results', () => {
  it('pages the batch entries, latest first, with every field; a missing status reads NONE', async () => {
    const job = await insertJob(app.db, 'encoding', {
      name: 'batch encoding',
      videoType: 'VOD',
      relayVideo: true,
      input: { type: 'uri', uri: '/media/in/**/*.mp4', batchLogEnabled: true },
    } as never);
    const done = batchEntry({
      jobName: 'batch encoding',
      sourceFile: '/media/in/a.mp4',
      outputFiles: ['/media/out/a/index.m3u8'],
      startTime: Date.parse('2026-11-20T10:00:00Z'),
      endTime: Date.parse('2026-11-20T10:00:20Z'),
      sourceFileDurationInSeconds: 60,
      sourceFileSizeInBytes: 15_000_000,
      status: 'DONE',
    });
    const failed = batchEntry({ jobName: 'batch encoding', sourceFile: '/media/in/b.mp4', outputFiles: [], status: 'FAILED' });
    await app.db
      .insertInto('job_batch_entries')
      .values([
        { job_id: job.id, source_file: done.sourceFile, status: done.status, entry: JSON.stringify(done) },
        { job_id: job.id, source_file: failed.sourceFile, status: failed.status, entry: JSON.stringify(failed) },
        { job_id: job.id, source_file: '/media/in/c.mp4', status: '', entry: JSON.stringify({ sourceFile: '/media/in/c.mp4', jobName: 'batch encoding' }) },
      ])
      .execute();

    const page = await get<BatchPage>(`/api/encodings/${job.id}/batch-results?size=2`);
    expect(page.total).toBe(3);
    expect(page.items.map((r) => [r.sourceFile, r.status])).toEqual([
      ['/media/in/c.mp4', 'NONE'],
      ['/media/in/b.mp4', 'FAILED'],
    ]);
    const second = await get<BatchPage>(`/api/encodings/${job.id}/batch-results?size=2&page=2`);
    const { id, createdAt, ...fields } = second.items[0];
    expect(id).toBeGreaterThan(0);
    expect(createdAt).toMatch(/Z$/);
    expect(fields).toEqual({
      startTime: '2026-11-20T10:00:00.000Z',
      endTime: '2026-11-20T10:00:20.000Z',
      elapsedTimeInSeconds: 20,
      sourceFile: '/media/in/a.mp4',
      sourceFileDurationInSeconds: 60,
      sourceFileSizeInBytes: 15_000_000,
      outputFiles: ['/media/out/a/index.m3u8'],
      transcodingSpeedInBitsPerSecond: 6_000_000,
      transcodingSpeedToPlaySpeedRatio: 3,
      jobName: 'batch encoding',
      status: 'DONE',
    });
    const nothing = await get<BatchPage>(`/api/encodings/${job.id}/batch-results?page=9`);
    expect(nothing).toMatchObject({ items: [], total: 3, page: 9 });
  });

  it('needs ENCODING_VIEW_LOG or ENCODING_EDIT', async () => {
    const job = await insertJob(app.db, 'encoding', { name: 'guarded batch', relayVideo: true, input: { type: 'uri', uri: 'udp://127.0.0.1:5000' } } as never);
    const viewer = await app.createUser({ username: 'batch-viewer', permissions: { encoding: { level: 'ENCODING_VIEW', hide: false } } });
    const reader = await app.createUser({ username: 'batch-reader', permissions: { encoding: { level: 'ENCODING_VIEW', hide: false, viewLog: true } } });
    expect((await app.request(`/api/encodings/${job.id}/batch-results`, { cookie: await app.signIn(viewer.username, viewer.password) })).status).toBe(403);
    expect(await get<BatchPage>(`/api/encodings/${job.id}/batch-results`, await app.signIn(reader.username, reader.password))).toEqual({ items: [], total: 0, page: 1, size: 25 });
  });
});
