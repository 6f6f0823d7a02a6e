import { LOG_LEVELS, type LogLevel, type LogLine } from '../types.ts';

/**
 * What the Logs tab asks for (spec 01 §2.9): the last N lines (30, 50, 100, 500, 1000) in either
 * order, from a minimum level up, whose text contains a string or matches a regular expression
 * (case-sensitive or not), inside a time range (ms since the epoch, both ends inclusive).
 * `direction` only orders the answer: 'backward' gives the newest line first, 'forward' the
 * oldest of those N first.
 */
export interface LogQuery {
  lines: number;
  direction: 'forward' | 'backward';
  /** Minimum level: WARNING returns WARNING, ERROR and FATAL. */
  level?: LogLevel;
  text?: string;
  regex?: boolean;
  /** Default false. */
  caseSensitive?: boolean;
  from?: number;
  to?: number;
}

/** The spec's last-lines choices; the reader accepts any count from 1 to MAX_LOG_QUERY_LINES. */
export const LOG_LINE_CHOICES = [30, 50, 100, 500, 1000] as const;
export const MAX_LOG_QUERY_LINES = 10_000;

/** A query that cannot run: an invalid regular expression, a bad line count or time range. */
export class LogQueryError extends Error {
  override readonly name = 'LogQueryError';
}

export function levelRank(level: LogLevel): number {
  return LOG_LEVELS.indexOf(level);
}

export type LogLineMatcher = (line: LogLine) => boolean;

/** Checks the query and builds its line filter; throws LogQueryError naming what is wrong. */
export function compileLogQuery(query: LogQuery): LogLineMatcher {
  if (!Number.isInteger(query.lines) || query.lines < 1 || query.lines > MAX_LOG_QUERY_LINES) {
    throw new LogQueryError(`Invalid line count ${String(query.lines)}: expected a whole number from 1 to ${MAX_LOG_QUERY_LINES}`);
  }
  if (query.direction !== 'forward' && query.direction !== 'backward') {
    throw new LogQueryError(`Invalid direction ${JSON.stringify(query.direction)}: expected "forward" or "backward"`);
  }
  if (query.level !== undefined && levelRank(query.level) < 0) {
    throw new LogQueryError(`Invalid log level ${JSON.stringify(query.level)}: expected one of ${LOG_LEVELS.join(', ')}`);
  }
  for (const key of ['from', 'to'] as const) {
    const value = query[key];
    if (value !== undefined && !Number.isFinite(value)) throw new LogQueryError(`Invalid ${key} time ${String(value)}: expected milliseconds since the epoch`);
  }
  const minRank = query.level === undefined ? 0 : levelRank(query.level);
  const from = query.from ?? -Infinity;
  const to = query.to ?? Infinity;
  const textTest = compileTextTest(query);
  return (line) => levelRank(line.level) >= minRank && line.time >= from && line.time <= to && (textTest === null || textTest(line.text));
}

function compileTextTest(query: LogQuery): ((text: string) => boolean) | null {
  const text = query.text ?? '';
  if (text === '') return null;
  if (query.regex) {
    let pattern: RegExp;
    try {
      pattern = new RegExp(text, query.caseSensitive ? '' : 'i');
    } catch (error) {
      // V8 says "Invalid regular expression: /(/i: Unterminated group"; keep the reason only.
      const reason = (error as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '');
      throw new LogQueryError(`Invalid regular expression "${text}": ${reason}`);
    }
    return (value) => pattern.test(value);
  }
  if (query.caseSensitive) return (value) => value.includes(text);
  const needle = text.toLowerCase();
  return (value) => value.toLowerCase().includes(needle);
}

/** False when a stored line (as written, before parsing) cannot match; true when it might. */
export type RawLinePrefilter = (raw: string) => boolean;

// The level of a stored line starts after `2026-11-22T11:09:59.123Z `.
const LEVEL_OFFSET = 25;

/**
 * A cheap test on the stored line that spares parsing the lines a query cannot match: the level
 * word at its fixed place, and a plain text (without characters the format escapes, so it appears
 * in the stored line exactly as in the text). Null when the query has nothing it can check this way.
 */
export function compileRawPrefilter(query: LogQuery): RawLinePrefilter | null {
  const minRank = query.level === undefined ? 0 : levelRank(query.level);
  const text = query.text ?? '';
  const plain = text !== '' && !query.regex && !/[\\\n\r]/.test(text) ? text : null;
  if (minRank === 0 && plain === null) return null;
  const needle = plain !== null && !query.caseSensitive ? plain.toLowerCase() : plain;
  return (raw) => {
    if (minRank > 0) {
      const end = raw.indexOf(' ', LEVEL_OFFSET);
      const rank = LOG_LEVELS.indexOf(raw.slice(LEVEL_OFFSET, end) as LogLevel);
      if (rank >= 0 && rank < minRank) return false;
    }
    if (needle !== null) return query.caseSensitive ? raw.includes(needle) : raw.toLowerCase().includes(needle);
    return true;
  };
}
