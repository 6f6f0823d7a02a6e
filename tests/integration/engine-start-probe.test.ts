import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { JobRunner } from '../../engine/job-runner.ts';
import { freeLoopbackUdpPort } from '../../engine/srt/srt-bridge.ts';
import type { EngineEvent, JobSpec, OutputSpec } from '../../engine/types.ts';
import { lavfiSourceArgs } from '../fixtures/media/lavfi.ts';
import { EventRecorder } from '../fixtures/fake-programs/harness.ts';

/**
 * Probing at start with the real ffmpeg 5.1: a live UDP source whose first keyframe comes 3 s after
 * it starts (then every 4 s), joined at once, so the first probe of copied video (1 s) cannot see
 * the picture's size. The relay must start anyway, with a longer probe, as part of its start: no
 * restart attempt used (the jobs have none), no restart counted.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'mediaplane-start-probe-'));
const encoded = path.join(dir, 'gop4s.ts');
/** The encode without its first second: its first keyframe is 3 s in (the sender drops the frames before it). */
const source = path.join(dir, 'gop4s-from-1s.ts');

beforeAll(async () => {
  await execa('ffmpeg', [
    '-hide_banner', '-nostdin', '-loglevel', 'error', '-y',
    ...lavfiSourceArgs({ seconds: 16, width: 160, height: 90 }),
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '100', '-keyint_min', '100', '-sc_threshold', '0', '-b:v', '200k',
    '-c:a', 'aac', '-b:a', '48k',
    '-f', 'mpegts', encoded,
  ], { timeout: 60_000 });
  await execa('ffmpeg', ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', '-i', encoded, '-ss', '1', '-map', '0', '-c', 'copy', '-copyinkf', '-f', 'mpegts', source], { timeout: 60_000 });
}, 90_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const children: ChildProcess[] = [];
const runners: JobRunner[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await Promise.all(runners.splice(0).map((r) => r.dispose()));
});

/** Sends the source at its native rate (its video from the keyframe 3 s in); resolves once its first packets are out. */
async function startSending(port: number): Promise<void> {
  const child = spawn('ffmpeg', ['-hide_banner', '-nostdin', '-nostats', '-loglevel', 'error', '-progress', 'pipe:1', '-re', '-i', source, '-map', '0', '-c', 'copy', '-f', 'mpegts', `udp://127.0.0.1:${port}?pkt_size=1316`], { stdio: ['ignore', 'pipe', 'ignore'] });
  children.push(child);
  await new Promise<void>((resolve) => child.stdout!.setEncoding('utf8').on('data', (chunk: string) => /out_time_us=[1-9]/.test(chunk) && resolve()));
}

function relay(id: string, inPort: number, outputs: OutputSpec[]): JobSpec {
  return { id, name: id, videoType: 'LIVE', input: { type: 'uri', uri: `udp://127.0.0.1:${inPort}` }, outputs, restartAttempts: 0, staleTimeoutSeconds: 15, logLevel: 'INFO', logMaxSizeInMegaBytes: 1 };
}

function run(spec: JobSpec) {
  const events = new EventRecorder<EngineEvent>();
  const logFile = path.join(dir, `${spec.id}.log`);
  const runner = new JobRunner(spec, { ffmpegPath: '/usr/bin/ffmpeg', logFile, nodeName: 'node-a', onEvent: events.push });
  runners.push(runner);
  return { runner, events, logFile };
}

const exits = (events: EventRecorder<EngineEvent>) => events.events.map((r) => r.event).filter((e): e is Extract<EngineEvent, { type: 'exit' }> => e.type === 'exit');

describe('probing a live input at start', () => {
  it('copied video for two outputs (tee): the 1 s probe misses the size, the start goes on at once with a longer probe, no attempt used', async () => {
    const [inPort, a, b] = [await freeLoopbackUdpPort(), await freeLoopbackUdpPort(), await freeLoopbackUdpPort()];
    await startSending(inPort);
    const { runner, events, logFile } = run(relay('probe-tee', inPort, [{ index: 0, type: 'udp', host: '127.0.0.1', port: a }, { index: 1, type: 'udp', host: '127.0.0.1', port: b }]));
    runner.start();
    await events.waitFor((e) => e.type === 'state' && e.state === 'running', { timeoutMs: 20_000, what: 'running' });
    const retries = exits(events);
    expect(retries.length).toBeGreaterThanOrEqual(1);
    for (const exit of retries) expect(exit).toMatchObject({ reason: 'probe_incomplete', willRestart: true, startRetry: true });
    expect(retries[0].detail).toMatch(/dimensions not set|Could not find codec parameters/);
    expect(events.events.some((r) => r.event.type === 'state' && ['restarting', 'failed'].includes(r.event.state))).toBe(false);
    expect(runner.status()).toMatchObject({ state: 'running', restarts: 0 });
    await runner.stop();
    expect(readFileSync(logFile, 'utf8')).toContain("the input's streams were not all known after 1 s of probing: starting again at once with 2.5 s of probing (no restart attempt used)");
  });

  it('one MPEG-TS output written without tee takes the video before its size is known: the shortest probe, no second start', async () => {
    const [inPort, out] = [await freeLoopbackUdpPort(), await freeLoopbackUdpPort()];
    await startSending(inPort);
    const { runner, events, logFile } = run(relay('probe-alone', inPort, [{ index: 0, type: 'udp', host: '127.0.0.1', port: out }]));
    runner.start();
    await events.waitFor((e) => e.type === 'state' && e.state === 'running', { timeoutMs: 20_000, what: 'running' });
    expect(exits(events)).toEqual([]);
    await runner.stop();
    expect(readFileSync(logFile, 'utf8')).toMatch(/-analyzeduration 300000 /);
  });
});
