import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../api/db/embedded.ts';
import type { Schemas } from '../../openapi/client/index.ts';
import { makeTestMedia } from '../fixtures/media/lavfi.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { processesWithArgument } from '../support/processes.ts';
import { ofType, readToolStream, serveFile, waitUntilGone, type Arrived } from './tools-support.ts';

/**
 * The tools API with the real ping, mtr and ffprobe: results arrive as the programs print them,
 * and closing the request ends the program.
 */
let app: TestApp;
let admin: string;
let media: { url: string; close(): Promise<void> };

const run = (tool: string, body: unknown, cookie = admin, signal?: AbortSignal) => app.request(`/api/tools/${tool}`, { method: 'POST', cookie, json: body, signal });

async function stream(tool: string, body: unknown, onEvent?: Parameters<typeof readToolStream>[2], signal?: AbortSignal): Promise<Arrived[]> {
  const started = Date.now();
  const response = await run(tool, body, admin, signal);
  expect(response.status, response.status === 200 ? '' : await response.clone().text()).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  return readToolStream(response, started, onEvent);
}

beforeAll(async () => {
  app = await startTestApp();
  const user = await app.createUser({ username: 'admin', role: 'ADMIN' });
  admin = await app.signIn(user.username, user.password);
  const file = await makeTestMedia(path.join(path.dirname(app.services.paths.logsDir), 'tools-source.ts'), { seconds: 8, width: 160, height: 90 });
  media = await serveFile(file);
}, 120_000);

afterAll(async () => {
  await media?.close();
  await app?.close();
});

describe('POST /api/tools/ping', () => {
  it('streams each reply of a ping of 127.0.0.1 as it comes, then the statistics', async () => {
    const events = await stream('ping', { address: '127.0.0.1', count: 3 });
    expect(events[0].event).toMatchObject({ type: 'start', tool: 'ping', target: '127.0.0.1' });
    const replies = events.filter((e) => e.event.type === 'line' && e.event.kind === 'reply');
    expect(replies.map((e) => e.event.type === 'line' && e.event.reply?.seq)).toEqual([1, 2, 3]);
    const end = events.at(-1) as Arrived;
    expect(end.event).toMatchObject({ type: 'end', reason: 'completed', exitCode: 0 });
    // ping sends one request a second: the first reply reached the client about 2 s before the end.
    expect(end.atMs - replies[0].atMs).toBeGreaterThan(1500);
    expect(ofType(events, 'summary')[0].summary).toMatchObject({ transmitted: 3, received: 3, lossPercent: 0 });
  });

  it('refuses a count outside 1 to 1000, naming body.count', async () => {
    const response = await run('ping', { address: '127.0.0.1', count: 0 });
    expect(response.status).toBe(400);
    expect(((await response.json()) as Schemas['Error']).details).toEqual([expect.objectContaining({ path: 'body.count', message: 'Count must be at least 1' })]);
    const over = await run('ping', { address: '127.0.0.1', count: 1001 });
    expect(((await over.json()) as Schemas['Error']).details?.[0]).toMatchObject({ path: 'body.count', message: 'Count must be at most 1000' });
  });

  it('reports ping\'s own error (an unknown host) as the payload error', async () => {
    const events = await stream('ping', { address: 'no-such-host.invalid', count: 1 });
    expect(ofType(events, 'error')[0].error).toMatch(/no-such-host\.invalid: .*(not known|failure|resolution)/i);
    expect(events.at(-1)?.event).toMatchObject({ type: 'end', reason: 'failed' });
  });

  it('ends ping when the client aborts, with nothing left running', async () => {
    const abort = new AbortController();
    let pid = 0;
    const events = await stream(
      'ping',
      { address: '127.42.13.7', count: 1000 },
      (event) => {
        if (event.type === 'line' && event.kind === 'reply') {
          [pid] = processesWithArgument('ping', '127.42.13.7');
          abort.abort();
        }
      },
      abort.signal,
    );
    expect(ofType(events, 'line').length).toBeGreaterThan(0);
    expect(pid).toBeGreaterThan(0);
    await waitUntilGone(pid, 'ping ended after the abort');
    expect(processesWithArgument('ping', '127.42.13.7')).toEqual([]);
  });
});

