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
  private fields = new Map<string, string>();

  push(chunk: string): Progress[] {
    const text = this.rest + chunk;
    const lines = text.split('\n');
    this.rest = lines.pop() ?? '';
    const blocks: Progress[] = [];
    for (const raw of lines) {
      const line = raw.trim();
      const eq = line.indexOf('=');
      if (eq <= 0) continue;
      const key = line.slice(0, eq).trim();
      const value = line.slice(eq + 1).trim();
      if (key === 'progress') {
        blocks.push(toProgress(this.fields, value === 'end'));
        this.fields = new Map();
      } else {
        this.fields.set(key, value);
      }
    }
    return blocks;
  }
}

function num(value: string | undefined): number | undefined {
  if (value === undefined || value === '' || value === 'N/A') return undefined;
  const n = Number.parseFloat(value);
  return Number.isFinite(n) ? n : undefined;
}

function toProgress(fields: Map<string, string>, ended: boolean): Progress {
  const progress: Progress = { ended };
  const frame = num(fields.get('frame'));
  if (frame !== undefined) progress.frame = frame;
  const fps = num(fields.get('fps'));
  if (fps !== undefined) progress.fps = fps;
  // "bitrate= 150.2kbits/s"
  const bitrate = num(fields.get('bitrate')?.replace(/kbits\/s$/, ''));
  if (bitrate !== undefined) progress.bitrateKbps = bitrate;
  const size = num(fields.get('total_size'));
  if (size !== undefined) progress.totalSizeBytes = size;
  const outTimeUs = num(fields.get('out_time_us')) ?? num(fields.get('out_time_ms'));
  if (outTimeUs !== undefined && outTimeUs >= 0) progress.outTimeMs = Math.round(outTimeUs / 1000);
  const speed = num(fields.get('speed')?.replace(/x$/, ''));
  if (speed !== undefined) progress.speed = speed;
  const drop = num(fields.get('drop_frames'));
  if (drop !== undefined) progress.dropFrames = drop;
  const dup = num(fields.get('dup_frames'));
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
  const grew = (a: number | undefined, b: number | undefined) => b !== undefined && (a === undefined || b > a);
  return grew(previous.frame, next.frame) || grew(previous.totalSizeBytes, next.totalSizeBytes) || grew(previous.outTimeMs, next.outTimeMs);
}
