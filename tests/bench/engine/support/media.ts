import { existsSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { execa } from 'execa';
import { lavfiSourceArgs } from '../../../fixtures/media/lavfi.ts';
import { FFMPEG, spawnFfmpeg, TIMED_OUT, within, type ChildProcessHandle } from './processes.ts';

export interface SourceFormat {
  width: number;
  height: number;
  rate: number;
  videoKbps: number;
  audioKbps: number;
  gopFrames: number;
}

/** The source every relay reads: 720p25 H.264 at a constant 2.85 Mbit/s plus 128 kbit/s AAC, about 3.1 Mbit/s as MPEG-TS. */
export const SOURCE: SourceFormat = { width: 1280, height: 720, rate: 25, videoKbps: 2850, audioKbps: 128, gopFrames: 25 };

/** A contribution feed as an ABR ladder gets it: 1080p25 H.264 at a constant 6 Mbit/s plus AAC. */
export const CONTRIBUTION_SOURCE: SourceFormat = { width: 1920, height: 1080, rate: 25, videoKbps: 6000, audioKbps: 128, gopFrames: 25 };

/**
 * Encodes the source once (x264 veryfast, CBR with filler, a keyframe every second) and keeps it in
 * the OS temp dir for the next runs. Senders replay it; nothing encodes while relays are measured.
 */
export async function ensureSourceFile(seconds: number, log: (line: string) => void, format: SourceFormat = SOURCE): Promise<string> {
  const megabits = Math.round((format.videoKbps + format.audioKbps) / 1000);
  const file = path.join(tmpdir(), `mediaplane-engine-bench-${format.height}p${format.rate}-${megabits}M-${seconds}s.ts`);
  if (existsSync(file)) return file;
  const started = performance.now();
  const partial = `${file}.writing`;
  await execa(
    FFMPEG,
    [
      '-hide_banner', '-nostdin', '-loglevel', 'error', '-y',
      ...lavfiSourceArgs({ seconds, width: format.width, height: format.height, rate: format.rate }),
      '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p',
      '-b:v', `${format.videoKbps}k`, '-minrate', `${format.videoKbps}k`, '-maxrate', `${format.videoKbps}k`, '-bufsize', `${format.videoKbps / 2}k`,
      '-x264-params', 'nal-hrd=cbr:force-cfr=1',
      '-g', String(format.gopFrames), '-keyint_min', String(format.gopFrames), '-sc_threshold', '0',
      '-c:a', 'aac', '-b:a', `${format.audioKbps}k`,
      '-f', 'mpegts', partial,
    ],
    { timeout: 600_000 },
  );
  renameSync(partial, file);
  log(`encoded the ${seconds} s source once to ${file} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return file;
}

export interface Sender {
  ports: number[];
  process: ChildProcessHandle;
  /** The last progress block: media time sent (ms) and when it came (performance.now()). */
  position(): { at: number; outMs: number } | undefined;
  /** Resolves once media flows (the first progress block with a media time). */
  flowing(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * ONE paced process that replays the source at its native rate, forever, to every port given:
 * the tee muxer writes the same packets to each (`-c copy`: nothing is encoded).
 */
export function startSender(file: string, ports: number[]): Sender {
  const slaves = ports.map((port) => `[f=mpegts:onfail=ignore]udp://127.0.0.1:${port}?pkt_size=1316`).join('|');
  const child = spawnFfmpeg([
    '-hide_banner', '-nostdin', '-nostats', '-loglevel', 'error', '-progress', 'pipe:3',
    '-re', '-stream_loop', '-1', '-i', file,
    '-map', '0', '-c', 'copy', '-f', 'tee', slaves,
  ]);
  let last: { at: number; outMs: number } | undefined;
  let flowing: () => void = () => {};
  const flows = new Promise<void>((resolve) => (flowing = resolve));
  child.onProgress((progress, at) => {
    if (progress.outTimeMs === undefined || progress.outTimeMs <= 0) return;
    last = { at, outMs: progress.outTimeMs };
    flowing();
  });
  return {
    ports,
    process: child,
    position: () => last,
    flowing: async () => {
      if ((await within(flows, 30_000)) === TIMED_OUT) throw new Error(`the sender sent nothing in 30 s:\n${child.stderrTail().slice(-1500)}`);
    },
    stop: () => child.kill(),
  };
}
