import { mkdtempSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { JobRunner, type JobRunnerDeps } from '../../engine/job-runner.ts';
import { processStartTicks } from '../../engine/process-registry.ts';
import { freeLoopbackUdpPort } from '../../engine/srt/srt-bridge.ts';
import type { EngineEvent, JobSpec, OutputSpec, SrtStats } from '../../engine/types.ts';
import { EventRecorder } from '../fixtures/fake-programs/harness.ts';
import { ffprobe, videoOf, waitForPort } from './engine-outputs-support.ts';

/**
 * SRT statistics of a job's SRT inputs and outputs: the job runner with the real ffmpeg 5.1 and
 * the real srt-live-transmit (Debian's srt-tools), and real SRT peers (ffmpeg, ffprobe) on
 * loopback. Sources are small lavfi pictures (160x90, x264 ultrafast, a keyframe every second), so
 * these runs share two cores with the rest of the suite.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'mediaplane-srt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const runners: JobRunner[] = [];
const peers: Array<{ kill: (signal?: NodeJS.Signals) => boolean }> = [];
afterEach(async () => {
  for (const peer of peers.splice(0)) peer.kill('SIGKILL');
  await Promise.all(runners.splice(0).map((r) => r.dispose()));
});

const lavfi = { type: 'args' as const, source: 'dev' as const, args: ['-re', '-f', 'lavfi', '-i', 'testsrc2=size=160x90:rate=25'] };

function srtJob(id: string, overrides: Partial<JobSpec>): JobSpec {
  return {
    id,
    name: id,
    videoType: 'LIVE',
    input: lavfi,
    outputs: [],
    encoding: {
      video: { codec: 'libx264', bitrateKbps: 300, keyInt: 25, params: { preset: 'ultrafast' } },
      audio: { disabled: true, tracks: [] },
    },
    noSound: true,
    restartAttempts: 10,
    staleTimeoutSeconds: 20,
    logLevel: 'INFO',
    logMaxSizeInMegaBytes: 1,
    ...overrides,
  };
}

function run(spec: JobSpec, deps: Partial<JobRunnerDeps> = {}) {
  const events = new EventRecorder<EngineEvent>();
  const runner = new JobRunner(spec, { ffmpegPath: '/usr/bin/ffmpeg', logFile: path.join(dir, `${spec.id}.log`), nodeName: 'node-a', onEvent: events.push, ...deps });
  runners.push(runner);
  return { runner, events };
}

type SrtEvent = Extract<EngineEvent, { type: 'srt' }>;
const srtEvent = (direction: 'input' | 'output', index: number, check: (stats: SrtStats) => boolean) => (e: EngineEvent) =>
  e.type === 'srt' && e.direction === direction && e.index === index && check(e.stats);
const logLine = (pattern: RegExp) => (e: EngineEvent) => e.type === 'log' && pattern.test(e.line.text);

/** srt-live-transmit processes on this machine whose command line names the port, from /proc. */
async function companionsOn(port: number): Promise<number[]> {
  const pids: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const cmdline = await readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '');
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    const argv = cmdline.split('\0');
    if (/\/?srt-live-transmit$/.test(argv[0] ?? '') && argv.some((arg) => arg.includes(`:${port}?`)) && !/\) Z /.test(stat)) pids.push(Number(name));
  }
  return pids;
}

/** An SRT caller that reads `seconds` of the stream with ffmpeg; resolves with its stderr (the stream's description). */
function srtReader(port: number, seconds: number, extra: string[] = []) {
  const child = execa('ffmpeg', ['-hide_banner', '-nostdin', '-loglevel', 'info', ...extra, '-i', `srt://127.0.0.1:${port}?mode=caller`, '-t', String(seconds), '-f', 'null', '-'], {
    reject: false,
    timeout: 30_000,
  });
  peers.push(child);
  return child;
}

