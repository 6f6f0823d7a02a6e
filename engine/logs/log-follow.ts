import { watch, type FSWatcher } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { LogLine } from '../types.ts';
import { parseLogLine } from './log-format.ts';
import { compileLogQuery, type LogLineMatcher, type LogQuery } from './log-query.ts';
import { scanBackward } from './log-scan.ts';

export interface FollowLogOptions {
  /**
   * First emit up to this many matching lines that are already in the log (oldest first), read
   * from the very offset following starts at, so nothing is missed or repeated in between.
   */
  backlog?: number;
  /** The safety-net poll for when a file-system event is missed. Default 1000 ms. */
  pollIntervalMs?: number;
  /** Called once the starting point is fixed (after the backlog): every line appended from then on is emitted. */
  onReady?: () => void;
}

const CHUNK_SIZE = 64 * 1024;
const NEWLINE = 0x0a;
const MAX_ROTATED_FILES = 100;

/** Thrown by onLine: ends the follow with that error. */
class ConsumerError extends Error {
  constructor(readonly original: unknown) {
    super('onLine failed');
  }
}

/**
 * Emits the entries appended to a job log from now on (the query's level, text, regular expression,
 * case and time filters apply; `lines` and `direction` do not), until `signal` aborts. Woken by
 * fs.watch on the log's directory, with a bounded poll as a safety net. Survives rotation: the old
 * file is read to its end through the handle already open, any file rotated past unseen is read
 * whole, then the new file from its start. Resolves when aborted; rejects when onLine throws (with
 * that error) or the query is invalid (LogQueryError).
 */
export async function followLog(
  file: string,
  query: LogQuery,
  onLine: (line: LogLine) => void,
  signal: AbortSignal,
  options: FollowLogOptions = {},
): Promise<void> {
  const matcher = compileLogQuery(query);
  if (signal.aborted) return;
  const tail = new FileTail(file, matcher, onLine);
  try {
    await tail.start(options.backlog ?? 0, query);
  } catch (error) {
    await tail.close();
    throw error instanceof ConsumerError ? error.original : error;
  }
  if (signal.aborted) {
    await tail.close();
    return;
  }

  return new Promise<void>((resolve, reject) => {
    let running: Promise<void> | null = null;
    let again = false;
    let finished = false;
    let watcher: FSWatcher | null = null;

    const finish = (error?: unknown): void => {
      if (finished) return;
      finished = true;
      clearInterval(timer);
      signal.removeEventListener('abort', onAbort);
      watcher?.close();
      void (running ?? Promise.resolve())
        .then(() => tail.close())
        .then(() => (error === undefined ? resolve() : reject(error)));
    };
    const onAbort = (): void => finish();

    const check = (): void => {
      if (finished) return;
      if (running) {
        again = true;
        return;
      }
      running = (async () => {
        do {
          again = false;
          try {
            await tail.check();
          } catch (error) {
            // A consumer error ends the follow; file errors (permissions, a vanished file) are retried.
            if (error instanceof ConsumerError) {
              running = null;
              finish(error.original);
              return;
            }
          }
        } while (again && !finished);
        running = null;
      })();
    };

    const base = path.basename(file);
    try {
      watcher = watch(path.dirname(file), { persistent: false }, (_event, name) => {
        if (!name || name === base || name.startsWith(`${base}.`)) check();
      });
      watcher.on('error', () => {
        watcher?.close();
        watcher = null;
      });
    } catch {
      watcher = null; // no watch support (or no directory yet): the poll does the work
    }
    const timer = setInterval(check, Math.max(20, options.pollIntervalMs ?? 1000));
    signal.addEventListener('abort', onAbort, { once: true });
    options.onReady?.();
    check(); // catch what was appended while we set up
  });
}

/** The follower's cursor: an open handle on the file it reads, and the offset of its next line. */
class FileTail {
  private handle: FileHandle | null = null;
  private dev = 0;
  private ino = 0;
  private pos = 0;
  private partial: Buffer | null = null;

  constructor(
    private readonly file: string,
    private readonly matcher: LogLineMatcher,
    private readonly onLine: (line: LogLine) => void,
  ) {}

