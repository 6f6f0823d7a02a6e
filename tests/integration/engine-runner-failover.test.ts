import { spawn, type ChildProcess } from 'node:child_process';
import dgram from 'node:dgram';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { JobRunner } from '../../engine/job-runner.ts';
import type { EngineEvent, JobSpec } from '../../engine/types.ts';
import { EventRecorder } from '../fixtures/fake-programs/harness.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'mediaplane-failover-'));
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function freeUdpPort(): Promise<number> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

/** A separate ffmpeg that sends an H.264 MPEG-TS test picture to udp://127.0.0.1:<port>, like a contribution encoder. */
function startSender(port: number): ChildProcess {
  const sender = spawn(
    '/usr/bin/ffmpeg',
    ['-hide_banner', '-nostdin', '-loglevel', 'error', '-re', '-f', 'lavfi', '-i', 'testsrc=size=160x90:rate=25', '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '25', '-f', 'mpegts', `udp://127.0.0.1:${port}?pkt_size=1316`],
    { stdio: 'ignore' },
  );
  cleanups.push(() => stopSender(sender));
  return sender;
}

async function stopSender(sender: ChildProcess): Promise<void> {
  if (sender.exitCode !== null || sender.signalCode !== null) return;
  const gone = new Promise((resolve) => sender.once('exit', resolve));
  sender.kill('SIGKILL');
  await gone;
}

const isState = (state: string) => (e: EngineEvent) => e.type === 'state' && e.state === state;
const isFailover = (to: 'primary' | 'failover') => (e: EngineEvent) => e.type === 'failover' && e.to === to;

describe('JobRunner failover', () => {
  it('continues from the failover input when the primary stops, and returns when it is back', { timeout: 150_000 }, async () => {
    const port = await freeUdpPort();
    let sender = startSender(port);
    const spec: JobSpec = {
      id: 'failover-udp',
      name: 'failover-udp',
      videoType: 'LIVE',
      input: { type: 'uri', uri: `udp://127.0.0.1:${port}` },
      failover: {
        input: { type: 'args', source: 'dev', args: ['-re', '-f', 'lavfi', '-i', 'testsrc2=size=160x90:rate=25'] },
        switchTimeoutSeconds: 2,
        returnAfterHealthySeconds: 2,
      },
      outputs: [{ index: 0, type: 'mpegts' }],
      encoding: { video: { codec: 'libx264', bitrateKbps: 200, params: { preset: 'ultrafast' } }, audio: { disabled: true, tracks: [] } },
      noSound: true,
      restartAttempts: 10,
      staleTimeoutSeconds: 20,
      logLevel: 'INFO',
      logMaxSizeInMegaBytes: 1,
    };
    const events = new EventRecorder<EngineEvent>();
    const logFile = path.join(dir, 'failover.log');
    const runner = new JobRunner(spec, { ffmpegPath: '/usr/bin/ffmpeg', ffprobePath: '/usr/bin/ffprobe', logFile, nodeName: 'node-a', onEvent: events.push, probeIntervalMs: 1_000, probeTimeoutMs: 4_000 });
    cleanups.push(() => runner.dispose());
    const client = new PassThrough();
    let bytes = 0;
    client.on('data', (chunk: Buffer) => (bytes += chunk.length));
    runner.start();
    runner.mpegts()!.subscribe(client);

    // On the primary: ffmpeg reads 5 s of the UDP stream before its first frame.
    await events.waitFor(isState('running'), { timeoutMs: 30_000, what: 'running on the primary' });
    let mark = events.mark;
    await events.waitFor(() => events.events.slice(mark).filter((r) => r.event.type === 'progress').length >= 3, { since: mark, timeoutMs: 10_000, what: 'progress on the primary' });
    expect(runner.status().activeInput).toBe('primary');

    // The primary's sender goes away.
    mark = events.mark;
    const stoppedAt = performance.now();
    await stopSender(sender);
    const toFailover = await events.waitFor(isFailover('failover'), { since: mark, timeoutMs: 10_000, what: 'the switch to failover' });
    expect((toFailover as Extract<EngineEvent, { type: 'failover' }>).reason).toMatch(/^no progress from the primary input for 2\.\d s \(switch timeout 2 s\)$/);
    const switchedAfter = performance.now() - stoppedAt;
    const switchMark = events.mark;
    // running is entered with the first progress block: the first frame from the failover input is out.
    await events.waitFor(isState('running'), { since: mark, timeoutMs: 10_000, what: 'running on the failover input' });
    const continuedAfter = performance.now() - stoppedAt;
    const bytesAtSwitch = bytes;
    console.log(`primary sender stopped → switched after ${switchedAfter.toFixed(0)} ms, output from the failover input after ${continuedAfter.toFixed(0)} ms (switch timeout 2000 ms)`);
    expect(continuedAfter).toBeLessThan(2_000 + 2_000);
    expect(runner.status().activeInput).toBe('failover');
    await events.waitFor(() => bytes > bytesAtSwitch + 188 * 20, { since: switchMark, timeoutMs: 5_000, what: 'TS bytes from the failover input' });
    const failoverStart = events.events
      .slice(switchMark - 1)
      .map((r) => r.event)
      .find((e) => e.type === 'log' && e.line.source === 'supervisor' && e.line.text.startsWith('started pid'));
    expect(failoverStart && failoverStart.type === 'log' && failoverStart.line.text).toContain('-i testsrc2=size=160x90:rate=25');

    // The sender comes back: the probes see it, and after 2 s of health the job returns.
    mark = events.mark;
    sender = startSender(port);
    const toPrimary = await events.waitFor(isFailover('primary'), { since: mark, timeoutMs: 30_000, what: 'the return to the primary' });
    expect((toPrimary as Extract<EngineEvent, { type: 'failover' }>).reason).toMatch(/^primary input healthy for \d+\.\d s$/);
    mark = events.mark;
    await events.waitFor(isState('running'), { since: mark, timeoutMs: 20_000, what: 'running on the primary again' });
    expect(runner.status().activeInput).toBe('primary');
    const bytesBack = bytes;
    await events.waitFor(() => bytes > bytesBack + 188 * 20, { since: events.mark, timeoutMs: 10_000, what: 'TS bytes from the primary again' });
    expect(events.events.slice(mark).some((r) => r.event.type === 'failover')).toBe(false);

    await runner.stop();
    const log = readFileSync(logFile, 'utf8');
    expect(log).toMatch(/WARNING supervisor failover: switching to the failover input: no progress from the primary input/);
    expect(log).toMatch(/WARNING supervisor failover: switching to the primary input: primary input healthy for/);
    expect(log).toMatch(/INFO    supervisor failover: primary input answers the probe again/);
  });
});
