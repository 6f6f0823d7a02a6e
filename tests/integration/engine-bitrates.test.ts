import { spawn, type ChildProcess } from 'node:child_process';
import dgram from 'node:dgram';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { JobRunner, type JobRunnerDeps } from '../../engine/job-runner.ts';
import { freeLoopbackUdpPort } from '../../engine/srt/srt-bridge.ts';
import { KernelUdpCounters } from '../../engine/stats/udp-counters.ts';
import type { EngineEvent, InputSpec, JobSpec, OutputSpec } from '../../engine/types.ts';
import { lavfiSourceArgs } from '../fixtures/media/lavfi.ts';
import { EventRecorder } from '../fixtures/fake-programs/harness.ts';

/**
 * The bitrates a job reports, against a sender whose rate is known: a 3 Mbit/s MPEG-TS (the
 * muxer pads it to exactly 3,000,000 bit/s), replayed at its native rate over UDP or SRT, or read
 * from its file. Every figure must lie within 20 % of what really passes. Small pictures (320x180):
 * the rate is made of CBR filler, so nothing here costs more than copying bytes.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'mediaplane-bitrates-'));
const source = path.join(dir, 'source-3M.ts');
const RATE = 3_000_000;
/** Within 20 % of the sender's rate: 2.4 to 3.6 Mbit/s. */
function near(bps: number | null | undefined): void {
  expect(bps).toBeGreaterThanOrEqual(RATE * 0.8);
  expect(bps).toBeLessThanOrEqual(RATE * 1.2);
}
/** The kernel counters need nftables and the right to use it (root here); elsewhere UDP rates are "not measured". */
let kernelCounters = false;

beforeAll(async () => {
  await execa('ffmpeg', [
    '-hide_banner', '-nostdin', '-loglevel', 'error', '-y',
    ...lavfiSourceArgs({ seconds: 8, width: 320, height: 180 }),
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '25',
    '-b:v', '2500k', '-minrate', '2500k', '-maxrate', '2500k', '-bufsize', '1250k', '-x264-params', 'nal-hrd=cbr',
    '-c:a', 'aac', '-b:a', '96k',
    '-f', 'mpegts', '-muxrate', String(RATE), source,
  ], { timeout: 60_000 });
  const probe = new KernelUdpCounters({ table: `mediaplane_io_probe_${process.pid}` });
  const watch = await probe.watch({ direction: 'in', port: 9 });
  kernelCounters = watch !== undefined;
  await probe.dispose();
}, 90_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const children: ChildProcess[] = [];
const runners: JobRunner[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await Promise.all(runners.splice(0).map((r) => r.dispose()));
});

/** Replays the source at its native rate, forever, padded to 3 Mbit/s, to a UDP port or an SRT listener. */
function sender(url: string): void {
  const child = spawn('ffmpeg', ['-hide_banner', '-nostdin', '-loglevel', 'error', '-re', '-stream_loop', '-1', '-i', source, '-map', '0', '-c', 'copy', '-f', 'mpegts', '-muxrate', String(RATE), url], { stdio: 'ignore' });
  children.push(child);
}

function relay(id: string, input: InputSpec, outputs: OutputSpec[]): JobSpec {
  return { id, name: id, videoType: 'LIVE', input, outputs, restartAttempts: 5, staleTimeoutSeconds: 15, logLevel: 'INFO', logMaxSizeInMegaBytes: 1 };
}

function run(spec: JobSpec, deps: Partial<JobRunnerDeps> = {}) {
  const events = new EventRecorder<EngineEvent>();
  const runner = new JobRunner(spec, { ffmpegPath: '/usr/bin/ffmpeg', logFile: path.join(dir, `${spec.id}.log`), nodeName: 'node-a', onEvent: events.push, statsIntervalMs: 1_000, ...deps });
  runners.push(runner);
  return { runner, events };
}

type Stats = Extract<EngineEvent, { type: 'stats' }>;

