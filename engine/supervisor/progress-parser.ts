import type { Progress } from '../types.ts';

/**
 * Parses what ffmpeg writes with `-progress pipe:3`: blocks of `key=value` lines, each block closed
 * by `progress=continue` (more to come) or `progress=end` (the last one). Chunks may split lines
 * and blocks anywhere; `push` keeps the unfinished rest for the next chunk.
 *
 * ffmpeg 5.1 writes (values may be `N/A`, and some are padded with spaces):
 *   frame=155  fps=150.00  stream_0_0_q=-1.0  bitrate= 150.2kbits/s  total_size=115620
 *   out_time_us=6160011  out_time_ms=6160011 (microseconds too, despite its name)
 *   out_time=00:00:06.160011  dup_frames=0  drop_frames=0  speed=5.96x  progress=continue
 */
export class ProgressParser {
  private rest = '';
  /** The fields of the block being read; only the keys toProgress uses are kept. */
  private fields: Partial<Record<Field, string>> = {};

  push(chunk: string): Progress[] {
    // Runs for every block of every job (a few a second each): plain string scanning, no per-line arrays.
    const text = this.rest ? this.rest + chunk : chunk;
    const blocks: Progress[] = [];
    let start = 0;
    for (let end = text.indexOf('\n'); end >= 0; start = end + 1, end = text.indexOf('\n', start)) {
      const eq = text.indexOf('=', start);
      if (eq <= start || eq >= end) continue;
      const key = text.slice(start, eq).trim();
      if (key === 'progress') {
        blocks.push(toProgress(this.fields, text.slice(eq + 1, end).trim() === 'end'));
        this.fields = {};
      } else if (FIELDS.has(key)) {
        this.fields[key as Field] = text.slice(eq + 1, end).trim();
      }
    }
    this.rest = text.slice(start);
    return blocks;
  }
}

type Field = 'frame' | 'fps' | 'bitrate' | 'total_size' | 'out_time_us' | 'out_time_ms' | 'speed' | 'drop_frames' | 'dup_frames';
const FIELDS: ReadonlySet<string> = new Set<Field>(['frame', 'fps', 'bitrate', 'total_size', 'out_time_us', 'out_time_ms', 'speed', 'drop_frames', 'dup_frames']);

function num(value: string | undefined): number | undefined {
  if (value === undefined || value === '' || value === 'N/A') return undefined;
  const n = Number.parseFloat(value);
  return Number.isFinite(n) ? n : undefined;
}

function toProgress(fields: Partial<Record<Field, string>>, ended: boolean): Progress {
  const progress: Progress = { ended };
  const frame = num(fields.frame);
  if (frame !== undefined) progress.frame = frame;
  const fps = num(fields.fps);
  if (fps !== undefined) progress.fps = fps;
  // "bitrate= 150.2kbits/s": parseFloat stops at the unit.
  const bitrate = num(fields.bitrate);
  if (bitrate !== undefined) progress.bitrateKbps = bitrate;
  const size = num(fields.total_size);
  if (size !== undefined) progress.totalSizeBytes = size;
  const outTimeUs = num(fields.out_time_us) ?? num(fields.out_time_ms);
  if (outTimeUs !== undefined && outTimeUs >= 0) progress.outTimeMs = Math.round(outTimeUs / 1000);
  // "speed=5.96x": likewise.
  const speed = num(fields.speed);
  if (speed !== undefined) progress.speed = speed;
  const drop = num(fields.drop_frames);
  if (drop !== undefined) progress.dropFrames = drop;
  const dup = num(fields.dup_frames);
  if (dup !== undefined) progress.dupFrames = dup;
  return progress;
}

/**
 * Whether a block shows that media moved since the previous one: more frames, more bytes or a later
 * output time. ffmpeg can repeat a block with the same counters while its input is stalled; such a
 * block is a sign of life but not progress, and does not reset the stale clock.
 */
export function isAdvance(previous: Progress | undefined, next: Progress): boolean {
  if (!previous) return true;
  return grew(previous.frame, next.frame) || grew(previous.totalSizeBytes, next.totalSizeBytes) || grew(previous.outTimeMs, next.outTimeMs);
}

function grew(a: number | undefined, b: number | undefined): boolean {
  return b !== undefined && (a === undefined || b > a);
}
