import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import type { InputSpec } from '../types.ts';
import { boundedRead } from './input-probe.ts';

/** The spec's hint (01 §8) shown when the media source check fails. */
export const MEDIA_INFO_FAILED_MESSAGE = 'Media info detection failed. Please make sure the source is available.';

/**
 * Any failure of the media info check. The message is always the spec's text; `detail` says what
 * went wrong underneath (ffprobe's last stderr line, "timed out after N ms", a spawn error ...).
 */
export class MediaInfoError extends Error {
  override readonly name = 'MediaInfoError';
  readonly detail: string;

  constructor(detail: string, options?: { cause?: unknown }) {
    super(MEDIA_INFO_FAILED_MESSAGE, { cause: options?.cause ?? detail });
    this.detail = detail;
  }
}

export interface MediaStreamInfo {
  index: number;
  /** The stream's id in its container, e.g. the PID `0x100` in MPEG-TS. */
  id: string | null;
  type: 'video' | 'audio' | 'subtitle' | 'data' | 'attachment' | string;
  codec: string | null;
  codecLongName: string | null;
  profile: string | null;
  width: number | null;
  height: number | null;
  /** Frames per second, e.g. 25 or 29.97. */
  frameRate: number | null;
  pixelFormat: string | null;
  /** ffprobe's field order: progressive, tt, bb, tb, bt. */
  fieldOrder: string | null;
  interlaced: boolean | null;
  sampleRate: number | null;
  channels: number | null;
  channelLayout: string | null;
  language: string | null;
  /** bits per second */
  bitrate: number | null;
}

export interface MediaProgramInfo {
  /** The program number (MPEG-TS service id) a job selects. */
  number: number;
  /** The service name, when the stream has one. */
  name: string | null;
  provider: string | null;
  streams: MediaStreamInfo[];
}

export interface MediaInfo {
  format: {
    name: string | null;
    longName: string | null;
    durationSeconds: number | null;
    sizeBytes: number | null;
    bitrate: number | null;
  };
  programs: MediaProgramInfo[];
  streams: MediaStreamInfo[];
}

export interface ProbeOptions {
  timeoutMs: number;
  ffprobePath?: string;
  /** How much of a live source ffprobe reads to find its streams (ffprobe's default: 5000 ms). */
  analyzeDurationMs?: number;
}

/** ffprobe's input arguments for a resolved input. */
export function probeInputArgs(input: InputSpec | string): string[] {
  if (typeof input === 'string') return ['-i', localOrUrl(input)];
  switch (input.type) {
    case 'uri':
      return ['-i', withToken(localOrUrl(input.uri), input.token)];
    case 'storage':
      return ['-i', input.path];
    case 'args':
      return input.args;
  }
}

function localOrUrl(uri: string): string {
  if (!uri.startsWith('file:')) return uri;
  try {
    return fileURLToPath(uri);
  } catch {
    return uri;
  }
}