/** The first stats of a process that has been sending for `seconds` (its rate windows are full). */
async function settledStats(events: EventRecorder<EngineEvent>, seconds: number, done: (s: Stats) => boolean): Promise<Stats> {
  const running = (await events.waitFor((e) => e.type === 'state' && e.state === 'running', { timeoutMs: 20_000, what: 'running' })) as Extract<EngineEvent, { type: 'state' }>;
  return (await events.waitFor((e) => e.type === 'stats' && e.at - running.at >= seconds * 1000 && done(e), { timeoutMs: 20_000 + seconds * 1000, what: 'settled stats' })) as Stats;
}

/** Resolves once something listens on the TCP port (read from /proc/net/tcp: connecting would take the listener's one client). */
async function waitForTcpListener(port: number): Promise<void> {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  for (let i = 0; i < 400; i++) {
    const table = readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1);
    if (table.some((line) => line.trim().split(/\s+/)[1]?.endsWith(`:${hex}`) && line.trim().split(/\s+/)[3] === '0A')) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nothing listens on TCP port ${port}`);
}

/** A TCP server that reads whatever it is sent. */
async function sink(): Promise<{ port: number; close: () => void }> {
  const server = net.createServer((socket) => socket.resume());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, close: () => server.close() };
}

describe('kernel counters of UDP flows', () => {
  it.runIf(process.getuid?.() === 0)('count the payload of a flow exactly, share a flow between watchers, and go with the last one', async () => {
    const counters = new KernelUdpCounters({ table: `mediaplane_io_test_${process.pid}` });
    const port = await freeLoopbackUdpPort();
    const [a, b] = [await counters.watch({ direction: 'in', port }), await counters.watch({ direction: 'in', port })];
    expect(a && b).toBeTruthy();
    const socket = dgram.createSocket('udp4');
    for (let i = 0; i < 100; i++) await new Promise<void>((resolve) => socket.send(Buffer.alloc(1316, 0x47), port, '127.0.0.1', () => resolve()));
    socket.close();
    expect(await a!.read()).toEqual({ packets: 100, bytes: 131_600, at: expect.any(Number) });
    const tables = async () => (await execa('nft', ['list', 'tables'])).stdout;
    await a!.release();
    expect(await tables()).toContain(counters.table);
    await b!.release();
    expect(await tables()).not.toContain(counters.table);
  });
});

describe('job bitrates, measured where the bytes pass', () => {
  it('a 3 Mbit/s UDP source relayed to one UDP output: about 3 Mbit/s in (kernel counters) and out (ffmpeg counts its only output)', async () => {
    const [inPort, outPort] = [await freeLoopbackUdpPort(), await freeLoopbackUdpPort()];
    sender(`udp://127.0.0.1:${inPort}?pkt_size=1316`);
    const { runner, events } = run(relay('rate-udp', { type: 'uri', uri: `udp://127.0.0.1:${inPort}` }, [{ index: 0, type: 'udp', host: '127.0.0.1', port: outPort }]));
    runner.start();
    const stats = await settledStats(events, 5, (s) => s.outputBps !== null);
    console.log('udp → udp', JSON.stringify({ inputBps: stats.inputBps, outputBps: stats.outputBps }));
    if (kernelCounters) near(stats.inputBps);
    else expect(stats.inputBps).toBeNull();
    expect(stats.inputs).toEqual([{ index: 0, bps: stats.inputBps }]);
    // The relay drops the sender's padding (null packets): a little under 3 Mbit/s.
    near(stats.outputBps);
    expect(stats.outputs).toEqual([{ index: 0, bps: stats.outputBps }]);
    expect(runner.status()).toMatchObject({ inputBps: stats.inputBps, outputBps: stats.outputBps });
  });

  it('several outputs: UDP by kernel counters, HLS by its segments, HTTP MPEG-TS at the fan-out, TCP by its connection; the total is their sum', async () => {
    const [inPort, outPort] = [await freeLoopbackUdpPort(), await freeLoopbackUdpPort()];
    const tcp = await sink();
    sender(`udp://127.0.0.1:${inPort}?pkt_size=1316`);
    const outputs: OutputSpec[] = [
      { index: 0, type: 'udp', host: '127.0.0.1', port: outPort },
      { index: 1, type: 'hls', dir: path.join(dir, 'hls'), segmentDurationSeconds: 1, containerType: 'TS' },
      { index: 2, type: 'mpegts' },
      { index: 3, type: 'tcp', host: '127.0.0.1', port: tcp.port },
      { index: 4, type: 'udp', host: '127.0.0.1', port: outPort, disabled: true },
    ];
    const { runner, events } = run(relay('rate-many', { type: 'uri', uri: `udp://127.0.0.1:${inPort}` }, outputs));
    runner.start();
    try {
      const stats = await settledStats(events, 6, (s) => s.outputs.slice(1, 4).every((o) => o.bps !== null));
      console.log('udp → udp, hls, mpegts, tcp', JSON.stringify(stats.outputs));
      if (kernelCounters) near(stats.outputs[0].bps);
      else expect(stats.outputs[0].bps).toBeNull();
      for (const output of stats.outputs.slice(1, 4)) near(output.bps);
      // A disabled output sends nothing: it is not listed.
      expect(stats.outputs.map((o) => o.index)).toEqual([0, 1, 2, 3]);
      expect(stats.outputBps).toBe(kernelCounters ? stats.outputs.slice(0, 4).reduce((sum, o) => sum + (o.bps ?? 0), 0) : null);
    } finally {
      tcp.close();
    }
  });

  it('an SRT input carried by srt-live-transmit: about 3 Mbit/s, from the companion’s byte counts', async () => {
    const [srtPort, outPort] = [await freeLoopbackUdpPort(), await freeLoopbackUdpPort()];
    const { runner, events } = run(relay('rate-srt', { type: 'uri', uri: `srt://127.0.0.1:${srtPort}?mode=listener` }, [{ index: 0, type: 'udp', host: '127.0.0.1', port: outPort }]));
    runner.start();
    await events.waitFor((e) => e.type === 'log' && /srt-live-transmit \(input\): started pid/.test(e.line.text), { timeoutMs: 10_000, what: 'the companion' });
    sender(`srt://127.0.0.1:${srtPort}?mode=caller`);
    const stats = await settledStats(events, 5, (s) => s.inputBps !== null && s.inputBps > 0);
    console.log('srt → udp', JSON.stringify({ inputBps: stats.inputBps, outputBps: stats.outputBps }));
    near(stats.inputBps);
    near(stats.outputBps);
  });

  it('a TCP input: about 3 Mbit/s, from the kernel’s count of the connection', async () => {
    const [tcpPort, outPort] = [await freeLoopbackUdpPort(), await freeLoopbackUdpPort()];
    // The job listens, the sender connects to it.
    const { runner, events } = run(relay('rate-tcp', { type: 'uri', uri: `tcp://127.0.0.1:${tcpPort}?listen=1` }, [{ index: 0, type: 'udp', host: '127.0.0.1', port: outPort }]));
    runner.start();
    await waitForTcpListener(tcpPort);
    sender(`tcp://127.0.0.1:${tcpPort}`);
    const stats = await settledStats(events, 5, (s) => s.inputBps !== null);
    console.log('tcp → udp', JSON.stringify({ inputBps: stats.inputBps, outputBps: stats.outputBps }));
    near(stats.inputBps);
  });

  it('a file read at its native rate: about 3 Mbit/s, from the bytes ffmpeg has read', async () => {
    const outPort = await freeLoopbackUdpPort();
    const { runner, events } = run(relay('rate-file', { type: 'storage', path: source }, [{ index: 0, type: 'udp', host: '127.0.0.1', port: outPort }]));
    runner.start();
    const stats = await settledStats(events, 4, (s) => s.inputBps !== null);
    console.log('file → udp', JSON.stringify({ inputBps: stats.inputBps, outputBps: stats.outputBps }));
    near(stats.inputBps);
  });
});
