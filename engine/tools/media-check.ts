import { MEDIA_INFO_FAILED_MESSAGE, toMediaInfo } from '../probe/media-info.ts';
import { sourceArgs } from './ffprobe-source.ts';
import { runToolProcess } from './tool-process.ts';
import { endOf, type ToolRunEnd, type ToolRunOptions } from './types.ts';

export const MEDIA_CHECK_TIME_LIMIT_MS = 30_000;

export function buildMediaCheckArgs(uri: string, token?: string): string[] {
  return ['-hide_banner', '-v', 'error', '-show_programs', '-show_streams', '-show_format', '-of', 'json', ...sourceArgs(uri, token)];
}

/**
 * The media checker: ffprobe describes the source's format, programs and streams (engine/probe's
 * mapping). A failure is reported with its parts as key/value pairs (message, detail, uri, exit code).
 */
export async function runMediaCheck(uri: string, token: string | undefined, options: ToolRunOptions & { timeLimitMs?: number }): Promise<ToolRunEnd> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const result = await runToolProcess(options.program ?? 'ffprobe', buildMediaCheckArgs(uri, token), {
    signal: options.signal,
    timeoutMs: options.timeLimitMs ?? MEDIA_CHECK_TIME_LIMIT_MS,
    onStdoutLine: (line) => stdout.push(line),
    onStderrLine: (line) => line.trim() && stderr.push(line.trim()),
  });
  if (result.aborted) return endOf(result, false);
  const fail = (detail: string) => {
    options.emit({
      type: 'error',
      error: detail,
      details: { message: MEDIA_INFO_FAILED_MESSAGE, detail, uri, ...(result.exitCode !== null ? { exitCode: String(result.exitCode) } : {}) },
    });
    return endOf(result, true);
  };
  if (result.timedOut) return fail(`timed out after ${Math.round((options.timeLimitMs ?? MEDIA_CHECK_TIME_LIMIT_MS) / 1000)} s`);
  if (result.spawnError) return fail(result.spawnError);
  if (result.exitCode !== 0) return fail(stderr.at(-1) ?? `ffprobe exited with code ${result.exitCode}`);
  let info;
  try {
    info = toMediaInfo(JSON.parse(stdout.join('\n')));
  } catch (error) {
    return fail(`unreadable ffprobe output: ${(error as Error).message}`);
  }
  if (info.streams.length === 0) return fail('no streams found');
  options.emit({ type: 'result', mediaInfo: info });
  return endOf(result, false);
}
