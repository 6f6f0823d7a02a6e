import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JobLogWriter } from '../../engine/logs/job-log.ts';
import { formatLogLine, parseLogLine } from '../../engine/logs/log-format.ts';
import { LogQueryError } from '../../engine/logs/log-query.ts';
import { readLogLines } from '../../engine/logs/log-reader.ts';
import type { LogLevel, LogLine } from '../../engine/types.ts';

const root = mkdtempSync(path.join(tmpdir(), 'mediaplane-logs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let seq = 0;
const fresh = (name = 'job.log') => path.join(mkdtempSync(path.join(root, `t${seq++}-`)), name);

const T0 = Date.parse('2026-11-22T10:00:00.000Z');
const LEVELS: LogLevel[] = ['DEBUG', 'INFO', 'INFO', 'INFO', 'WARNING', 'INFO', 'ERROR', 'INFO'];
/** Line i: one second apart, a level cycle, a searchable text. */
const entry = (i: number): LogLine => ({ time: T0 + i * 1000, level: LEVELS[i % LEVELS.length], source: 'ffmpeg', text: `[h264 @ 0x5581] frame ${i} Stream #0:${i % 3}` });
const texts = (lines: LogLine[]) => lines.map((line) => line.text);
/** Writes lines [start, end) straight to a file, as the writer would. */
function writeEntries(file: string, start: number, end: number): void {
  const parts: string[] = [];
  for (let i = start; i < end; i++) parts.push(formatLogLine(entry(i)));
  writeFileSync(file, parts.join(''));
}
let bigFile: string | undefined;
const BIG = 100_000;
/** 100 000 entries (~7 MB), written once for the tests that need a large log. */
function bigLog(): string {
  if (!bigFile) {
    bigFile = fresh();
    writeEntries(bigFile, 0, BIG);
  }
  return bigFile;
}
function readAllEntries(file: string): LogLine[] {
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((raw) => parseLogLine(raw)!);
}

describe('JobLogWriter', () => {
  it('appends the entries in order, in the job log format', async () => {
    const file = fresh();
    const writer = new JobLogWriter(file, { maxSizeBytes: 10 * 1024 * 1024 });
    writer.write({ time: Date.parse('2026-11-22T11:09:59.123Z'), level: 'NOTICE', source: 'supervisor', text: 'started pid 1234' });
    for (let i = 0; i < 2000; i++) writer.write(entry(i));
    await writer.close();
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines[0]).toBe('2026-11-22T11:09:59.123Z NOTICE  supervisor started pid 1234');
    expect(lines).toHaveLength(2002);
    expect(readAllEntries(file).slice(1)).toEqual(Array.from({ length: 2000 }, (_, i) => entry(i)));
  });

  it('does not touch the disk inside write(): the lines land after the current turn', async () => {
    const file = fresh();
    const writer = new JobLogWriter(file, { maxSizeBytes: 1024 * 1024 });
    writer.write(entry(1));
    expect(existsSync(file)).toBe(false);
    await writer.flush();
    expect(readAllEntries(file)).toEqual([entry(1)]);
    await writer.close();
  });

  it('rotates before the size would pass the limit, keeps the newest rotated files and loses no line', async () => {
    const file = fresh();
    const maxSizeBytes = 8 * 1024;
    const writer = new JobLogWriter(file, { maxSizeBytes, keepFiles: 1000 });
    for (let i = 0; i < 3000; i++) {
      writer.write(entry(i));
      if (i % 500 === 0) await writer.flush(); // batches of both sizes
    }
    await writer.close();
    const names = readdirSync(path.dirname(file));
    const rotated = names.filter((name) => name !== 'job.log').map((name) => Number(name.split('.').pop())).sort((a, b) => b - a);
    expect(rotated.length).toBeGreaterThan(10);
    expect(rotated).toEqual(Array.from({ length: rotated.length }, (_, i) => rotated.length - i));
    const ordered = [...rotated.map((n) => `${file}.${n}`), file];
    for (const name of ordered) expect(statSync(name).size).toBeLessThanOrEqual(maxSizeBytes);
    expect(ordered.flatMap(readAllEntries)).toEqual(Array.from({ length: 3000 }, (_, i) => entry(i)));
  });

  it('keeps keepFiles rotated files (3 by default)', async () => {
    const file = fresh();
    const writer = new JobLogWriter(file, { maxSizeBytes: 2048 });
    for (let i = 0; i < 500; i++) writer.write(entry(i));
    await writer.close();
    expect(readdirSync(path.dirname(file)).sort()).toEqual(['job.log', 'job.log.1', 'job.log.2', 'job.log.3']);
    const kept = [`${file}.3`, `${file}.2`, `${file}.1`, file].flatMap(readAllEntries);
    expect(kept.at(-1)).toEqual(entry(499));
    expect(texts(kept)).toEqual(texts(Array.from({ length: kept.length }, (_, i) => entry(500 - kept.length + i))));
  });

  it('writes only lines at or above the job log level', async () => {
    const file = fresh();
    const writer = new JobLogWriter(file, { maxSizeBytes: 1024 * 1024, minLevel: 'WARNING' });
    for (let i = 0; i < 16; i++) writer.write(entry(i));
    await writer.close();
    expect(readAllEntries(file).map((line) => line.level)).toEqual(['WARNING', 'ERROR', 'WARNING', 'ERROR']);
  });

  it('reports a full disk once and keeps going without throwing', async () => {
    const errors: Error[] = [];
    const writer = new JobLogWriter('/dev/full', { maxSizeBytes: 1024 * 1024, onError: (error) => errors.push(error) });
    for (let i = 0; i < 10; i++) writer.write(entry(i));
    await writer.flush();
    writer.write(entry(10));
    await writer.flush();
    await writer.close();
    expect(errors).toHaveLength(1);
    expect((errors[0] as NodeJS.ErrnoException).code).toBe('ENOSPC');
    expect(writer.droppedLines).toBe(11);
  });

  it('says how many lines were lost once writing works again', async () => {
    const dir = path.join(root, `blocked-${seq++}`);
    writeFileSync(dir, 'a file where the log directory should be');
    const errors: Error[] = [];
    const writer = new JobLogWriter(path.join(dir, 'job.log'), { maxSizeBytes: 1024 * 1024, onError: (error) => errors.push(error) });
    writer.write(entry(0));
    writer.write(entry(1));
    await writer.flush();
    expect(errors.map((error) => (error as NodeJS.ErrnoException).code)).toEqual(['EEXIST']);
    rmSync(dir);
    mkdirSync(dir);
    writer.write(entry(2));
    await writer.close();
    const lines = readAllEntries(path.join(dir, 'job.log'));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ level: 'WARNING', source: 'supervisor', text: expect.stringMatching(/^job log: 2 lines lost \(EEXIST/) });
    expect(lines[1]).toEqual(entry(2));
    expect(writer.lastError).toBeNull();
  });
});

