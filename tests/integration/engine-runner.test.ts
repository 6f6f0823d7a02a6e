import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { JobRunner, type JobRunnerDeps } from '../../engine/job-runner.ts';
import type { EngineEvent, JobSpec } from '../../engine/types.ts';
import { EventRecorder } from '../fixtures/fake-programs/harness.ts';

/**
 * The job runner with the real ffmpeg 5.1: small lavfi sources at their native rate, encoded with
 * x264 ultrafast at 160x90, so a few of them share two cores with the rest of the suite.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'mediaplane-runner-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const runners: JobRunner[] = [];
afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.dispose()));
});

const lavfi = (source = 'testsrc') => ({ type: 'args' as const, source: 'dev' as const, args: ['-re', '-f', 'lavfi', '-i', `${source}=size=160x90:rate=25`] });

function lavfiJob(id: string, overrides: Partial<JobSpec> = {}): JobSpec {
  return {
    id,
    name: id,
    videoType: 'LIVE',
    input: lavfi(),
    outputs: [{ index: 0, type: 'mpegts' }],
    encoding: {
      video: { codec: 'libx264', bitrateKbps: 200, params: { preset: 'ultrafast' } },
      audio: { disabled: true, tracks: [] },
    },
    noSound: true,
    restartAttempts: 10,
    staleTimeoutSeconds: 10,
    logLevel: 'INFO',
    logMaxSizeInMegaBytes: 1,
    ...overrides,
  };
}

function run(spec: JobSpec, deps: Partial<JobRunnerDeps> = {}) {
  const events = new EventRecorder<EngineEvent>();
  const logFile = path.join(dir, `${spec.id}.log`);
  const runner = new JobRunner(spec, { ffmpegPath: '/usr/bin/ffmpeg', logFile, nodeName: 'node-a', onEvent: events.push, ...deps });
  runners.push(runner);
  return { runner, events, logFile };
}

const isState = (state: string) => (e: EngineEvent) => e.type === 'state' && e.state === state;

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

describe('JobRunner with ffmpeg', () => {
  it('is running again within 2 s after each of 20 kill -9, 20 of 20', { timeout: 120_000 }, async () => {
    // A process that ran healthy for a while starts its restart count again (10 s by default,
    // 300 ms here so that 20 kills take seconds): each kill gets the first, 250 ms, retry.
    const { runner, events } = run(lavfiJob('kill-loop'), { healthyAfterMs: 300 });
    runner.start();
    await events.waitFor(isState('running'), { timeoutMs: 15_000, what: 'running' });
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const pid = runner.status().pid!;
      // Let it run healthy: wait for a progress block at least 300 ms after it entered running.
      const runningAt = performance.now();
      await events.waitFor((e) => e.type === 'progress' && performance.now() - runningAt >= 300, { since: events.mark, timeoutMs: 5_000, what: 'a healthy run' });
      const mark = events.mark;
      const t0 = performance.now();
      process.kill(pid, 'SIGKILL');
      await events.waitFor(isState('running'), { since: mark, timeoutMs: 10_000, what: `running again after kill ${i + 1}` });
      times.push(Math.round(performance.now() - t0));
      const exit = events.events.slice(mark).find((r) => r.event.type === 'exit')!.event;
      expect(exit).toMatchObject({ type: 'exit', reason: 'killed', signal: 'SIGKILL', willRestart: true });
      expect(runner.status().pid).not.toBe(pid);
    }
    console.log(`kill -9 → running again (ms): ${times.join(', ')}; max ${Math.max(...times)}`);
    expect(times.filter((t) => t < 2_000)).toHaveLength(20);
    expect(runner.status()).toMatchObject({ state: 'running', desired: 'running', restarts: 20 });
  });

  it('keeps no log file when the log target is NONE', async () => {
    const { runner, events, logFile } = run(lavfiJob('no-log', { logTarget: 'NONE', logLevel: 'DEBUG' }));
    runner.start();
    await events.waitFor(isState('running'), { timeoutMs: 15_000 });
    await runner.stop();
    expect(existsSync(logFile)).toBe(false);
  });

  it('reports state, CPU, RSS, bitrates (null where not measured), uptime and node while running', async () => {
    const { runner, events } = run(lavfiJob('stats'), { statsIntervalMs: 500 });
    runner.start();
    await events.waitFor(isState('running'), { timeoutMs: 15_000 });
    const stats = await events.waitFor((e) => e.type === 'stats' && e.rssBytes > 0, { timeoutMs: 5_000, what: 'stats' });
    expect(stats).toMatchObject({ type: 'stats', jobId: 'stats' });
    // Output bitrate needs two progress blocks (a live job's come every 2 s).
    const later = await events.waitFor((e) => e.type === 'stats' && e.outputBps !== null, { since: events.mark, timeoutMs: 8_000, what: 'stats with the output bitrate' });
    expect(later).toMatchObject({ type: 'stats', inputBps: null, outputBps: expect.any(Number) });
    const status = runner.status();
    console.log('status', JSON.stringify(status));
    // A lavfi source (a `dev` input given as ffmpeg arguments) has no bytes to count: not measured.
    expect(status).toMatchObject({ state: 'running', desired: 'running', restarts: 0, activeInput: 'primary', node: 'node-a', inputBps: null, inputs: [{ index: 0, bps: null }] });
    expect(status.pid).toBeGreaterThan(1);
    expect(status.rssBytes).toBeGreaterThan(5 * 1024 * 1024);
    expect(status.cpuPercent).toBeGreaterThanOrEqual(0);
    // The HTTP MPEG-TS output, counted at the fan-out (and by ffmpeg: it is the only output, written without tee).
    expect(status.outputBps).toBeGreaterThan(10_000);
    expect(status.outputs).toEqual([{ index: 0, bps: status.outputBps }]);
    expect(status.uptimeSeconds).toBeGreaterThan(1);
    expect(status.secondsSinceLastStart).toBeGreaterThan(1);
    await runner.stop();
    expect(runner.status()).toMatchObject({ state: 'stopped', desired: 'stopped', pid: null, cpuPercent: 0, rssBytes: 0, uptimeSeconds: null, inputBps: null, outputBps: null, outputs: [] });
  });

  it('fans the MPEG-TS out to a client that stays connected across a restart', async () => {
    const { runner, events } = run(lavfiJob('fanout'));
    runner.start();
    const fanout = runner.mpegts();
    expect(fanout).toBeDefined();
    const client = new PassThrough();
    const chunks: Buffer[] = [];
    client.on('data', (c: Buffer) => chunks.push(c));
    fanout!.subscribe(client);
    await events.waitFor(isState('running'), { timeoutMs: 15_000 });
    await events.waitFor(() => chunks.length > 0, { since: events.mark, timeoutMs: 5_000, what: 'TS bytes' });
    const first = Buffer.concat(chunks);
    expect(first[0]).toBe(0x47);
    expect(first.length % 188).toBe(0);
    const mark = events.mark;
    await runner.restart('hard');
    await events.waitFor(isState('running'), { since: mark, timeoutMs: 10_000 });
    const before = Buffer.concat(chunks).length;
    await events.waitFor(() => Buffer.concat(chunks).length > before + 188 * 10, { since: events.mark, timeoutMs: 5_000, what: 'TS bytes after the restart' });
  });

  it('writes its own lines and ffmpeg’s to the job log', async () => {
    const { runner, events, logFile } = run(lavfiJob('log-lines'));
    runner.start();
    await events.waitFor(isState('running'), { timeoutMs: 15_000 });
    await runner.stop();
    const log = readFileSync(logFile, 'utf8');
    expect(log).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z NOTICE  supervisor started pid \d+: \/usr\/bin\/ffmpeg -hide_banner .* -f lavfi -i testsrc=size=160x90:rate=25 /m);
    expect(log).toMatch(/ INFO    ffmpeg Stream mapping:$/m);
    expect(log).toMatch(/ NOTICE  supervisor stop requested: SIGINT to process group \d+, SIGKILL in 5000 ms$/m);
    expect(log).toMatch(/ NOTICE  supervisor process \d+ exited \(code 255\): stopped: stopped by the supervisor \(code 255\)$/m);
    // what the events carried is what the file has
    const logEvents = events.events.filter((r) => r.event.type === 'log');
    expect(logEvents.length).toBe(log.trim().split('\n').length);
  });

  it('applies a changed spec on reload with a soft restart', async () => {
    const { runner, events, logFile } = run(lavfiJob('reload'));
    runner.start();
    await events.waitFor(isState('running'), { timeoutMs: 15_000 });
    const pid = runner.status().pid;
    const mark = events.mark;
    await runner.reload(lavfiJob('reload', { input: lavfi('testsrc2') }));
    await events.waitFor(isState('running'), { since: mark, timeoutMs: 10_000 });
    expect(runner.status().pid).not.toBe(pid);
    expect(events.events.slice(mark).find((r) => r.event.type === 'exit')?.event).toMatchObject({ reason: 'stopped', code: 255 });
    await runner.stop();
    const log = readFileSync(logFile, 'utf8');
    expect(log).toMatch(/NOTICE  supervisor configuration changed: reload \(soft restart\)/);
    expect(log).toMatch(/started pid \d+: .* -i testsrc2=size=160x90:rate=25 /);
  });
});

describe('JobRunner exits of real failures', () => {
  it('names a closed port connection_refused and fails when the restart attempts run out', async () => {
    const port = await closedPort();
    const { runner, events, logFile } = run(lavfiJob('closed-port', { input: { type: 'uri', uri: `tcp://127.0.0.1:${port}` }, encoding: undefined, restartAttempts: 2 }));
    runner.start();
    const failed = await events.waitFor(isState('failed'), { timeoutMs: 15_000, what: 'failed' });
    expect(failed).toMatchObject({ reason: 'connection_refused', desired: 'running' });
    expect((failed as Extract<EngineEvent, { type: 'state' }>).detail).toMatch(/Connection refused$/);
    const exits = events.events.filter((r) => r.event.type === 'exit').map((r) => r.event as Extract<EngineEvent, { type: 'exit' }>);
    expect(exits.map((e) => [e.reason, e.willRestart])).toEqual([
      ['connection_refused', true],
      ['connection_refused', true],
      ['connection_refused', false],
    ]);
    expect(runner.status()).toMatchObject({ state: 'failed', pid: null, restarts: 2 });
    await runner.stop();
    const log = readFileSync(logFile, 'utf8');
    expect(log).toMatch(/WARNING supervisor restart attempt 1 of 2 in 250 ms/);
    expect(log).toMatch(/WARNING supervisor restart attempt 2 of 2 in 500 ms/);
    expect(log).toMatch(/ERROR   supervisor restart attempts \(2\) used up: failed: connection_refused/);
    expect(log).toMatch(/ERROR   ffmpeg tcp:\/\/127\.0\.0\.1:\d+.*: Connection refused/);
  });

  it('names a missing file not_found', async () => {
    const { runner, events } = run(lavfiJob('missing-file', { videoType: 'VOD', input: { type: 'uri', uri: '/nonexistent/mediaplane/input.ts' }, encoding: undefined, restartAttempts: 0 }));
    runner.start();
    const failed = await events.waitFor(isState('failed'), { timeoutMs: 10_000 });
    expect(failed).toMatchObject({ reason: 'not_found', detail: 'file:/nonexistent/mediaplane/input.ts: No such file or directory' });
  });

  it('keeps only the lines at or above the job’s log level', async () => {
    const port = await closedPort();
    const { runner, events, logFile } = run(lavfiJob('level-error', { input: { type: 'uri', uri: `tcp://127.0.0.1:${port}` }, encoding: undefined, restartAttempts: 0, logLevel: 'ERROR' }));
    runner.start();
    await events.waitFor(isState('failed'), { timeoutMs: 10_000 });
    await runner.stop();
    const levels = new Set(readFileSync(logFile, 'utf8').trim().split('\n').map((l) => l.split(' ')[1]));
    expect([...levels]).toEqual(['ERROR']);
  });
});
