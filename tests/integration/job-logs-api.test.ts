import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../api/db/embedded.ts';
import { startLocalNode, type LocalNode } from '../../api/node/index.ts';
import { JobLogWriter } from '../../engine/logs/job-log.ts';
import type { LogLevel } from '../../engine/types.ts';
import type { Schemas } from '../../openapi/client/index.ts';
import { makeTestMedia } from '../fixtures/media/lavfi.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { insertJob, setDesired, waitFor } from '../support/jobs.ts';

type LogEntries = Schemas['LogEntries'];
type LogEntry = Schemas['LogEntry'];
type ErrorBody = Schemas['Error'];

let app: TestApp;
let node: LocalNode;
let adminCookie: string;
let source: string;

const BASE = Date.parse('2026-11-01T10:00:00.000Z');
const LEVELS: LogLevel[] = ['INFO', 'NOTICE', 'WARNING', 'ERROR'];

/** A job that never ran, with a real log written by the engine's writer: line i at BASE + i s. */
async function relayWithLog(name: string, lines: number, text: (i: number) => string = (i) => `line ${i}`) {
  const job = await insertJob(app.db, 'relay', { name, input: { type: 'uri', uri: 'udp://127.0.0.1:5000' } } as never);
  const writer = new JobLogWriter(path.join(app.services.paths.logsDir, `relay-${job.id}.log`), { maxSizeBytes: 10 * 1024 * 1024 });
  for (let i = 0; i < lines; i++) writer.write({ time: BASE + i * 1000, level: LEVELS[i % LEVELS.length], source: i % 2 ? 'ffmpeg' : 'supervisor', text: text(i) });
  await writer.close();
  return job;
}

async function logs(kind: 'relay' | 'encoding', id: number, query = '', cookie = adminCookie): Promise<LogEntries> {
  const response = await app.request(`/api/${kind}s/${id}/logs${query}`, { cookie });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as LogEntries;
}

const texts = (body: LogEntries) => body.entries.map((e) => e.text);

