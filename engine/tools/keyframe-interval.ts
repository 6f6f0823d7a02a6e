import { lineBuffered, sourceArgs } from './ffprobe-source.ts';
import { runToolProcess } from './tool-process.ts';
import { endOf, type ToolRunEnd, type ToolRunOptions } from './types.ts';

/** A live source is read in real time: 1000 intervals of a long GOP take a while, but not forever. */
export const KEYFRAME_TIME_LIMIT_MS = 15 * 60_000;

export function buildKeyframeArgs(uri: string, token?: string): string[] {
  return [
    '-hide_banner', '-v', 'error',
    // One second of analysis is enough to find a video stream and starts the count sooner.
    '-analyzeduration', '1000000',
    '-select_streams', 'v:0',
    '-show_entries', 'packet=pts_time,dts_time,flags',
    '-of', 'compact=p=0',
    ...sourceArgs(uri, token),
  ];
}

/** "pts_time=1.480000|dts_time=1.400000|flags=K_" -> its fields. */
export function parsePacketLine(line: string): { time: number | null; key: boolean } | null {
  if (!line.includes('flags=')) return null;
  const fields = Object.fromEntries(line.split('|').map((field) => field.split('=') as [string, string]));
  const time = [fields.pts_time, fields.dts_time].map(Number).find((value, i) => [fields.pts_time, fields.dts_time][i] !== 'N/A' && Number.isFinite(value));
  return { time: time ?? null, key: (fields.flags ?? '').includes('K') };
}

/**
 * The keyframe interval of a source's first video stream: ffprobe reads its packets (nothing is
 * decoded) and each keyframe closes an interval, reported as it is read, until `intervalCount`
 * intervals were measured; then the mean, min and max. The process is ended then, or when the
 * client stops, or at the time limit.
 */
export async function runKeyframeInterval(uri: string, token: string | undefined, intervalCount: number, options: ToolRunOptions & { timeLimitMs?: number }): Promise<ToolRunEnd> {
  const enough = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, enough.signal]) : enough.signal;
  const intervals: Array<{ seconds: number; frames: number }> = [];
  let previous: { time: number; at: number } | null = null;
  let packets = 0;
  const stderr: string[] = [];
  const { program, args } = lineBuffered(options.program ?? 'ffprobe', buildKeyframeArgs(uri, token));
  const result = await runToolProcess(program, args, {
    signal,
    timeoutMs: options.timeLimitMs ?? KEYFRAME_TIME_LIMIT_MS,
    onStdoutLine: (line) => {
      const packet = parsePacketLine(line);
      if (!packet || enough.signal.aborted) return;
      packets += 1;
      if (!packet.key || packet.time === null) return;
      if (previous) {
        const seconds = Math.round((packet.time - previous.time) * 1000) / 1000;
        const frames = packets - previous.at;
        intervals.push({ seconds, frames });
        options.emit({ type: 'keyframe', sample: { index: intervals.length, timeSeconds: packet.time, intervalSeconds: seconds, gopFrames: frames } });
        if (intervals.length >= intervalCount) enough.abort();
      }
      previous = { time: packet.time, at: packets };
    },
    onStderrLine: (line) => line.trim() && stderr.push(line.trim()),
  });
  const stoppedByUs = enough.signal.aborted && !options.signal?.aborted;
  let failed = false;
  if (intervals.length > 0) {
    const seconds = intervals.map((i) => i.seconds);
    const round = (n: number) => Math.round(n * 1000) / 1000;
    options.emit({
      type: 'interval',
      result: {
        interval: round(seconds.reduce((a, b) => a + b, 0) / seconds.length),
        minSeconds: Math.min(...seconds),
        maxSeconds: Math.max(...seconds),
        gopFrames: Math.round((intervals.reduce((a, i) => a + i.frames, 0) / intervals.length) * 10) / 10,
        count: intervals.length,
      },
    });
  }
  if (!stoppedByUs && !options.signal?.aborted && !result.timedOut && intervals.length < intervalCount) {
    failed = true;
    const error = result.spawnError ?? stderr.at(-1) ?? (packets === 0 ? 'no video stream found' : previous === null ? 'no keyframe found' : `the source ended after ${intervals.length} of ${intervalCount} intervals`);
    options.emit({ type: 'error', error });
  }
  const end = endOf({ ...result, aborted: result.aborted && !stoppedByUs }, failed);
  return stoppedByUs ? { ...end, reason: 'completed' } : end;
}
