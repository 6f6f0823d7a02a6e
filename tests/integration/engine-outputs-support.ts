import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa, type ResultPromise } from 'execa';
import type { FfmpegCommand } from '../../engine/ffmpeg/build-args.ts';
import type { EncodingSpec, InputSpec, JobSpec, OutputSpec } from '../../engine/types.ts';

/** Helpers of the engine output tests: real ffmpeg writers, real readers on loopback, bounded waits. */

export async function tempDir(prefix: string): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), `mediaplane-${prefix}-`));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

export function job(input: InputSpec, outputs: OutputSpec[], options: { videoType?: 'LIVE' | 'VOD'; encoding?: EncodingSpec } = {}): JobSpec {
  return {
    id: 'test-job',
    name: 'Test job',
    videoType: options.videoType ?? 'LIVE',
    input,
    outputs,
    encoding: options.encoding,
    restartAttempts: 0,
    staleTimeoutSeconds: 10,
    logLevel: 'WARNING',
    logMaxSizeInMegaBytes: 10,
  };
}

/** A light H.264/AAC encode (small and fast: the test machine has two cores for everything). */
export function lightEncoding(overrides: Partial<EncodingSpec> = {}): EncodingSpec {
  return {
    video: { codec: 'libx264', bitrateKbps: 400, width: 320, height: 180, params: { preset: 'ultrafast' } },
    audio: { tracks: [{ source: 'AUTO', codec: 'aac', bitrateKbps: 64 }] },
    ...overrides,
  };
}

export type Ffmpeg = ResultPromise<{ stdio: ['ignore', 'pipe', 'pipe', 'pipe']; reject: false; buffer: { stdout: false; fd3: false } }>;

/**
 * Start ffmpeg with a built command exactly as the engine would: argv only, progress on fd 3.
 * (Wrapped in an object: the subprocess is a thenable and would otherwise be awaited to its end.)
 */
export async function startFfmpeg(command: FfmpegCommand, timeoutMs = 25_000): Promise<{ child: Ffmpeg }> {
  await Promise.all(command.directories.map((dir) => mkdir(dir, { recursive: true })));
  const child = execa('ffmpeg', command.args, {
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    reject: false,
    buffer: { stdout: false, fd3: false },
    timeout: timeoutMs,
    killSignal: 'SIGKILL',
  });
  child.stdio[3]?.resume();
  if (!command.usesStdout) child.stdout?.resume();
  return { child };
}

/** Run a command to its end; fails with ffmpeg's last log lines if it does not exit 0. */
export async function runFfmpeg(command: FfmpegCommand, timeoutMs = 25_000): Promise<void> {
  const result = await (await startFfmpeg(command, timeoutMs)).child;
  if (result.exitCode !== 0) throw new Error(`ffmpeg exited ${result.exitCode ?? result.signal}: ${String(result.stderr).split('\n').slice(-8).join('\n')}`);
}

export async function stopFfmpeg({ child }: { child: Ffmpeg }): Promise<void> {
  if (child.exitCode === null) child.kill('SIGKILL');
  await child;
}

export interface ProbedStream {
  codec_type: string;
  codec_name: string;
  width?: number;
  height?: number;
  display_aspect_ratio?: string;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  channels?: number;
  sample_rate?: string;
}

/** ffprobe a file, playlist, manifest or network URL; `args` go before the input (protocol options). */
export async function ffprobe(target: string, options: { args?: string[]; timeoutMs?: number } = {}): Promise<{ streams: ProbedStream[]; format?: { format_name: string } }> {
  // A live network stream is probed for 1.5 s (ffprobe's default 5 s is longer than the test streams).
  const live = /^(udp|srt|tcp|rtp|rtmp):/.test(target) ? ['-analyzeduration', '1500000'] : [];
  const result = await execa(
    'ffprobe',
    ['-v', 'error', '-print_format', 'json', '-show_entries', 'stream=codec_type,codec_name,width,height,display_aspect_ratio,avg_frame_rate,r_frame_rate,channels,sample_rate:format=format_name', ...live, ...(options.args ?? []), '-i', target],
    { timeout: options.timeoutMs ?? 20_000, reject: false },
  );
  if (result.exitCode !== 0) throw new Error(`ffprobe ${target} failed (${result.exitCode ?? result.signal}): ${result.stderr}`);
  return JSON.parse(result.stdout) as { streams: ProbedStream[]; format?: { format_name: string } };
}

export function videoOf(probe: { streams: ProbedStream[] }): ProbedStream | undefined {
  return probe.streams.find((s) => s.codec_type === 'video');
}

export function audioOf(probe: { streams: ProbedStream[] }): ProbedStream | undefined {
  return probe.streams.find((s) => s.codec_type === 'audio');
}

async function portsIn(files: string[], state?: string): Promise<Set<number>> {
  const ports = new Set<number>();
  for (const file of files) {
    const text = await readFile(file, 'utf8').catch(() => '');
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 4) continue;
      if (state && cols[3] !== state) continue;
      ports.add(parseInt(cols[1].split(':')[1], 16));
    }
  }
  return ports;
}

/** Wait (bounded) until something holds the port: a UDP socket bound, or a TCP socket listening. */
export async function waitForPort(port: number, protocol: 'udp' | 'tcp', timeoutMs = 10_000): Promise<void> {
  const files = protocol === 'udp' ? ['/proc/net/udp', '/proc/net/udp6'] : ['/proc/net/tcp', '/proc/net/tcp6'];
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await portsIn(files, protocol === 'tcp' ? '0A' : undefined)).has(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`nothing ${protocol === 'tcp' ? 'listens on' : 'bound'} ${protocol} port ${port} within ${timeoutMs} ms`);
}

/** Every 188th byte from `offset` is the MPEG-TS sync byte. Returns the number of packets checked. */
export function assertTsPackets(data: Buffer, offset = 0): number {
  let packets = 0;
  for (let i = offset; i + 188 <= data.length; i += 188) {
    if (data[i] !== 0x47) throw new Error(`byte ${i} is 0x${data[i].toString(16)}, not the 0x47 sync byte`);
    packets++;
  }
  return packets;
}

/** The first picture of a file or playlist as raw RGB bytes (width × height × 3). */
export async function firstFrameRgb(target: string): Promise<Buffer> {
  const result = await execa('ffmpeg', ['-hide_banner', '-nostdin', '-loglevel', 'error', '-i', target, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'], {
    encoding: 'buffer',
    timeout: 20_000,
  });
  return Buffer.from(result.stdout);
}

/** Mean of one colour channel (0 R, 1 G, 2 B) over a rectangle of an RGB picture `width` pixels wide. */
export function meanChannel(rgb: Buffer, width: number, box: { x: number; y: number; w: number; h: number }, channel: 0 | 1 | 2): number {
  let sum = 0;
  for (let y = box.y; y < box.y + box.h; y++) for (let x = box.x; x < box.x + box.w; x++) sum += rgb[(y * width + x) * 3 + channel];
  return sum / (box.w * box.h);
}
