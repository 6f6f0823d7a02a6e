import type { z } from 'zod';
import { probeKeyframes, type KeyframeProbe } from '../../engine/probe/keyframes.ts';
import { MediaInfoError, probeMediaInfo, type MediaInfo, type MediaStreamInfo } from '../../engine/probe/media-info.ts';
import type { InputSpec } from '../../engine/types.ts';
import type { Input, JobInputValue } from '../../openapi/schemas/jobs.ts';
import { AppError, ValidationError } from '../errors.ts';
import { requireJob, type JobHistoryRepository, type JobKindName } from '../repositories/job-history.repository.ts';

type InputValue = z.output<typeof Input>;

export interface TraceTableDto {
  key: string;
  columns: string[];
  rows: string[][];
}

export interface MediaInfoOptions {
  /** A probe is killed after this long. Default 10 s. */
  timeoutMs?: number;
  /** The keyframe read of a trace: seconds of the source, and its own time bound. */
  keyframeReadSeconds?: number;
  keyframeTimeoutMs?: number;
  /** Probes running at once on this server; one more is a 429. Default 8. */
  maxConcurrentProbes?: number;
  ffprobePath?: string;
}

/** The text of a 422 (spec 01 §8); `details` says what went wrong underneath. */
function detectionFailed(error: MediaInfoError): AppError {
  return new AppError(422, 'MEDIA_INFO_FAILED', error.message, [{ path: 'input.uri', message: redactTokens(error.detail) }]);
}

/** ffprobe's messages repeat the URL: a token in it is not for everyone who may read the answer. */
function redactTokens(text: string): string {
  return text.replace(/([?&](?:token|passphrase|password|key)=)[^&\s"']*/gi, '$1***').replace(/(\/\/[^/@\s:]+:)[^@/\s]+@/g, '$1***@');
}

/**
 * The media source check and the trace of a job's input (spec 01 §2.6, §2.8): ffprobe through the
 * engine (argv only, killed at its timeout), uri inputs only, a bounded number at once.
 */
export class MediaInfoService {
  private running = 0;
  private readonly timeoutMs: number;
  private readonly maxConcurrent: number;

  constructor(
    private readonly jobs: JobHistoryRepository,
    private readonly options: MediaInfoOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxConcurrent = options.maxConcurrentProbes ?? 8;
  }

  /** An input as the edit form holds it, before it is saved. */
  detect(input: InputValue): Promise<MediaInfo> {
    return this.probe(probeSpec(input));
  }

  async forJob(kind: JobKindName, id: number): Promise<MediaInfo> {
    const job = await requireJob(this.jobs, kind, id);
    return this.probe(probeSpec((job.config as JobInputValue).input));
  }

  /** One table per trace key: format, programs, streams, keyframes. */
  async trace(kind: JobKindName, id: number): Promise<{ input: string; tracedAt: string; traces: TraceTableDto[] }> {
    const job = await requireJob(this.jobs, kind, id);
    const input = (job.config as JobInputValue).input;
    const spec = probeSpec(input);
    const tracedAt = new Date().toISOString();
    const { info, keyframes } = await this.withSlot(async () => {
      const info = await this.mediaInfo(spec);
      const keyframes = await probeKeyframes(spec, {
        timeoutMs: this.options.keyframeTimeoutMs ?? this.timeoutMs + 5_000,
        readSeconds: this.options.keyframeReadSeconds,
        ffprobePath: this.options.ffprobePath,
      }).catch((error: unknown) => {
        if (error instanceof MediaInfoError) return error;
        throw error;
      });
      return { info, keyframes };
    });
    return { input: redactTokens(input.uri ?? ''), tracedAt, traces: [formatTable(info), programsTable(info), streamsTable(info), keyframesTable(info, keyframes)] };
  }

  private probe(spec: InputSpec): Promise<MediaInfo> {
    return this.withSlot(() => this.mediaInfo(spec));
  }

  private async mediaInfo(spec: InputSpec): Promise<MediaInfo> {
    try {
      return await probeMediaInfo(spec, { timeoutMs: this.timeoutMs, ffprobePath: this.options.ffprobePath });
    } catch (error) {
      if (error instanceof MediaInfoError) throw detectionFailed(error);
      throw error;
    }
  }

  private async withSlot<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.maxConcurrent) throw new AppError(429, 'TOO_MANY_PROBES', `${this.maxConcurrent} media checks are running; try again in a moment.`, undefined, { 'Retry-After': '5' });
    this.running++;
    try {
      return await work();
    } finally {
      this.running--;
    }
  }
}

/** What ffprobe is given for an input: uri inputs only (the others are resolved by their areas). */
function probeSpec(input: InputValue): InputSpec {
  if (input.type !== 'uri') throw ValidationError.field('input.type', `media info is detected for uri inputs only, not ${input.type}`);
  if (!input.uri) throw ValidationError.field('input.uri', 'Input uri is required');
  return { type: 'uri', uri: input.uri, token: input.tokenRequired ? input.token : undefined, program: input.program };
}

const text = (value: string | number | boolean | null | undefined): string => (value === null || value === undefined ? '' : String(value));

function formatTable(info: MediaInfo): TraceTableDto {
  const f = info.format;
  return {
    key: 'format',
    columns: ['Property', 'Value'],
    rows: [
      ['Format', text(f.name)],
      ['Description', text(f.longName)],
      ['Duration (s)', text(f.durationSeconds)],
      ['Size (bytes)', text(f.sizeBytes)],
      ['Bitrate (bps)', text(f.bitrate)],
      ['Programs', String(info.programs.length)],
      ['Streams', String(info.streams.length)],
    ],
  };
}

function programsTable(info: MediaInfo): TraceTableDto {
  return {
    key: 'programs',
    columns: ['Program', 'Name', 'Provider', 'Streams'],
    rows: info.programs.map((p) => [String(p.number), text(p.name), text(p.provider), p.streams.map((s) => `${s.index}:${s.type}${s.codec ? ` ${s.codec}` : ''}`).join(', ')]),
  };
}

function streamsTable(info: MediaInfo): TraceTableDto {
  const size = (s: MediaStreamInfo) => (s.width && s.height ? `${s.width}x${s.height}` : '');
  return {
    key: 'streams',
    columns: ['Index', 'Id', 'Type', 'Codec', 'Profile', 'Resolution', 'Frame rate', 'Pixel format', 'Field order', 'Sample rate', 'Channels', 'Layout', 'Language', 'Bitrate (bps)'],
    rows: info.streams.map((s) => [
      String(s.index), text(s.id), s.type, text(s.codec), text(s.profile), size(s), text(s.frameRate), text(s.pixelFormat), text(s.fieldOrder),
      text(s.sampleRate), text(s.channels), text(s.channelLayout), text(s.language), text(s.bitrate),
    ]),
  };
}

function keyframesTable(info: MediaInfo, probe: KeyframeProbe | MediaInfoError): TraceTableDto {
  if (probe instanceof MediaInfoError) return { key: 'keyframes', columns: ['Error'], rows: [[redactTokens(probe.detail)]] };
  if (!info.streams.some((s) => s.type === 'video')) return { key: 'keyframes', columns: ['Keyframe', 'Time (s)', 'Interval (s)', 'GOP (frames)'], rows: [] };
  return {
    key: 'keyframes',
    columns: ['Keyframe', 'Time (s)', 'Interval (s)', 'GOP (frames)'],
    rows: probe.keyframes.map((k, i) => [String(i + 1), k.timeSeconds.toFixed(3), k.intervalSeconds === null ? '' : k.intervalSeconds.toFixed(3), text(k.gopFrames)]),
  };
}