describe('POST /api/tools/mtr', () => {
  it('streams the hop table of the route to 127.0.0.1 as it fills', async () => {
    const events = await stream('mtr', { host: '127.0.0.1', count: 2, noDns: true });
    const tables = ofType(events, 'hops');
    expect(tables.length).toBeGreaterThan(1);
    const last = tables.at(-1)?.hops as Schemas['MtrHop'][];
    expect(last).toHaveLength(1);
    expect(last[0]).toMatchObject({ hop: 1, host: '127.0.0.1', address: '127.0.0.1', sent: 2, received: 2, lossPercent: 0 });
    expect(events.at(-1)?.event).toMatchObject({ type: 'end', reason: 'completed' });
  });

  it('ends mtr and its mtr-packet helper when the client aborts', async () => {
    const abort = new AbortController();
    let pid = 0;
    await stream(
      'mtr',
      { host: '127.43.0.9', count: 500, noDns: true },
      (event) => {
        if (event.type === 'hops' && !pid) {
          [pid] = processesWithArgument('mtr', '127.43.0.9');
          abort.abort();
        }
      },
      abort.signal,
    );
    expect(pid).toBeGreaterThan(0);
    await waitUntilGone(pid, 'mtr and mtr-packet ended after the abort');
  });
});

describe('POST /api/tools/keyframe', () => {
  it('streams each keyframe interval of a source, then the interval', async () => {
    const events = await stream('keyframe', { uri: media.url, intervalCount: 3 });
    const samples = ofType(events, 'keyframe').map((e) => e.sample);
    expect(samples.map((s) => s.index)).toEqual([1, 2, 3]);
    for (const sample of samples) expect(sample).toMatchObject({ intervalSeconds: 1, gopFrames: 25 });
    expect(ofType(events, 'interval')[0].result).toEqual({ interval: 1, minSeconds: 1, maxSeconds: 1, gopFrames: 25, count: 3 });
    expect(events.at(-1)?.event).toMatchObject({ type: 'end', reason: 'completed' });
  });

  it('reports why a source cannot be read (shown as "got error {error}")', async () => {
    const port = await freePort();
    const events = await stream('keyframe', { uri: `http://127.0.0.1:${port}/none.ts`, intervalCount: 2 });
    expect(ofType(events, 'error')[0].error).toMatch(/Connection refused/);
    expect(events.at(-1)?.event).toMatchObject({ type: 'end', reason: 'failed' });
  });

  it('needs a URI, and a token when tokenRequired is on', async () => {
    const response = await run('keyframe', { tokenRequired: true });
    const details = ((await response.json()) as Schemas['Error']).details?.map((d) => [d.path, d.message]);
    expect(details).toEqual(expect.arrayContaining([['body.uri', 'URI is required']]));
    const token = await run('keyframe', { uri: media.url, tokenRequired: true });
    expect(((await token.json()) as Schemas['Error']).details).toEqual([expect.objectContaining({ path: 'body.token', message: 'Token is required when tokenRequired is on' })]);
  });
});

describe('POST /api/tools/mediachecker', () => {
  it('shows the streams of a source', async () => {
    const events = await stream('mediachecker', { uri: media.url });
    const info = ofType(events, 'result')[0].mediaInfo;
    expect(info.streams.map((s) => [s.type, s.codec])).toEqual([
      ['video', 'h264'],
      ['audio', 'aac'],
    ]);
    expect(info.streams[0]).toMatchObject({ width: 160, height: 90, frameRate: 25 });
  });

  it('lists each key and value of an error', async () => {
    const port = await freePort();
    const uri = `http://127.0.0.1:${port}/none.ts`;
    const events = await stream('mediachecker', { uri });
    const error = ofType(events, 'error')[0];
    expect(error.details).toMatchObject({ message: 'Media info detection failed. Please make sure the source is available.', uri, exitCode: '1' });
    expect(error.details?.detail).toMatch(/Connection refused/);
  });
});

