import { describe, expect, it } from 'vitest';
import { formatLogLine } from '../../engine/logs/log-format.ts';
import { compileLogQuery, compileRawPrefilter, LogQueryError, type LogQuery } from '../../engine/logs/log-query.ts';
import type { LogLevel, LogLine } from '../../engine/types.ts';

const base: LogQuery = { lines: 100, direction: 'backward' };
const line = (level: LogLevel, text: string, time = 1000): LogLine => ({ time, level, text, source: 'ffmpeg' });

describe('log query matching', () => {
  it('treats the level as a minimum: WARNING keeps WARNING, ERROR and FATAL', () => {
    const match = compileLogQuery({ ...base, level: 'WARNING' });
    const levels: LogLevel[] = ['TRACE', 'DEBUG', 'VERBOSE', 'INFO', 'NOTICE', 'WARNING', 'ERROR', 'FATAL'];
    expect(levels.filter((level) => match(line(level, 'x')))).toEqual(['WARNING', 'ERROR', 'FATAL']);
  });

  it('finds text case-insensitively unless asked to match case', () => {
    expect(compileLogQuery({ ...base, text: 'pps' })(line('ERROR', 'non-existing PPS 0 referenced'))).toBe(true);
    expect(compileLogQuery({ ...base, text: 'pps', caseSensitive: true })(line('ERROR', 'non-existing PPS 0 referenced'))).toBe(false);
    expect(compileLogQuery({ ...base, text: 'PPS', caseSensitive: true })(line('ERROR', 'non-existing PPS 0 referenced'))).toBe(true);
  });

  it('takes the text literally unless it is a regular expression', () => {
    expect(compileLogQuery({ ...base, text: 'dts = \\d+' })(line('WARNING', 'Packet corrupt (stream = 0, dts = 128090).'))).toBe(false);
    expect(compileLogQuery({ ...base, text: 'dts = \\d+', regex: true })(line('WARNING', 'Packet corrupt (stream = 0, dts = 128090).'))).toBe(true);
    expect(compileLogQuery({ ...base, text: '^packet', regex: true })(line('WARNING', 'Packet corrupt'))).toBe(true);
    expect(compileLogQuery({ ...base, text: '^packet', regex: true, caseSensitive: true })(line('WARNING', 'Packet corrupt'))).toBe(false);
    expect(compileLogQuery({ ...base, text: '(' })(line('INFO', 'a (b)'))).toBe(true);
  });

  it('refuses an invalid regular expression with an error naming the pattern', () => {
    expect(() => compileLogQuery({ ...base, text: 'stream (', regex: true })).toThrow(LogQueryError);
    expect(() => compileLogQuery({ ...base, text: 'stream (', regex: true })).toThrow('Invalid regular expression "stream (": Unterminated group');
  });

  it('keeps the time range, both ends included', () => {
    const match = compileLogQuery({ ...base, from: 1000, to: 2000 });
    expect([999, 1000, 1500, 2000, 2001].filter((time) => match(line('INFO', 'x', time)))).toEqual([1000, 1500, 2000]);
  });

  it('refuses a line count outside 1 to 10000 and an unknown level', () => {
    expect(() => compileLogQuery({ ...base, lines: 0 })).toThrow('Invalid line count 0');
    expect(() => compileLogQuery({ ...base, lines: 1.5 })).toThrow(LogQueryError);
    expect(() => compileLogQuery({ ...base, level: 'LOUD' as LogLevel })).toThrow('Invalid log level "LOUD"');
  });
});

describe('raw line prefilter', () => {
  const lines: LogLine[] = [
    line('INFO', 'Stream mapping:'),
    line('ERROR', '[h264 @ 0x5581] non-existing PPS 0 referenced'),
    line('WARNING', 'multi\nline ΑΣ text with C:\\path'),
    { time: 5, level: 'NOTICE', source: 'supervisor', text: 'started pid 1234' },
    line('FATAL', "Unknown encoder 'x'"),
  ];
  const queries: LogQuery[] = [
    { ...base, level: 'WARNING' },
    { ...base, text: 'pps' },
    { ...base, text: 'PPS', caseSensitive: true },
    { ...base, text: 'ας' },
    { ...base, text: 'supervisor' },
    { ...base, text: 'line\nline' },
    { ...base, level: 'ERROR', text: 'unknown' },
  ];

  it('never rejects a line the query matches, and rejects what it can tell', () => {
    let rejected = 0;
    for (const query of queries) {
      const match = compileLogQuery(query);
      const prefilter = compileRawPrefilter(query);
      for (const entry of lines) {
        const raw = formatLogLine(entry).slice(0, -1);
        const might = prefilter === null || prefilter(raw);
        if (match(entry)) expect(might, `${JSON.stringify(query)} on ${raw}`).toBe(true);
        if (!might) rejected++;
      }
    }
    expect(rejected).toBeGreaterThan(10);
  });

  it('has nothing to check for a regular expression alone', () => {
    expect(compileRawPrefilter({ ...base, text: 'a.b', regex: true })).toBeNull();
    expect(compileRawPrefilter(base)).toBeNull();
  });
});