function withToken(uri: string, token: string | undefined): string {
  if (!token || !/^(https?|rtmps?|rtsp):\/\//i.test(uri)) return uri;
  return `${uri}${uri.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`;
}

/**
 * A network input read with a timeout of its own (engine/probe/input-probe.ts boundedRead), a little
 * under the probe's: a silent source ends ffprobe by itself, even if nobody is left to kill it.
 */
function withBoundedRead(args: string[], timeoutMs: number): string[] {
  const at = args.indexOf('-i');
  if (at < 0 || at + 1 >= args.length || !/^[a-z][a-z0-9+.-]*:\/\//i.test(args[at + 1])) return args;
  const read = boundedRead(args[at + 1], Math.max(500, timeoutMs * 0.8));
  return [...args.slice(0, at), ...read.options, '-i', read.url, ...args.slice(at + 2)];
}

/**
 * Runs ffprobe (`-v error -show_programs -show_streams -show_format -of json`, no shell) on an
 * input and describes its programs and streams. The process is killed at the timeout, and reads
 * from the network give up a little before it by themselves. Any failure
 * (ffprobe missing, an error exit, the timeout, unreadable output, no streams) is a MediaInfoError.
 */
export async function probeMediaInfo(input: InputSpec | string, options: ProbeOptions): Promise<MediaInfo> {
  const analyze = options.analyzeDurationMs === undefined ? [] : ['-analyzeduration', String(Math.round(options.analyzeDurationMs * 1000))];
  const args = ['-hide_banner', '-v', 'error', '-show_programs', '-show_streams', '-show_format', '-of', 'json', ...analyze, ...withBoundedRead(probeInputArgs(input), options.timeoutMs)];
  const result = await execa(options.ffprobePath ?? 'ffprobe', args, {
    reject: false,
    shell: false,
    stdin: 'ignore',
    timeout: options.timeoutMs,
    killSignal: 'SIGKILL',
    maxBuffer: 32 * 1024 * 1024,
    stripFinalNewline: true,
  });
  if (result.timedOut) throw new MediaInfoError(`timed out after ${options.timeoutMs} ms`);
  if ((result.cause as NodeJS.ErrnoException | undefined)?.code === 'ENOENT' && result.exitCode === undefined) {
    throw new MediaInfoError(`ffprobe not found: ${options.ffprobePath ?? 'ffprobe'}`, { cause: result.cause });
  }
  if (result.failed) {
    const lastLine = String(result.stderr ?? '').split('\n').map((line) => line.trim()).filter(Boolean).at(-1);
    const detail = lastLine ?? (result.exitCode === undefined ? (result.shortMessage ?? 'ffprobe did not start') : `ffprobe exited with code ${result.exitCode}`);
    throw new MediaInfoError(detail, { cause: result.cause ?? detail });
  }
  let json: FfprobeOutput;
  try {
    json = JSON.parse(String(result.stdout)) as FfprobeOutput;
  } catch (error) {
    throw new MediaInfoError(`unreadable ffprobe output: ${(error as Error).message}`, { cause: error });
  }
  const info = toMediaInfo(json);
  if (info.streams.length === 0) throw new MediaInfoError('no streams found');
  return info;
}

interface FfprobeStream {
  index?: number;
  id?: string;
  codec_type?: string;
  codec_name?: string;
  codec_long_name?: string;
  profile?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  pix_fmt?: string;
  field_order?: string;
  sample_rate?: string;
  channels?: number;
  channel_layout?: string;
  bit_rate?: string;
  tags?: Record<string, string>;
}

interface FfprobeOutput {
  programs?: { program_num?: number; program_id?: number; tags?: Record<string, string>; streams?: FfprobeStream[] }[];
  streams?: FfprobeStream[];
  format?: { format_name?: string; format_long_name?: string; duration?: string; size?: string; bit_rate?: string };
}

/** Maps ffprobe's JSON to MediaInfo (pure). */
export function toMediaInfo(json: FfprobeOutput): MediaInfo {
  return {
    format: {
      name: json.format?.format_name ?? null,
      longName: json.format?.format_long_name ?? null,
      durationSeconds: number(json.format?.duration),
      sizeBytes: number(json.format?.size),
      bitrate: number(json.format?.bit_rate),
    },
    programs: (json.programs ?? []).map((program) => ({
      number: program.program_num ?? program.program_id ?? 0,
      name: program.tags?.service_name ?? null,
      provider: program.tags?.service_provider ?? null,
      streams: (program.streams ?? []).map(toStream),
    })),
    streams: (json.streams ?? []).map(toStream),
  };
}

const INTERLACED_ORDERS = new Set(['tt', 'bb', 'tb', 'bt']);

function toStream(stream: FfprobeStream): MediaStreamInfo {
  const fieldOrder = stream.field_order && stream.field_order !== 'unknown' ? stream.field_order : null;
  return {
    index: stream.index ?? 0,
    id: stream.id ?? null,
    type: stream.codec_type ?? 'unknown',
    codec: stream.codec_name ?? null,
    codecLongName: stream.codec_long_name ?? null,
    profile: stream.profile && stream.profile !== 'unknown' ? stream.profile : null,
    width: stream.width ?? null,
    height: stream.height ?? null,
    frameRate: stream.codec_type === 'video' ? (rate(stream.avg_frame_rate) ?? rate(stream.r_frame_rate)) : null,
    pixelFormat: stream.pix_fmt ?? null,
    fieldOrder,
    interlaced: fieldOrder === null ? null : INTERLACED_ORDERS.has(fieldOrder),
    sampleRate: number(stream.sample_rate),
    channels: stream.channels ?? null,
    channelLayout: stream.channel_layout ?? null,
    language: stream.tags?.language ?? null,
    bitrate: number(stream.bit_rate),
  };
}

function number(value: string | number | undefined): number | null {
  if (value === undefined || value === '' || value === 'N/A') return null;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : null;
}

/** "30000/1001" → 29.97; "0/0" → null. */
function rate(value: string | undefined): number | null {
  if (!value) return null;
  const [num, den] = value.split('/').map(Number);
  if (!Number.isFinite(num) || !Number.isFinite(den) || num <= 0 || den <= 0) return null;
  return Math.round((num / den) * 1000) / 1000;
}