describe('who may run the tools, and where', () => {
  it('needs TOOLS_VIEW (or TOOLS_EDIT)', async () => {
    const relayOnly = await app.createUser({ username: 'relay-only', permissions: { relay: { level: 'RELAY_EDIT', hide: false } } });
    const viewer = await app.createUser({ username: 'tools-viewer', permissions: { tools: { level: 'TOOLS_VIEW', hide: false } } });
    const denied = await run('ping', { address: '127.0.0.1', count: 1 }, await app.signIn(relayOnly.username, relayOnly.password));
    expect(denied.status).toBe(403);
    expect(((await denied.json()) as Schemas['Error']).message).toBe('You need TOOLS_VIEW or TOOLS_EDIT to do this.');
    const allowed = await run('ping', { address: '127.0.0.1', count: 1 }, await app.signIn(viewer.username, viewer.password));
    expect(allowed.status).toBe(200);
    await allowed.text();
  });

  it('runs on the API\'s own node; refuses a node that does not answer with 503, an offline one with 409, an unknown one with 404', async () => {
    const local = await app.services.nodes.upsert({ nodeId: 'tools-local', name: 'here', ip: '127.0.0.1', version: 'test' });
    const other = await app.services.nodes.upsert({ nodeId: 'tools-other', name: 'elsewhere', ip: '10.0.0.2', version: 'test' });
    app.services.tools.setLocalNode({ id: local.id, name: local.name });
    const here = await stream('ping', { address: '127.0.0.1', count: 1, node: local.id });
    expect(here[0].event).toMatchObject({ type: 'start', nodeId: local.id, nodeName: 'here' });
    // A heartbeat but no node process behind it: nobody takes the run (the agent test has one that does).
    const silent = await run('ping', { address: '127.0.0.1', count: 1, node: other.id });
    expect(silent.status).toBe(503);
    const unanswered = (await silent.json()) as Schemas['Error'];
    expect(unanswered.code).toBe('NODE_UNREACHABLE');
    expect(unanswered.message).toContain(`Node elsewhere (${other.id}) did not answer within 5 s`);
    await app.db.updateTable('nodes').set({ heartbeat_at: new Date(Date.now() - 600_000) }).where('id', '=', other.id).execute();
    const offline = await run('ping', { address: '127.0.0.1', count: 1, node: other.id });
    expect(offline.status).toBe(409);
    expect(((await offline.json()) as Schemas['Error']).code).toBe('NODE_OFFLINE');
    const unknown = await run('ping', { address: '127.0.0.1', count: 1, node: 999_999 });
    expect(unknown.status).toBe(404);
  });

  it('refuses a ninth run at once by the same user with 429', async () => {
    const aborts = Array.from({ length: 8 }, () => new AbortController());
    const responses = await Promise.all(aborts.map((a, i) => run('ping', { address: `127.44.0.${i + 1}`, count: 1000 }, admin, a.signal)));
    expect(responses.map((r) => r.status)).toEqual(Array(8).fill(200));
    const ninth = await run('ping', { address: '127.44.0.9', count: 1 });
    expect(ninth.status).toBe(429);
    expect(((await ninth.json()) as Schemas['Error']).code).toBe('TOO_MANY_RUNS');
    for (const abort of aborts) abort.abort();
    await Promise.all(responses.map((r) => r.text().catch(() => '')));
    for (let i = 1; i <= 8; i += 1) {
      const address = `127.44.0.${i}`;
      await expect.poll(() => processesWithArgument('ping', address), { timeout: 10_000 }).toEqual([]);
    }
    // The runs were released: a new one is admitted.
    await expect.poll(async () => (await (await run('ping', { address: '127.0.0.1', count: 1 })).text()).includes('"reason":"completed"'), { timeout: 10_000 }).toBe(true);
  });
});