describe('SRT statistics through srt-live-transmit', () => {
  it('an SRT listener output: a caller receives the stream, the job reports packets, RTT and one connection, and stopping leaves no srt-live-transmit', { timeout: 60_000 }, async () => {
    const port = await freeLoopbackUdpPort();
    const output: OutputSpec = { index: 0, type: 'srt', mode: 'listener', host: '127.0.0.1', port, latencyMs: 120 };
    const { runner, events } = run(srtJob('srt-out', { outputs: [output] }));
    runner.start();
    await events.waitFor((e) => e.type === 'state' && e.state === 'running', { timeoutMs: 20_000, what: 'running' });
    await waitForPort(port, 'udp');
    expect(await companionsOn(port)).toHaveLength(1);

    const reader = srtReader(port, 4);
    const connected = (await events.waitFor(srtEvent('output', 0, (s) => s.connections === 1 && s.packets > 0), { timeoutMs: 20_000, what: 'SRT stats of output 1' })) as SrtEvent;
    expect(connected.stats).toMatchObject({ connections: 1, negotiatedLatencyMs: 120, packetsDropped: 0 });
    expect(connected.stats.bytes).toBeGreaterThan(connected.stats.packets * 188);
    expect(connected.stats.rttMs).toBeGreaterThan(0);
    expect(connected.stats.rateMbps).toBeGreaterThan(0);
    expect(runner.status().srt).toEqual([expect.objectContaining({ direction: 'output', index: 0, stats: expect.objectContaining({ connections: 1 }) })]);

    const result = await reader;
    expect(result.stderr).toMatch(/Stream #0:0.*Video: h264.*160x90/);
    // The reader left: the link reports nobody connected, and its last figures stay.
    await events.waitFor(srtEvent('output', 0, (s) => s.connections === 0), { timeoutMs: 15_000, what: 'the disconnection' });
    const after = runner.status().srt[0].stats!;
    expect(after).toMatchObject({ connections: 0, rateMbps: 0 });
    expect(after.packets).toBeGreaterThanOrEqual(connected.stats.packets);
    await events.waitFor(logLine(/srt-live-transmit \(output 1\): SRT target disconnected/), { timeoutMs: 5_000, what: 'the log line' });

    await runner.stop();
    expect(await companionsOn(port)).toEqual([]);
    expect(runner.status().srt).toEqual([]);
  });

  it('an SRT listener output with a passphrase turns a caller with another passphrase away and lets the right one in', { timeout: 60_000 }, async () => {
    const port = await freeLoopbackUdpPort();
    const passphrase = 'correct horse battery';
    const { runner, events } = run(srtJob('srt-pass', { outputs: [{ index: 0, type: 'srt', mode: 'listener', host: '127.0.0.1', port, passphrase, pbkeylen: 16 }] }));
    runner.start();
    await events.waitFor((e) => e.type === 'state' && e.state === 'running', { timeoutMs: 20_000, what: 'running' });
    await waitForPort(port, 'udp');

    await expect(ffprobe(`srt://127.0.0.1:${port}?mode=caller`, { args: ['-passphrase', 'not the passphrase', '-pbkeylen', '16'] })).rejects.toThrow();
    // The job's log says why, in SRT's words.
    await events.waitFor(logLine(/Incorrect passphrase/), { timeoutMs: 5_000, what: 'the rejection in the log' });
    expect(runner.status().srt[0].stats).toBeNull();

    const probe = await ffprobe(`srt://127.0.0.1:${port}?mode=caller`, { args: ['-passphrase', passphrase, '-pbkeylen', '16'] });
    expect(videoOf(probe)).toMatchObject({ codec_name: 'h264', width: 160, height: 90 });
    await events.waitFor(srtEvent('output', 0, (s) => s.packets > 0), { timeoutMs: 10_000, what: 'stats of the accepted caller' });
  });

  it('an SRT listener input fed by an ffmpeg caller: the job runs from it and reports the input statistics', { timeout: 60_000 }, async () => {
    const srtPort = await freeLoopbackUdpPort();
    const udpOut = await freeLoopbackUdpPort();
    const { runner, events } = run(
      srtJob('srt-in', {
        input: { type: 'uri', uri: `srt://127.0.0.1:${srtPort}?mode=listener&latency=200000` },
        encoding: undefined,
        outputs: [{ index: 0, type: 'udp', host: '127.0.0.1', port: udpOut }],
      }),
    );
    runner.start();
    await waitForPort(srtPort, 'udp');
    const sender = execa(
      'ffmpeg',
      ['-hide_banner', '-nostdin', '-loglevel', 'error', ...lavfi.args, '-t', '12', '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '25', '-b:v', '300k', '-f', 'mpegts', `srt://127.0.0.1:${srtPort}?mode=caller&latency=200000`],
      { reject: false, timeout: 30_000 },
    );
    peers.push(sender);
    const reader = ffprobe(`udp://127.0.0.1:${udpOut}?timeout=15000000`);

    const stats = (await events.waitFor(srtEvent('input', 0, (s) => s.connections === 1 && s.packets > 0), { timeoutMs: 20_000, what: 'SRT stats of the input' })) as SrtEvent;
    expect(stats.stats).toMatchObject({ connections: 1, negotiatedLatencyMs: 200, packetsLost: 0 });
    expect(stats.stats.rttMs).toBeGreaterThan(0);
    // What arrived over SRT went through the job: its UDP output carries the H.264 stream.
    expect(videoOf(await reader)).toMatchObject({ codec_name: 'h264', width: 160 });
    await events.waitFor((e) => e.type === 'state' && e.state === 'running', { timeoutMs: 10_000, what: 'running' });
    expect(runner.status().srt).toEqual([expect.objectContaining({ direction: 'input', index: 0, stats: expect.objectContaining({ connections: 1 }) })]);

    await runner.stop();
    expect(await companionsOn(srtPort)).toEqual([]);
  });

  it('a companion that dies is started again on its own while ffmpeg keeps running', { timeout: 60_000 }, async () => {
    const port = await freeLoopbackUdpPort();
    const { runner, events } = run(srtJob('srt-restart', { outputs: [{ index: 0, type: 'srt', mode: 'listener', host: '127.0.0.1', port }] }), { backoff: () => 100 });
    runner.start();
    await events.waitFor((e) => e.type === 'state' && e.state === 'running', { timeoutMs: 20_000, what: 'running' });
    await waitForPort(port, 'udp');
    const ffmpegPid = runner.status().pid;
    const [first] = await companionsOn(port);
    const mark = events.mark;
    process.kill(first, 'SIGKILL');
    await events.waitFor(logLine(/srt-live-transmit \(output 1\): exited \(signal SIGKILL\); restarting it/), { since: mark, timeoutMs: 5_000, what: 'the restart notice' });
    await events.waitFor(logLine(/srt-live-transmit \(output 1\): started pid/), { since: mark, timeoutMs: 5_000, what: 'the new companion' });
    const again = await companionsOn(port);
    expect(again).toHaveLength(1);
    expect(again[0]).not.toBe(first);
    expect(runner.status()).toMatchObject({ pid: ffmpegPid, state: 'running' });
    // And the link works: a caller gets the stream.
    await waitForPort(port, 'udp');
    expect(videoOf(await ffprobe(`srt://127.0.0.1:${port}?mode=caller`))).toMatchObject({ codec_name: 'h264' });
  });

  it('without srt-live-transmit the job says so (WARNING) and ffmpeg carries SRT itself, without statistics', { timeout: 60_000 }, async () => {
    const port = await freeLoopbackUdpPort();
    const { runner, events } = run(srtJob('srt-native', { outputs: [{ index: 0, type: 'srt', mode: 'listener', host: '127.0.0.1', port }] }), {
      srtLiveTransmitPath: path.join(dir, 'no-such-srt-live-transmit'),
    });
    runner.start();
    const warning = await events.waitFor(logLine(/srt-live-transmit \(Debian package srt-tools\) is not installed: output 1 carried by ffmpeg's libsrt/), {
      timeoutMs: 10_000,
      what: 'the warning',
    });
    expect(warning.type === 'log' && warning.line).toMatchObject({ level: 'WARNING', source: 'supervisor' });
    await events.waitFor((e) => e.type === 'state' && e.state === 'running', { timeoutMs: 20_000, what: 'running' });
    await waitForPort(port, 'udp');
    expect(await companionsOn(port)).toEqual([]);
    expect(videoOf(await ffprobe(`srt://127.0.0.1:${port}?mode=caller`))).toMatchObject({ codec_name: 'h264' });
    expect(runner.status().srt).toEqual([]);
    expect(events.events.some(({ event }) => event.type === 'srt')).toBe(false);
  });

  it('after the control plane was killed outright, the next start of the job ends the srt-live-transmit it left and listens again', { timeout: 60_000 }, async () => {
    const port = await freeLoopbackUdpPort();
    const spec = srtJob('srt-crash', { input: { type: 'uri', uri: `srt://127.0.0.1:${port}?mode=listener` }, encoding: undefined, outputs: [{ index: 0, type: 'udp', host: '127.0.0.1', port: await freeLoopbackUdpPort() }] });
    const script = fileURLToPath(new URL('../fixtures/srt-stats/run-job.ts', import.meta.url));
    const plane = execa(process.execPath, ['--import', 'tsx', script, JSON.stringify(spec), path.join(dir, 'srt-crash-first.log')], { reject: false, timeout: 40_000, buffer: false });
    peers.push(plane);
    const seen = { ffmpeg: 0, companion: 0 };
    const started = new Promise<void>((resolve) => {
      plane.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        for (const [, what, pid] of chunk.matchAll(/(spawn|companion) (\d+)/g)) seen[what === 'spawn' ? 'ffmpeg' : 'companion'] = Number(pid);
        if (seen.ffmpeg && seen.companion) resolve();
      });
    });
    await started;
    await waitForPort(port, 'udp');
    // The control plane dies without a chance to clean up: its children live on, orphaned.
    process.kill(plane.pid!, 'SIGKILL');
    await plane;
    expect(processStartTicks(seen.companion)).toBeDefined();
    expect(await companionsOn(port)).toEqual([seen.companion]);
    // The node's process registry ends the orphaned ffmpeg at its next start; the companion is ours to find.
    process.kill(-seen.ffmpeg, 'SIGKILL');

    const { runner, events } = run(spec);
    runner.start();
    await events.waitFor(logLine(/ended 1 srt-live-transmit process\(es\) left by a previous run of this job/), { timeoutMs: 15_000, what: 'the leftover ended' });
    await events.waitFor(logLine(/srt-live-transmit \(input\): started pid/), { timeoutMs: 10_000, what: 'a new companion' });
    await waitForPort(port, 'udp');
    const now = await companionsOn(port);
    expect(now).toHaveLength(1);
    expect(now[0]).not.toBe(seen.companion);
    expect(processStartTicks(seen.companion)).toBeUndefined();
  });
});
