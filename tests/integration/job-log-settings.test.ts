import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../api/db/embedded.ts';
import { startLocalNode, type LocalNode } from '../../api/node/index.ts';
import { LOG_LEVELS, type LogLevel } from '../../engine/types.ts';
import { makeTestMedia } from '../fixtures/media/lavfi.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { waitFor } from '../support/jobs.ts';
import { client, type Job } from './jobs-api-support.ts';

/**
 * A relay's own log settings (spec 01 §2.4 Advanced Setting: Log level, Log max size in Mb),
 * stored through the API, reach the job its node runs: the job's log file keeps the lines of the
 * stored level and up, and is rotated before it passes the stored size.
 */
let app: TestApp;
let node: LocalNode;
let adminCookie: string;
let nodeId: number;
let live: string;
let vod: string;

const MiB = 1024 * 1024;
const logFile = (job: Job) => path.join(app.services.paths.logsDir, `relay-${job.id}.log`);
const stateOf = async (job: Job) => (await app.db.selectFrom('job_status').select(['state', 'reason']).where('job_id', '=', job.id).executeTakeFirst()) ?? null;
/** The level of each line of a log file (`<time> <LEVEL> <source> <text>`). */
const levelsIn = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split(/\s+/)[1] as LogLevel);

async function relayWith(name: string, source: string, settings: Record<string, unknown>) {
  const relays = client(app, adminCookie, 'relay');
  const port = await freePort();
  const job = await relays.create({ name, node: nodeId, input: { type: 'uri', uri: source }, outputs: [{ type: 'udp', uri: `udp://127.0.0.1:${port}` }], ...settings });
  const started = await relays.call('POST', `/${job.id}/start`);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  return job;
}

async function stop(job: Job) {
  const stopped = await client(app, adminCookie, 'relay').call('POST', `/${job.id}/stop`);
  expect(stopped.status, JSON.stringify(stopped.body)).toBe(200);
  await waitFor(async () => (await stateOf(job))?.state === 'stopped', `${job.name} stopped`);
}

beforeAll(async () => {
  app = await startTestApp();
  const admin = await app.createUser({ username: 'admin', role: 'ADMIN' });
  adminCookie = await app.signIn(admin.username, admin.password);
  const media = path.dirname(app.services.paths.logsDir);
  live = await makeTestMedia(path.join(media, 'live.ts'), { seconds: 30, width: 160, height: 90 });
  // Read as fast as ffmpeg can (VOD): its packet-by-packet TRACE lines pass 1 MiB within seconds.
  vod = await makeTestMedia(path.join(media, 'vod.ts'), { seconds: 240, width: 160, height: 90 });
  ({ id: nodeId } = await app.db.selectFrom('nodes').select('id').where('node_id', '=', 'test-node').executeTakeFirstOrThrow());
  node = await startLocalNode({ db: app.db, databaseUrl: app.databaseUrl, bus: app.services.events, nodeId, nodeName: 'local', paths: app.services.paths, sweepIntervalMs: 1000, log: () => {} });
}, 120_000);

afterAll(async () => {
  await node?.stop();
  await app?.close();
});

describe('a relay\'s own log settings on its running job', () => {
  it('writes the lines of a stored DEBUG level (below the default NOTICE), ffmpeg\'s own debug lines among them', async () => {
    const job = await relayWith('log debug', live, { logLevel: 'DEBUG' });
    expect(job).toMatchObject({ logLevel: 'DEBUG', logMaxSizeInMegaBytes: 10 });
    await waitFor(async () => (await stateOf(job))?.state === 'running', 'the relay running');
    await stop(job);
    const levels = levelsIn(logFile(job));
    expect(levels).toContain('DEBUG');
    expect(levels).toContain('NOTICE');
    expect(levels.every((level) => LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf('DEBUG'))).toBe(true);
    const read = await app.request(`/api/relays/${job.id}/logs?lines=1000&level=DEBUG`, { cookie: adminCookie });
    const body = (await read.json()) as { entries: Array<{ level: string; text: string }> };
    expect(body.entries.some((e) => e.level === 'DEBUG' && e.text.includes('Reading option'))).toBe(true);
  });

  it('keeps nothing below a stored ERROR level: not even the NOTICE lines of the start and the stop', async () => {
    const job = await relayWith('log error', live, { logLevel: 'ERROR' });
    await waitFor(async () => (await stateOf(job))?.state === 'running', 'the relay running');
    await stop(job);
    const file = logFile(job);
    const levels = existsSync(file) ? levelsIn(file) : [];
    expect(levels.filter((level) => LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf('ERROR'))).toEqual([]);
    const read = await app.request(`/api/relays/${job.id}/logs?lines=1000`, { cookie: adminCookie });
    expect(((await read.json()) as { entries: unknown[] }).entries).toEqual([]);
  });

  it('applies a level changed on a running relay with Update & Restart: the reloaded process writes DEBUG', async () => {
    const relays = client(app, adminCookie, 'relay');
    const job = await relayWith('log reload', live, {});
    expect(job.logLevel).toBe('NOTICE');
    await waitFor(async () => (await stateOf(job))?.state === 'running', 'the relay running');
    const { id: _id, kind: _kind, status: _status, comments: _comments, ...body } = await relays.get(job.id);
    const updated = await relays.call<Job>('PUT', `/${job.id}?restart=true`, { ...body, logLevel: 'DEBUG' });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    await waitFor(async () => levelsIn(logFile(job)).includes('DEBUG'), 'DEBUG lines of the reloaded process');
    const levels = levelsIn(logFile(job));
    // The first process kept NOTICE and up; the lines after the reload include DEBUG.
    const reloadAt = readFileSync(logFile(job), 'utf8').split('\n').findIndex((line) => line.includes('configuration changed: reload'));
    expect(reloadAt).toBeGreaterThan(0);
    expect(levels.slice(0, reloadAt).filter((level) => LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf('NOTICE'))).toEqual([]);
    await stop(job);
  });

  it('rotates the log before it passes a stored max size of 1 MB', async () => {
    const job = await relayWith('log rotate', vod, { videoType: 'VOD', logLevel: 'TRACE', logMaxSizeInMegaBytes: 1 });
    expect(job).toMatchObject({ logLevel: 'TRACE', logMaxSizeInMegaBytes: 1 });
    await waitFor(async () => (await stateOf(job))?.reason === 'finished', 'the VOD relay finished', 60_000);
    const file = logFile(job);
    expect(existsSync(`${file}.1`)).toBe(true);
    for (const part of [file, `${file}.1`, `${file}.2`, `${file}.3`].filter((f) => existsSync(f))) {
      expect(statSync(part).size, part).toBeLessThanOrEqual(1 * MiB);
    }
    expect(statSync(`${file}.1`).size).toBeGreaterThan(0.9 * MiB);
    expect(levelsIn(`${file}.1`)).toContain('TRACE');
  }, 90_000);
});