/** A client of a follow stream: its events and its comment lines, as they arrive. */
async function follow(pathAndQuery: string, cookie = adminCookie) {
  const abort = new AbortController();
  const response = await app.request(pathAndQuery, { cookie, signal: abort.signal });
  const entries: LogEntry[] = [];
  const comments: string[] = [];
  let wake: () => void = () => {};
  const ended = (async () => {
    if (response.status !== 200 || !response.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith(':')) comments.push(block.slice(1).trim());
          const data = /^data: (.+)$/m.exec(block)?.[1];
          if (/^event: log$/m.test(block) && data) entries.push(JSON.parse(data) as LogEntry);
          wake();
        }
      }
    } catch {
      // aborted by the test
    }
  })();
  const until = async (check: () => boolean, what: string) => {
    const deadline = Date.now() + 15_000;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; entries ${JSON.stringify(entries)}, comments ${JSON.stringify(comments)}`);
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 500);
      });
    }
  };
  return { response, entries, comments, until, ended, close: () => abort.abort() };
}

beforeAll(async () => {
  app = await startTestApp();
  const admin = await app.createUser({ username: 'admin', role: 'ADMIN' });
  adminCookie = await app.signIn(admin.username, admin.password);
  source = await makeTestMedia(path.join(path.dirname(app.services.paths.logsDir), 'source.ts'), { seconds: 30, width: 160, height: 90 });
  const { id: nodeId } = await app.db.selectFrom('nodes').select('id').where('node_id', '=', 'test-node').executeTakeFirstOrThrow();
  node = await startLocalNode({ db: app.db, databaseUrl: app.databaseUrl, bus: app.services.events, nodeId, nodeName: 'local', paths: app.services.paths, sweepIntervalMs: 1000, log: () => {} });
}, 120_000);

afterAll(async () => {
  await node?.stop();
  await app?.close();
});

describe('GET /api/relays/{id}/logs', () => {
  it('shows the log of a relay that really ran: what the node wrote while it started and stopped', async () => {
    const { id: nodeId } = await app.db.selectFrom('nodes').select('id').where('node_id', '=', 'test-node').executeTakeFirstOrThrow();
    const port = await freePort();
    const job = await insertJob(app.db, 'relay', { name: 'running relay', input: { type: 'uri', uri: source }, outputs: [{ type: 'udp', uri: `udp://127.0.0.1:${port}` }] } as never, { active: true, nodeId });
    await setDesired(app.db, app.services.events, job.id, { active: true });
    await waitFor(async () => (await app.db.selectFrom('job_status').select('state').where('job_id', '=', job.id).executeTakeFirst())?.state === 'running', 'the relay running');
    await setDesired(app.db, app.services.events, job.id, { active: false });
    await waitFor(async () => (await app.db.selectFrom('job_status').select('state').where('job_id', '=', job.id).executeTakeFirst())?.state === 'stopped', 'the relay stopped');

    const body = await waitFor(async () => {
      const read = await logs('relay', job.id, '?lines=1000&direction=forward');
      return read.entries.length > 0 ? read : undefined;
    }, 'log lines of the relay');
    for (const entry of body.entries) {
      expect(entry.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(['TRACE', 'DEBUG', 'VERBOSE', 'INFO', 'NOTICE', 'WARNING', 'ERROR', 'FATAL']).toContain(entry.level);
    }
    // The supervisor's own lines, in order: the start with its argv, the stop, the exit.
    expect(body.entries[0]).toMatchObject({ level: 'NOTICE', text: expect.stringMatching(new RegExp(`^started pid \\d+: ffmpeg .*${source}`)) });
    expect(body.entries.at(-1)?.text).toMatch(/^process \d+ exited /);
    expect(texts(body).some((text) => text.startsWith('stop requested'))).toBe(true);
    const times = body.entries.map((e) => Date.parse(e.timestamp));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const backward = await logs('relay', job.id, '?lines=1000');
    expect(texts(backward)).toEqual(texts(body).reverse());
  });

  it('answers an empty list for a relay that never ran, not an error', async () => {
    const job = await insertJob(app.db, 'relay', { name: 'never ran', input: { type: 'uri', uri: 'udp://127.0.0.1:5000' } } as never);
    expect(await logs('relay', job.id)).toEqual({ entries: [], truncatedScan: false });
  });

  it('gives the last N lines, newest first by default and oldest first forward', async () => {
    const job = await relayWithLog('sixty lines', 60);
    const backward = await logs('relay', job.id, '?lines=30');
    expect(texts(backward)).toEqual(Array.from({ length: 30 }, (_, i) => `line ${59 - i}`));
    expect(backward.entries[0]).toEqual({ timestamp: new Date(BASE + 59_000).toISOString(), level: LEVELS[59 % 4], text: 'line 59' });
    const forward = await logs('relay', job.id, '?lines=30&direction=forward');
    expect(texts(forward)).toEqual(Array.from({ length: 30 }, (_, i) => `line ${30 + i}`));
    expect((await logs('relay', job.id, '?lines=100')).entries).toHaveLength(60);
  });

  it('filters by minimum level, text (case-insensitive unless asked), regular expression and time range', async () => {
    const job = await relayWithLog('filters', 40, (i) => (i % 5 === 0 ? `Input Lost ${i}` : `frame=${i} fps=25`));
    const warnings = await logs('relay', job.id, '?level=WARNING&lines=1000');
    expect(new Set(warnings.entries.map((e) => e.level))).toEqual(new Set(['WARNING', 'ERROR']));
    expect(warnings.entries).toHaveLength(20);

    expect(texts(await logs('relay', job.id, '?text=input%20lost&lines=1000&direction=forward'))).toEqual(['Input Lost 0', 'Input Lost 5', 'Input Lost 10', 'Input Lost 15', 'Input Lost 20', 'Input Lost 25', 'Input Lost 30', 'Input Lost 35']);
    expect(await logs('relay', job.id, '?text=input%20lost&caseSensitive=true')).toEqual({ entries: [], truncatedScan: false });

    const regex = await logs('relay', job.id, `?regex=true&text=${encodeURIComponent('^frame=1\\d ')}&direction=forward`);
    expect(texts(regex)).toEqual(['frame=11 fps=25', 'frame=12 fps=25', 'frame=13 fps=25', 'frame=14 fps=25', 'frame=16 fps=25', 'frame=17 fps=25', 'frame=18 fps=25', 'frame=19 fps=25']);

    const from = new Date(BASE + 10_000).toISOString();
    const to = new Date(BASE + 13_000).toISOString();
    const range = await logs('relay', job.id, `?from=${from}&to=${to}&direction=forward`);
    expect(range.entries.map((e) => e.timestamp)).toEqual([10, 11, 12, 13].map((s) => new Date(BASE + s * 1000).toISOString()));
  });

  it('refuses a regular expression that does not compile with a 400 naming query.text', async () => {
    const job = await relayWithLog('bad regex', 3);
    const response = await app.request(`/api/relays/${job.id}/logs?regex=true&text=${encodeURIComponent('frame=(')}`, { cookie: adminCookie });
    expect(response.status).toBe(400);
    const body = (await response.json()) as ErrorBody;
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.message).toMatch(/^query\.text: Invalid regular expression "frame=\(": /);
    expect(body.details?.[0]?.path).toBe('query.text');
    // The same text is fine when it is not a regular expression.
    expect((await app.request(`/api/relays/${job.id}/logs?text=${encodeURIComponent('frame=(')}`, { cookie: adminCookie })).status).toBe(200);
  });

  it('refuses a line count outside the choices and a range that ends before it starts', async () => {
    const job = await relayWithLog('bad query', 1);
    const lines = await app.request(`/api/relays/${job.id}/logs?lines=31`, { cookie: adminCookie });
    expect(lines.status).toBe(400);
    expect(((await lines.json()) as ErrorBody).message).toBe('query.lines: must be one of 30, 50, 100, 500, 1000');
    const range = await app.request(`/api/relays/${job.id}/logs?from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z`, { cookie: adminCookie });
    expect(((await range.json()) as ErrorBody).message).toBe('query.to: must not be before from');
  });

  it('answers 404 for a missing job and for a job of the other kind', async () => {
    const job = await relayWithLog('a relay', 1);
    const asEncoding = await app.request(`/api/encodings/${job.id}/logs`, { cookie: adminCookie });
    expect(asEncoding.status).toBe(404);
    expect(((await asEncoding.json()) as ErrorBody).message).toBe(`No encoding with id ${job.id}`);
    const missing = await app.request('/api/relays/999999/logs', { cookie: adminCookie });
    expect(((await missing.json()) as ErrorBody).message).toBe('No relay with id 999999');
  });

  it('needs RELAY_VIEW_LOG (or RELAY_EDIT): a viewer without the Log flag gets 403, with it the lines', async () => {
    const job = await relayWithLog('guarded', 5);
    const viewer = await app.createUser({ username: 'log-viewer', permissions: { relay: { level: 'RELAY_VIEW', hide: false } } });
    const reader = await app.createUser({ username: 'log-reader', permissions: { relay: { level: 'RELAY_VIEW', hide: false, viewLog: true } } });
    const denied = await app.request(`/api/relays/${job.id}/logs`, { cookie: await app.signIn(viewer.username, viewer.password) });
    expect(denied.status).toBe(403);
    expect(((await denied.json()) as ErrorBody).message).toBe('You need RELAY_EDIT or RELAY_VIEW_LOG to do this.');
    expect((await logs('relay', job.id, '', await app.signIn(reader.username, reader.password))).entries).toHaveLength(5);
  });
});

