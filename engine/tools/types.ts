import type { MediaInfo } from '../probe/media-info.ts';
import type { MtrHop } from './mtr-parser.ts';
import type { PingLineKind, PingReply, PingSummary } from './ping-parser.ts';

/** The events a tool run reports as they happen (the API streams each as one SSE event). */
export type ToolRunEvent =
  | { type: 'line'; kind: PingLineKind; text: string; reply?: PingReply }
  | { type: 'summary'; summary: PingSummary }
  | { type: 'hops'; hops: MtrHop[] }
  | { type: 'keyframe'; sample: { index: number; timeSeconds: number; intervalSeconds: number; gopFrames: number } }
  | { type: 'interval'; result: { interval: number; minSeconds: number; maxSeconds: number; gopFrames: number; count: number } }
  | { type: 'result'; mediaInfo: MediaInfo }
  | { type: 'error'; error: string; details?: Record<string, string> };

export type ToolEndReason = 'completed' | 'failed' | 'aborted' | 'timed_out';

export interface ToolRunEnd {
  reason: ToolEndReason;
  exitCode: number | null;
  durationMs: number;
}

export interface ToolRunOptions {
  signal?: AbortSignal;
  emit: (event: ToolRunEvent) => void;
  /** The program to run instead of the one on PATH. */
  program?: string;
}

/** How a run ended, from the process result and whether the tool itself reported a failure. */
export function endOf(result: { exitCode: number | null; aborted: boolean; timedOut: boolean; spawnError: string | null; durationMs: number }, failed: boolean): ToolRunEnd {
  const reason: ToolEndReason = result.aborted ? 'aborted' : result.timedOut ? 'timed_out' : failed || result.spawnError ? 'failed' : 'completed';
  return { reason, exitCode: result.exitCode, durationMs: result.durationMs };
}
