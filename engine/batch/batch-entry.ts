import { stat } from 'node:fs/promises';
import { probeMediaInfo } from '../probe/media-info.ts';
import type { BatchItem, BatchPlan } from './batch-plan.ts';

/** A batch file's outcome; the spec's results table falls back to NONE when there is none. */
export type BatchStatus = 'DONE' | 'FAILED' | 'NONE';

/** The spec's batch log entry (01 §3, §2.9), one per source file of a batch run. */
export interface BatchLogEntry {
  /** ISO-8601 UTC. */
  startTime: string | null;
  endTime: string | null;
  elapsedTimeInSeconds: number | null;
  sourceFile: string;
  sourceFileDurationInSeconds: number | null;
  sourceFileSizeInBytes: number | null;
  outputFiles: string[];
  /** Source bits transcoded per second of wall time. */
  transcodingSpeedInBitsPerSecond: number | null;
  /** Source duration / elapsed time: 2 means twice as fast as playing it. */
  transcodingSpeedToPlaySpeedRatio: number | null;
  jobName: string;
  status: BatchStatus;
}

export interface BatchEntryInput {
  jobName: string;
  sourceFile: string;
  outputFiles: readonly string[];
  /** ms since the epoch */
  startTime?: number | null;
  endTime?: number | null;
  sourceFileDurationInSeconds?: number | null;
  sourceFileSizeInBytes?: number | null;
  status?: BatchStatus | null;
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
const known = (value: number | null | undefined): value is number => typeof value === 'number' && Number.isFinite(value);

/** Builds the entry with every field; what cannot be known is null, a missing status is NONE. */
export function batchEntry(input: BatchEntryInput): BatchLogEntry {
  const start = known(input.startTime) ? input.startTime : null;
  const end = known(input.endTime) ? input.endTime : null;
  const elapsed = start !== null && end !== null && end >= start ? (end - start) / 1000 : null;
  const duration = known(input.sourceFileDurationInSeconds) && input.sourceFileDurationInSeconds >= 0 ? input.sourceFileDurationInSeconds : null;
  const size = known(input.sourceFileSizeInBytes) && input.sourceFileSizeInBytes >= 0 ? input.sourceFileSizeInBytes : null;
  const positiveElapsed = elapsed !== null && elapsed > 0 ? elapsed : null;
  return {
    startTime: start === null ? null : new Date(start).toISOString(),
    endTime: end === null ? null : new Date(end).toISOString(),
    elapsedTimeInSeconds: elapsed === null ? null : round(elapsed, 3),
    sourceFile: input.sourceFile,
    sourceFileDurationInSeconds: duration === null ? null : round(duration, 3),
    sourceFileSizeInBytes: size,
    outputFiles: [...input.outputFiles],
    transcodingSpeedInBitsPerSecond: size !== null && positiveElapsed !== null ? Math.round((size * 8) / positiveElapsed) : null,
    transcodingSpeedToPlaySpeedRatio: duration !== null && positiveElapsed !== null ? round(duration / positiveElapsed, 3) : null,
    jobName: input.jobName,
    status: input.status ?? 'NONE',
  };
}

export interface BatchTranscodeResult {
  status: 'DONE' | 'FAILED';
  /** The files written; the item's outputs when absent. */
  outputFiles?: string[];
  /** When the transcoder knows it; otherwise the source is probed. */
  sourceFileDurationInSeconds?: number;
}

export interface RunBatchOptions {
  jobName?: string;
  /** Stops before the next file; the one running gets the signal too. */
  signal?: AbortSignal;
  /** Source duration lookup; default: ffprobe (null when it cannot tell). */
  probeDurationSeconds?: (file: string) => Promise<number | null>;
}

async function probeDuration(file: string): Promise<number | null> {
  try {
    return (await probeMediaInfo(file, { timeoutMs: 15_000 })).format.durationSeconds ?? null;
  } catch {
    return null;
  }
}

/**
 * Transcodes the plan's files one after the other and hands an entry per file to onEntry (awaited,
 * in order) as each finishes; a failed file (FAILED, or transcodeOne threw) does not stop the batch.
 * Returns the entries.
 */
export async function runBatch(
  plan: BatchPlan,
  transcodeOne: (item: BatchItem, signal?: AbortSignal) => Promise<BatchTranscodeResult>,
  onEntry: (entry: BatchLogEntry) => void | Promise<void>,
  options: RunBatchOptions = {},
): Promise<BatchLogEntry[]> {
  const entries: BatchLogEntry[] = [];
  const durationOf = options.probeDurationSeconds ?? probeDuration;
  for (const item of plan.items) {
    if (options.signal?.aborted) break;
    const size = await stat(item.sourceFile).then((s) => s.size, () => null);
    const startTime = Date.now();
    let result: BatchTranscodeResult;
    try {
      result = await transcodeOne(item, options.signal);
    } catch {
      result = { status: 'FAILED' };
    }
    const endTime = Date.now();
    const entry = batchEntry({
      jobName: options.jobName ?? '',
      sourceFile: item.sourceFile,
      outputFiles: result.outputFiles ?? item.outputs,
      startTime,
      endTime,
      sourceFileDurationInSeconds: result.sourceFileDurationInSeconds ?? (await durationOf(item.sourceFile)),
      sourceFileSizeInBytes: size,
      status: result.status,
    });
    entries.push(entry);
    await onEntry(entry);
  }
  return entries;
}
