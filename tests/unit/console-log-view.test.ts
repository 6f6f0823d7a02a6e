import { describe, expect, it } from 'vitest';
import { DEFAULT_LOG_VIEW, followQueryOf, logsQueryOf, mergeFollowed, parsePickerText, toPickerText, type LogView } from '../../console/src/features/jobs/logs/logQuery.ts';

const view = (change: Partial<LogView>): LogView => ({ ...DEFAULT_LOG_VIEW, ...change });
const line = (second: number, text: string) => ({ timestamp: `2026-11-22T10:00:${String(second).padStart(2, '0')}.000Z`, level: 'NOTICE' as const, text });

describe('the log viewer query (spec 01 §2.9)', () => {
  it('asks for the last 100 lines, newest first, with nothing filtered by default', () => {
    expect(logsQueryOf(DEFAULT_LOG_VIEW)).toEqual({ lines: 100, direction: 'backward' });
  });

  it('sends the text as it is for Contains, and anchors it as a regular expression for the other filter types', () => {
    expect(logsQueryOf(view({ text: 'a.b' }))).toMatchObject({ text: 'a.b' });
    expect(logsQueryOf(view({ text: 'a.b' })).regex).toBeUndefined();
    expect(logsQueryOf(view({ text: 'a.b', filterType: 'startsWith' }))).toMatchObject({ text: '^a\\.b', regex: 'true' });
    expect(logsQueryOf(view({ text: 'a.b', filterType: 'endsWith' }))).toMatchObject({ text: 'a\\.b$', regex: 'true' });
    expect(logsQueryOf(view({ text: 'a|b', filterType: 'exact', regex: true }))).toMatchObject({ text: '^(?:a|b)$', regex: 'true' });
    expect(logsQueryOf(view({ text: 'x', caseSensitive: true, level: 'WARNING' }))).toMatchObject({ text: 'x', caseSensitive: 'true', level: 'WARNING' });
  });

  it('reads the start and end pickers as dd-MM-yyyy HH:mm:ss in local time, only while enabled', () => {
    const ms = new Date(2026, 10, 22, 9, 5, 7).getTime();
    expect(toPickerText(ms)).toBe('22-11-2026 09:05:07');
    expect(parsePickerText('22-11-2026 09:05:07')).toBe(ms);
    expect(parsePickerText('22-11-2026')).toBe(new Date(2026, 10, 22).getTime());
    expect(parsePickerText('31-02-2026 10:00')).toBeUndefined();
    expect(parsePickerText('2026-11-22')).toBeUndefined();
    expect(logsQueryOf(view({ from: '22-11-2026 09:05:07' })).from).toBeUndefined();
    expect(logsQueryOf(view({ fromEnabled: true, from: '22-11-2026 09:05:07' })).from).toBe(new Date(ms).toISOString());
    expect(logsQueryOf(view({ toEnabled: true, to: 'not a date' })).to).toBeUndefined();
  });

  it('follows with the same filters and a backlog that covers the gap before the follow starts', () => {
    expect(followQueryOf(view({ lines: 30, text: 'x', level: 'ERROR' }))).toEqual({ text: 'x', level: 'ERROR', backlog: 30 });
    expect(followQueryOf(view({ lines: 1000 })).backlog).toBe(100);
  });
});

describe('merging followed lines into the read', () => {
  const read = [line(3, 'c'), line(2, 'b'), line(1, 'a')];

  it('puts new lines at the top going backward and at the bottom going forward, keeping the last N', () => {
    expect(mergeFollowed(read, [line(4, 'd')], { direction: 'backward', lines: 3 }).map((l) => l.text)).toEqual(['d', 'c', 'b']);
    expect(mergeFollowed([...read].reverse(), [line(4, 'd')], { direction: 'forward', lines: 30 }).map((l) => l.text)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('drops followed lines the read already shows or that are older than its newest line', () => {
    const followed = [line(2, 'b'), line(3, 'c'), line(3, 'c2'), line(4, 'd'), line(4, 'd')];
    expect(mergeFollowed(read, followed, { direction: 'backward', lines: 30 }).map((l) => l.text)).toEqual(['d', 'c2', 'c', 'b', 'a']);
  });
});
