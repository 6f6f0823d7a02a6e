import { appendFileSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JobLogWriter } from '../../engine/logs/job-log.ts';
import { formatLogLine } from '../../engine/logs/log-format.ts';
import { LogQueryError, type LogQuery } from '../../engine/logs/log-query.ts';
import { followLog } from '../../engine/logs/log-reader.ts';
import type { LogLevel, LogLine } from '../../engine/types.ts';

const root = mkdtempSync(path.join(tmpdir(), 'mediaplane-follow-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let seq = 0;
const fresh = () => path.join(mkdtempSync(path.join(root, `t${seq++}-`)), 'job.log');

const T0 = Date.parse('2026-11-22T10:00:00.000Z');
const entry = (i: number, level: LogLevel = i % 5 === 0 ? 'ERROR' : 'INFO'): LogLine => ({ time: T0 + i, level, source: 'ffmpeg', text: `line ${i}` });
const all: LogQuery = { lines: 100, direction: 'forward' };

/** Follows a log, collecting lines; `until(n)` resolves once n lines have arrived. */
function follow(file: string, query: LogQuery = all, options: { backlog?: number; pollIntervalMs?: number } = {}) {
  const lines: LogLine[] = [];
  const controller = new AbortController();
  let waiting: { n: number; resolve: () => void } | null = null;
  let ready!: () => void;
  const started = new Promise<void>((resolve) => (ready = resolve));
  const done = followLog(
    file,
    query,
    (line) => {
      lines.push(line);
      if (waiting && lines.length >= waiting.n) waiting.resolve();
    },
    controller.signal,
    { ...options, onReady: ready },
  );
  return {
    lines,
    done,
    started,
    stop: () => controller.abort(),
    until: (n: number) => (lines.length >= n ? Promise.resolve() : new Promise<void>((resolve) => (waiting = { n, resolve }))),
  };
}

describe('followLog', () => {
  it('emits only the lines appended after it starts, as they are appended', async () => {
    const file = fresh();
    writeFileSync(file, formatLogLine(entry(0)) + formatLogLine(entry(1)));
    const follower = follow(file);
    await follower.started;
    const writer = new JobLogWriter(file, { maxSizeBytes: 1024 * 1024 });
    writer.write(entry(2));
    writer.write(entry(3));
    await follower.until(2);
    writer.write(entry(4));
    await follower.until(3);
    follower.stop();
    await follower.done;
    await writer.close();
    expect(follower.lines).toEqual([entry(2), entry(3), entry(4)]);
  });

  it('starts with the backlog of matching lines, then follows from exactly where it ended', async () => {
    const file = fresh();
    writeFileSync(file, Array.from({ length: 20 }, (_, i) => formatLogLine(entry(i))).join('') + '2026-11-22T10:00:00.020Z INFO    ffmpeg line');
    const follower = follow(file, { ...all, level: 'ERROR' }, { backlog: 2 });
    await follower.until(2);
    expect(follower.lines).toEqual([entry(10), entry(15)]);
    appendFileSync(file, ` 20 completed\n${formatLogLine(entry(21))}${formatLogLine(entry(25))}`);
    await follower.until(3);
    follower.stop();
    await follower.done;
    expect(follower.lines).toEqual([entry(10), entry(15), entry(25)]);
  });

  it('keeps up across rotations without losing or repeating a line', async () => {
    const file = fresh();
    const writer = new JobLogWriter(file, { maxSizeBytes: 4096, keepFiles: 1000 });
    writer.write(entry(0));
    await writer.flush();
    const follower = follow(file);
    await follower.started;
    const total = 3000;
    for (let i = 1; i <= total; i++) {
      writer.write(entry(i));
      if (i % 250 === 0) await writer.flush();
    }
    await writer.close();
    await follower.until(total);
    follower.stop();
    await follower.done;
    expect(follower.lines.map((line) => line.text)).toEqual(Array.from({ length: total }, (_, i) => `line ${i + 1}`));
  });

  it('reads whole the files rotated past between two looks', async () => {
    const file = fresh();
    writeFileSync(file, formatLogLine(entry(1)));
    const follower = follow(file, all, { pollIntervalMs: 60_000 });
    await follower.started;
    // All in one turn of the event loop: the follower sees the end state only.
    appendFileSync(file, formatLogLine(entry(2)));
    renameSync(file, `${file}.1`);
    writeFileSync(file, formatLogLine(entry(3)) + formatLogLine(entry(4)));
    renameSync(`${file}.1`, `${file}.2`);
    renameSync(file, `${file}.1`);
    writeFileSync(file, formatLogLine(entry(5)));
    await follower.until(4);
    follower.stop();
    await follower.done;
    expect(follower.lines).toEqual([entry(2), entry(3), entry(4), entry(5)]);
  });

  it('reads a file that appears later and one replaced by a rename', async () => {
    const file = fresh();
    const follower = follow(file, all, { pollIntervalMs: 50 });
    await follower.started;
    writeFileSync(file, formatLogLine(entry(1)));
    await follower.until(1);
    const next = `${file}.new`;
    writeFileSync(next, formatLogLine(entry(2)));
    renameSync(next, file);
    await follower.until(2);
    follower.stop();
    await follower.done;
    expect(follower.lines).toEqual([entry(1), entry(2)]);
  });

  it('applies the filters and stops when the signal aborts', async () => {
    const file = fresh();
    writeFileSync(file, '');
    const follower = follow(file, { ...all, text: 'LINE 1\\d$', regex: true });
    await follower.started;
    appendFileSync(file, [1, 2, 10, 12, 30].map((i) => formatLogLine(entry(i))).join(''));
    await follower.until(2);
    follower.stop();
    await follower.done;
    appendFileSync(file, formatLogLine(entry(11)));
    expect(follower.lines).toEqual([entry(10), entry(12)]);
  });

  it('ends with the consumer error when onLine throws, and refuses an invalid query', async () => {
    const file = fresh();
    writeFileSync(file, '');
    let ready!: () => void;
    const started = new Promise<void>((resolve) => (ready = resolve));
    const failing = followLog(file, all, () => { throw new Error('consumer gone'); }, new AbortController().signal, { onReady: ready });
    await started;
    appendFileSync(file, formatLogLine(entry(1)));
    await expect(failing).rejects.toThrow('consumer gone');
    await expect(followLog(file, { ...all, text: '(', regex: true }, () => undefined, new AbortController().signal)).rejects.toBeInstanceOf(LogQueryError);
  });
});
