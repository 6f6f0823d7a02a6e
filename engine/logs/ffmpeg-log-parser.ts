import type { LogLevel, LogLine } from '../types.ts';

/**
 * ffmpeg's stderr with `-loglevel repeat+level+<level>` tags every line with its level, after the
 * context when there is one:
 *   `[info] Stream mapping:`
 *   `[h264 @ 0x5581] [error] non-existing PPS 0 referenced`
 *   `[udp @ 0x562d12fc61c0] [warning] Circular buffer overrun. Surviving due to overrun_nonfatal option`
 * The level tag is removed; the context stays in the text, where an operator expects it. A line
 * without a known tag is INFO.
 */

const FFMPEG_LEVELS: Record<string, LogLevel> = {
  panic: 'FATAL',
  fatal: 'FATAL',
  error: 'ERROR',
  warning: 'WARNING',
  info: 'INFO',
  verbose: 'VERBOSE',
  debug: 'DEBUG',
  trace: 'TRACE',
};

// Optional `[context @ 0xaddr] `, then `[level]`, then the message.
const TAGGED = /^(\[[^\]]* @ 0x[0-9a-fA-F]+\] )?\[(quiet|panic|fatal|error|warning|info|verbose|debug|trace)\](?: |$)/;

export function parseFfmpegLogLine(raw: string, now: number): LogLine {
  const line = raw.replace(/\s+$/, '');
  const match = TAGGED.exec(line);
  if (!match) return { time: now, level: 'INFO', text: line, source: 'ffmpeg' };
  const context = match[1] ?? '';
  return { time: now, level: FFMPEG_LEVELS[match[2]] ?? 'INFO', text: context + line.slice(match[0].length), source: 'ffmpeg' };
}

/**
 * The `-loglevel` name that makes ffmpeg print what a job's log level keeps. ffmpeg has no
 * NOTICE: a NOTICE job keeps ffmpeg's warnings and up (its INFO lines are below NOTICE).
 */
export function ffmpegLogLevelFor(level: LogLevel): string {
  switch (level) {
    case 'TRACE':
      return 'trace';
    case 'DEBUG':
      return 'debug';
    case 'VERBOSE':
      return 'verbose';
    case 'INFO':
      return 'info';
    case 'NOTICE':
    case 'WARNING':
      return 'warning';
    case 'ERROR':
      return 'error';
    case 'FATAL':
      return 'fatal';
  }
}