describe('readLogLines', () => {
  const q = { lines: 30, direction: 'backward' as const };

  it('returns the last N lines newest first, or oldest first going forward', async () => {
    const file = fresh();
    writeEntries(file, 0, 5000);
    const backward = await readLogLines(file, { ...q, lines: 50 });
    expect(backward.lines).toHaveLength(50);
    expect(backward.lines[0]).toEqual(entry(4999));
    expect(backward.lines[49]).toEqual(entry(4950));
    expect(backward.truncatedScan).toBe(false);
    const forward = await readLogLines(file, { ...q, lines: 50, direction: 'forward' });
    expect(forward.lines).toEqual([...backward.lines].reverse());
  });

  it('reads only the end of a large file', async () => {
    const file = bigLog();
    const { lines, truncatedScan } = await readLogLines(file, { ...q, lines: 1000 }, { scanBudgetBytes: 256 * 1024 });
    expect(lines).toHaveLength(1000);
    expect(lines[999]).toEqual(entry(BIG - 1000));
    expect(truncatedScan).toBe(false);
  });

  it('goes on into the rotated file when the current one has too few lines', async () => {
    const file = fresh();
    writeEntries(`${file}.2`, 0, 100);
    writeEntries(`${file}.1`, 100, 200);
    writeEntries(file, 200, 210);
    const { lines } = await readLogLines(file, { ...q, lines: 150, direction: 'forward' });
    expect(lines).toEqual(Array.from({ length: 150 }, (_, i) => entry(60 + i)));
    expect((await readLogLines(file, { ...q, lines: 1000 })).lines).toHaveLength(210);
  });

  it('answers from the rotated file while the new one is not there yet, and nothing for no log', async () => {
    const file = fresh();
    writeEntries(`${file}.1`, 0, 40);
    expect((await readLogLines(file, q)).lines[0]).toEqual(entry(39));
    expect(await readLogLines(fresh(), q)).toEqual({ lines: [], truncatedScan: false });
  });

  it('filters by minimum level, text, case and regular expression, scanning back until N match', async () => {
    const file = fresh();
    writeEntries(`${file}.1`, 0, 3000);
    writeEntries(file, 3000, 3100);
    const errors = await readLogLines(file, { ...q, lines: 100, level: 'ERROR' });
    expect(errors.lines).toHaveLength(100);
    expect(errors.lines.every((line) => line.level === 'ERROR')).toBe(true);
    expect(errors.lines[0]).toEqual(entry(3094));
    const warnings = await readLogLines(file, { ...q, level: 'WARNING', direction: 'forward' });
    expect(new Set(warnings.lines.map((line) => line.level))).toEqual(new Set(['WARNING', 'ERROR']));
    expect((await readLogLines(file, { ...q, text: 'frame 12 ' })).lines).toEqual([entry(12)]);
    expect((await readLogLines(file, { ...q, text: 'STREAM #0:2', lines: 5 })).lines).toHaveLength(5);
    expect((await readLogLines(file, { ...q, text: 'STREAM #0:2', caseSensitive: true })).lines).toEqual([]);
    const regex = await readLogLines(file, { ...q, text: 'frame (7|77|777) ', regex: true, direction: 'forward' });
    expect(regex.lines).toEqual([entry(7), entry(77), entry(777)]);
  });

  it('keeps the time range, bisecting to its end instead of reading back to it', async () => {
    const file = bigLog();
    const { lines, truncatedScan } = await readLogLines(
      file,
      { ...q, lines: 1000, from: T0 + 5_000 * 1000, to: T0 + 5_499 * 1000 },
      { scanBudgetBytes: 512 * 1024 },
    );
    expect(truncatedScan).toBe(false);
    expect(lines).toHaveLength(500);
    expect(lines[0]).toEqual(entry(5499));
    expect(lines[499]).toEqual(entry(5000));
    const tail = await readLogLines(file, { ...q, lines: 10, from: T0 + (BIG - 5) * 1000 });
    expect(texts(tail.lines)).toEqual(texts([1, 2, 3, 4, 5].map((n) => entry(BIG - n))));
  });

  it('says when a filter stopped at the scan budget', async () => {
    const file = bigLog();
    const result = await readLogLines(file, { ...q, text: 'no such text' }, { scanBudgetBytes: 128 * 1024 });
    expect(result).toEqual({ lines: [], truncatedScan: true });
    const small = fresh();
    writeEntries(small, 0, 2000);
    expect(await readLogLines(small, { ...q, text: 'no such text' }, { scanBudgetBytes: 1024 * 1024 })).toEqual({ lines: [], truncatedScan: false });
  });

  it('leaves out a line still being written, keeps multi-byte text and long lines whole', async () => {
    const file = fresh();
    const long: LogLine = { time: T0, level: 'INFO', source: 'supervisor', text: 'ü€'.repeat(100_000) };
    writeFileSync(file, formatLogLine(entry(1)) + formatLogLine(long) + formatLogLine(entry(2)) + '2026-11-22T10:00:09.000Z INFO    ffmpeg half a li');
    const { lines } = await readLogLines(file, { ...q, direction: 'forward' }, { blockSize: 4096 });
    expect(lines).toEqual([entry(1), long, entry(2)]);
  });

  it('refuses an invalid regular expression with an error naming it', async () => {
    const file = fresh();
    writeEntries(file, 0, 10);
    const failure = readLogLines(file, { ...q, text: '[unclosed', regex: true });
    await expect(failure).rejects.toBeInstanceOf(LogQueryError);
    await expect(failure).rejects.toThrow('Invalid regular expression "[unclosed"');
  });
});
