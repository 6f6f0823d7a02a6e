import { execa } from 'execa';
import type { InputSpec } from '../types.ts';
import { MediaInfoError, probeInputArgs } from './media-info.ts';

/** A keyframe of the first video stream, with the GOP that ended at it. */
export interface KeyframeInfo {
  /** Presentation time in seconds (the decode time when the packet has none). */
  timeSeconds: number;
  /** Seconds since the previous keyframe; null for the first. */
  intervalSeconds: number | null;
  /** Video packets (frames) from the previous keyframe up to this one; null for the first. */
  gopFrames: number | null;
}

export interface KeyframeProbe {
  keyframes: KeyframeInfo[];
  /** Video packets read in all. */
  packetsRead: number;
}

export interface KeyframeProbeOptions {
  timeoutMs: number;
  /** Seconds of the source read from its start (ffprobe's -read_intervals). Default 12. */
  readSeconds?: number;
  /** Keyframes kept, the first ones. Default 20. */
  maxKeyframes?: number;
  ffprobePath?: string;
}

interface FfprobePacket {
  pts_time?: string;
  dts_time?: string;
  flags?: string;
}

const seconds = (value: string | undefined): number | null => {
  if (value === undefined || value === 'N/A') return null;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : null;
};

/** The keyframes among video packets in decode order (pure). */
export function keyframesFromPackets(packets: readonly FfprobePacket[], maxKeyframes = 20): KeyframeInfo[] {
  const keyframes: KeyframeInfo[] = [];
  let previous: { time: number; at: number } | null = null;
  packets.forEach((packet, at) => {
    if (!packet.flags?.includes('K') || keyframes.length >= maxKeyframes) return;
    const time = seconds(packet.pts_time) ?? seconds(packet.dts_time);
    if (time === null) return;
    keyframes.push({
      timeSeconds: time,
      intervalSeconds: previous === null ? null : Math.round((time - previous.time) * 1000) / 1000,
      gopFrames: previous === null ? null : at - previous.at,
    });
    previous = { time, at };
  });
  return keyframes;
}

/**
 * The first keyframes of an input's first video stream and the GOP lengths between them, from a
 * bounded read: ffprobe (no shell) reads `readSeconds` of the source, packets only (nothing is
 * decoded), and is killed at the timeout. Failures are MediaInfoErrors.
 */
export async function probeKeyframes(input: InputSpec | string, options: KeyframeProbeOptions): Promise<KeyframeProbe> {
  const args = [
    '-hide_banner', '-v', 'error',
    '-select_streams', 'v:0',
    '-show_entries', 'packet=pts_time,dts_time,flags',
    '-read_intervals', `%+${options.readSeconds ?? 12}`,
    '-of', 'json',
    ...probeInputArgs(input),
  ];
  const result = await execa(options.ffprobePath ?? 'ffprobe', args, {
    reject: false,
    shell: false,
    stdin: 'ignore',
    timeout: options.timeoutMs,
    killSignal: 'SIGKILL',
    maxBuffer: 16 * 1024 * 1024,
  });
  if (result.timedOut) throw new MediaInfoError(`timed out after ${options.timeoutMs} ms`);
  if (result.failed) {
    const lastLine = String(result.stderr ?? '').split('\n').map((line) => line.trim()).filter(Boolean).at(-1);
    throw new MediaInfoError(lastLine ?? (result.exitCode === undefined ? 'ffprobe did not start' : `ffprobe exited with code ${result.exitCode}`), { cause: result.cause });
  }
  let packets: FfprobePacket[];
  try {
    packets = (JSON.parse(String(result.stdout)) as { packets?: FfprobePacket[] }).packets ?? [];
  } catch (error) {
    throw new MediaInfoError(`unreadable ffprobe output: ${(error as Error).message}`, { cause: error });
  }
  return { keyframes: keyframesFromPackets(packets, options.maxKeyframes), packetsRead: packets.length };
}
