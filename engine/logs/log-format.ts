import { LOG_LEVELS, type LogLevel, type LogLine } from '../types.ts';

/**
 * The job log file format: one entry per line,
 * `<ISO-8601 UTC time with ms> <LEVEL padded to 7> <source> <text>`, e.g.
 * `2026-11-22T11:09:59.123Z NOTICE  supervisor started pid 1234`.
 * The text is escaped so that an entry is always one line: `\` → `\\`, newline → `\n`,
 * carriage return → `\r`; parsing undoes exactly that.
 */

const LEVEL_SET: ReadonlySet<string> = new Set(LOG_LEVELS);

export function escapeLogText(text: string): string {
  if (!/[\\\n\r]/.test(text)) return text;
  return text.replace(/[\\\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\n' ? '\\n' : '\\r'));
}

export function unescapeLogText(text: string): string {
  if (!text.includes('\\')) return text;
  return text.replace(/\\([\\nr])/g, (_, c: string) => (c === 'n' ? '\n' : c === 'r' ? '\r' : '\\'));
}

/** One entry as it is stored, with its trailing newline. */
export function formatLogLine(line: LogLine): string {
  const time = Number.isFinite(line.time) ? new Date(line.time).toISOString() : new Date(0).toISOString();
  return `${time} ${line.level.padEnd(7)} ${line.source} ${escapeLogText(line.text)}\n`;
}

// 2026-11-22T11:09:59.123Z is 24 characters; the level starts at 25.
const TIME_LENGTH = 24;

/** Parses one stored entry (without its newline); null for anything that is not an entry. */
export function parseLogLine(raw: string): LogLine | null {
  if (raw.length < TIME_LENGTH + 2 || raw.charCodeAt(TIME_LENGTH) !== 32 || raw.charCodeAt(TIME_LENGTH - 1) !== 90 /* Z */) return null;
  const time = Date.parse(raw.slice(0, TIME_LENGTH));
  if (Number.isNaN(time)) return null;
  let i = TIME_LENGTH + 1;
  let end = raw.indexOf(' ', i);
  if (end < 0) return null;
  const level = raw.slice(i, end);
  if (!LEVEL_SET.has(level)) return null;
  i = end;
  while (raw.charCodeAt(i) === 32) i++;
  end = raw.indexOf(' ', i);
  const source = end < 0 ? raw.slice(i) : raw.slice(i, end);
  if (source !== 'ffmpeg' && source !== 'supervisor') return null;
  const text = end < 0 ? '' : unescapeLogText(raw.slice(end + 1));
  return { time, level: level as LogLevel, source, text };
}
