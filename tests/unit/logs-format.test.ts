import { describe, expect, it } from 'vitest';
import { formatLogLine, parseLogLine } from '../../engine/logs/log-format.ts';
import type { LogLine } from '../../engine/types.ts';

const at = Date.parse('2026-11-22T11:09:59.123Z');

describe('job log line format', () => {
  it('writes time, level padded to 7, source and text on one line', () => {
    expect(formatLogLine({ time: at, level: 'NOTICE', source: 'supervisor', text: 'started pid 1234' })).toBe(
      '2026-11-22T11:09:59.123Z NOTICE  supervisor started pid 1234\n',
    );
    expect(formatLogLine({ time: at, level: 'WARNING', source: 'ffmpeg', text: '[udp @ 0x5581] overrun' })).toBe(
      '2026-11-22T11:09:59.123Z WARNING ffmpeg [udp @ 0x5581] overrun\n',
    );
  });

  it('keeps a multi-line text on one line and reads it back unchanged', () => {
    const line: LogLine = { time: at, level: 'ERROR', source: 'ffmpeg', text: 'first\nsecond\r\nC:\\new\\n literal' };
    const stored = formatLogLine(line);
    expect(stored.split('\n')).toHaveLength(2);
    expect(stored).toContain('first\\nsecond\\r\\nC:\\\\new\\\\n literal');
    expect(parseLogLine(stored.slice(0, -1))).toEqual(line);
  });

  it('reads every level and an empty text back', () => {
    for (const level of ['TRACE', 'DEBUG', 'VERBOSE', 'INFO', 'NOTICE', 'WARNING', 'ERROR', 'FATAL'] as const) {
      const line: LogLine = { time: at, level, source: 'ffmpeg', text: '' };
      expect(parseLogLine(formatLogLine(line).slice(0, -1))).toEqual(line);
    }
  });

  it('ignores what is not an entry', () => {
    expect(parseLogLine('')).toBeNull();
    expect(parseLogLine('garbage line')).toBeNull();
    expect(parseLogLine('2026-11-22T11:09:59.123Z LOUD    ffmpeg x')).toBeNull();
    expect(parseLogLine('2026-11-22T11:09:59.123Z INFO    nobody x')).toBeNull();
    expect(parseLogLine('26-11-22T11:09:59.123Z INFO    ffmpeg x')).toBeNull();
  });
});