  async start(backlog: number, query: LogQuery): Promise<void> {
    if (!(await this.openCurrent())) return;
    const handle = this.handle!;
    const size = (await handle.stat()).size;
    // Start after the last complete line: a line being written is emitted once it is complete.
    this.pos = await offsetAfterLastNewline(handle, size);
    if (backlog > 0) {
      const { lines } = await scanBackward(this.file, { ...query, lines: backlog }, this.matcher, { current: { handle, end: this.pos } });
      for (let i = lines.length - 1; i >= 0; i--) this.emit(lines[i]);
    }
  }

  async check(): Promise<void> {
    if (this.handle) await this.drain();
    let current;
    try {
      current = await stat(this.file);
    } catch {
      return; // rotated away and not created again yet, or not created at all yet
    }
    if (this.handle && current.ino === this.ino && current.dev === this.dev) {
      if (current.size < this.pos) {
        // Truncated in place: read it again from the start.
        this.pos = 0;
        this.partial = null;
        await this.drain();
      }
      return;
    }
    if (this.handle) {
      // A new file took the name: finish the old one, then read any we missed whole, oldest first.
      await this.drain();
      this.emitPartial();
      const missed = await this.rotatedSince(this.dev, this.ino);
      await this.close();
      for (const name of missed) await this.readWhole(name);
    }
    if (await this.openCurrent()) await this.drain();
  }

  async close(): Promise<void> {
    const handle = this.handle;
    this.handle = null;
    await handle?.close().catch(() => undefined);
  }

  private async openCurrent(): Promise<boolean> {
    try {
      this.handle = await open(this.file, 'r');
    } catch {
      return false;
    }
    const { dev, ino } = await this.handle.stat();
    this.dev = dev;
    this.ino = ino;
    this.pos = 0;
    this.partial = null;
    return true;
  }

  /** Paths of the files rotated after the one we had open (its inode now at `<file>.k`): `.k-1` … `.1`. */
  private async rotatedSince(dev: number, ino: number): Promise<string[]> {
    for (let k = 1; k <= MAX_ROTATED_FILES; k++) {
      let rotated;
      try {
        rotated = await stat(`${this.file}.${k}`);
      } catch {
        return [];
      }
      if (rotated.dev === dev && rotated.ino === ino) {
        const names = [];
        for (let j = k - 1; j >= 1; j--) names.push(`${this.file}.${j}`);
        return names;
      }
    }
    return [];
  }

  private async readWhole(name: string): Promise<void> {
    let handle: FileHandle;
    try {
      handle = await open(name, 'r');
    } catch {
      return;
    }
    try {
      await this.readFrom(handle, 0);
      this.emitPartial();
    } finally {
      await handle.close().catch(() => undefined);
    }
  }

  private async drain(): Promise<void> {
    this.pos = await this.readFrom(this.handle!, this.pos);
  }

  /** Reads from `position` to the current end, emitting complete lines; returns the new position. */
  private async readFrom(handle: FileHandle, position: number): Promise<number> {
    const buffer = Buffer.allocUnsafe(CHUNK_SIZE);
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK_SIZE, position);
      if (bytesRead === 0) return position;
      position += bytesRead;
      let data = buffer.subarray(0, bytesRead);
      if (this.partial) {
        data = Buffer.concat([this.partial, data]);
        this.partial = null;
      }
      let start = 0;
      for (let i = data.indexOf(NEWLINE); i >= 0; i = data.indexOf(NEWLINE, start)) {
        this.emitRaw(data.subarray(start, i));
        start = i + 1;
      }
      if (start < data.length) this.partial = Buffer.from(data.subarray(start));
    }
  }

  private emitPartial(): void {
    const rest = this.partial;
    this.partial = null;
    if (rest && rest.length > 0) this.emitRaw(rest);
  }

  private emitRaw(raw: Buffer): void {
    const line = parseLogLine(raw.toString('utf8'));
    if (line && this.matcher(line)) this.emit(line);
  }

  private emit(line: LogLine): void {
    try {
      this.onLine(line);
    } catch (error) {
      throw new ConsumerError(error);
    }
  }
}

async function offsetAfterLastNewline(handle: FileHandle, size: number): Promise<number> {
  const buffer = Buffer.allocUnsafe(CHUNK_SIZE);
  for (let end = size; end > 0; ) {
    const start = Math.max(0, end - CHUNK_SIZE);
    const { bytesRead } = await handle.read(buffer, 0, end - start, start);
    const newline = buffer.subarray(0, bytesRead).lastIndexOf(NEWLINE);
    if (newline >= 0) return start + newline + 1;
    end = start;
  }
  return 0;
}