describe('GET /api/encodings/{id}/logs', () => {
  it('reads an encoding\'s own log, with ENCODING_VIEW_LOG', async () => {
    const job = await insertJob(app.db, 'encoding', { name: 'an encoding', input: { type: 'uri', uri: 'udp://127.0.0.1:5000' }, relayVideo: true } as never);
    const writer = new JobLogWriter(path.join(app.services.paths.logsDir, `encoding-${job.id}.log`), { maxSizeBytes: 1024 * 1024 });
    writer.write({ time: BASE, level: 'ERROR', source: 'ffmpeg', text: 'encoder: out of memory' });
    await writer.close();
    const reader = await app.createUser({ username: 'encoding-reader', permissions: { encoding: { level: 'ENCODING_VIEW', hide: false, viewLog: true } } });
    const cookie = await app.signIn(reader.username, reader.password);
    expect(await logs('encoding', job.id, '', cookie)).toEqual({ entries: [{ timestamp: new Date(BASE).toISOString(), level: 'ERROR', text: 'encoder: out of memory' }], truncatedScan: false });
    expect((await app.request(`/api/relays/${job.id}/logs`, { cookie })).status).toBe(403);
  });
});

describe('GET /api/relays/{id}/logs/follow', () => {
  it('streams each new line that passes the filters as one event, and stops when the client goes', async () => {
    const job = await relayWithLog('followed', 3);
    const stream = await follow(`/api/relays/${job.id}/logs/follow?level=WARNING&text=lost`);
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await stream.until(() => stream.comments.includes('following'), 'the follow to start');

    const writer = new JobLogWriter(path.join(app.services.paths.logsDir, `relay-${job.id}.log`), { maxSizeBytes: 1024 * 1024 });
    const now = Date.now();
    writer.write({ time: now, level: 'INFO', source: 'ffmpeg', text: 'input lost (info)' });
    writer.write({ time: now + 1, level: 'WARNING', source: 'ffmpeg', text: 'frame=10' });
    writer.write({ time: now + 2, level: 'WARNING', source: 'supervisor', text: 'input Lost: switching' });
    writer.write({ time: now + 3, level: 'ERROR', source: 'ffmpeg', text: 'udp: input lost for good' });
    await writer.flush();
    await stream.until(() => stream.entries.length >= 2, 'two events');
    expect(stream.entries).toEqual([
      { timestamp: new Date(now + 2).toISOString(), level: 'WARNING', text: 'input Lost: switching' },
      { timestamp: new Date(now + 3).toISOString(), level: 'ERROR', text: 'udp: input lost for good' },
    ]);
    stream.close();
    await stream.ended;
    await writer.close();
  });

  it('sends the backlog first, and follows a log that does not exist yet', async () => {
    const job = await relayWithLog('backlog', 10);
    const stream = await follow(`/api/relays/${job.id}/logs/follow?backlog=2`);
    await stream.until(() => stream.comments.includes('following'), 'the follow to start');
    expect(stream.entries.map((e) => e.text)).toEqual(['line 8', 'line 9']);
    stream.close();

    const fresh = await insertJob(app.db, 'relay', { name: 'no log yet', input: { type: 'uri', uri: 'udp://127.0.0.1:5000' } } as never);
    const waiting = await follow(`/api/relays/${fresh.id}/logs/follow`);
    await waiting.until(() => waiting.comments.includes('following'), 'the follow to start');
    const writer = new JobLogWriter(path.join(app.services.paths.logsDir, `relay-${fresh.id}.log`), { maxSizeBytes: 1024 * 1024 });
    writer.write({ time: Date.now(), level: 'NOTICE', source: 'supervisor', text: 'first line ever' });
    await writer.close();
    await waiting.until(() => waiting.entries.length === 1, 'the first line');
    expect(waiting.entries[0].text).toBe('first line ever');
    waiting.close();
  });

  it('answers a bad regular expression with a 400 before any stream, and 403 without the log permission', async () => {
    const job = await relayWithLog('follow guarded', 1);
    const bad = await app.request(`/api/relays/${job.id}/logs/follow?regex=true&text=${encodeURIComponent('[')}`, { cookie: adminCookie });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await bad.json()) as ErrorBody).details?.[0]?.path).toBe('query.text');

    const viewer = await app.createUser({ username: 'follow-viewer', permissions: { relay: { level: 'RELAY_VIEW', hide: false } } });
    expect((await app.request(`/api/relays/${job.id}/logs/follow`, { cookie: await app.signIn(viewer.username, viewer.password) })).status).toBe(403);
  });
});
