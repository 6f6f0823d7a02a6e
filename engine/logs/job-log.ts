import { access, mkdir, open, rename, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { LogLevel, LogLine } from '../types.ts';
import { formatLogLine } from './log-format.ts';
import { levelRank } from './log-query.ts';

export interface JobLogWriterOptions {
  /** The file is rotated before it would pass this size (the job's logMaxSizeInMegaBytes × 2^20). */
  maxSizeBytes: number;
  /** Rotated files kept: `<file>.1` (newest) … `<file>.<keepFiles>`. Default 3; 0 keeps none. */
  keepFiles?: number;
  /** Lines below this level are not written (the job's log level). Default: all. */
  minLevel?: LogLevel;
  /** Told once when writing starts failing (full disk, permissions ...); default: a line on stderr. */
  onError?: (error: Error) => void;
  /** Lines waiting for a slow or failing disk are capped at this many bytes; the oldest go first. Default 8 MiB. */
  maxPendingBytes?: number;
}

/** A rotation that failed is not retried for this long, so a stuck rename does not cost a syscall per line. */
const ROTATE_RETRY_MS = 5_000;

/**
 * One job's log file. `write` only formats the line and queues it; the lines are appended in
 * order by one asynchronous writer per file, a batch per event-loop turn, so a chatty ffmpeg never
 * blocks the event loop. Before the file would pass maxSizeBytes it is renamed to `<file>.1` (older
 * ones shifted to `.2`, `.3` ...) and a new one is started: rotation happens between two whole
 * lines, nothing is lost. A write that fails (ENOSPC, EACCES ...) is reported through onError and
 * its lines are counted; when writing works again a WARNING line says how many were lost.
 */
export class JobLogWriter {
  readonly file: string;
  /** The last write error, null once writing works again. */
  lastError: Error | null = null;
  /** Lines lost since the last successful write (failed writes, or dropped past maxPendingBytes). */
  droppedLines = 0;

  private readonly maxSizeBytes: number;
  private readonly keepFiles: number;
  private readonly minRank: number;
  private readonly maxPendingBytes: number;
  private readonly onError: (error: Error) => void;
  private pending: string[] = [];
  private pendingBytes = 0;
  private scheduled = false;
  private busy = false;
  private chain: Promise<void> = Promise.resolve();
  private handle: FileHandle | null = null;
  private size = 0;
  private closed = false;
  private rotateBlockedUntil = 0;

  constructor(file: string, options: JobLogWriterOptions) {
    if (!(options.maxSizeBytes > 0)) throw new RangeError(`maxSizeBytes must be positive, got ${options.maxSizeBytes}`);
    this.file = file;
    this.maxSizeBytes = options.maxSizeBytes;
    this.keepFiles = Math.max(0, Math.floor(options.keepFiles ?? 3));
    this.minRank = options.minLevel ? levelRank(options.minLevel) : 0;
    this.maxPendingBytes = options.maxPendingBytes ?? 8 * 1024 * 1024;
    this.onError = options.onError ?? ((error) => console.error(`job log ${file}: ${error.message}`));
  }

  write(line: LogLine): void {
    if (this.closed || levelRank(line.level) < this.minRank) return;
    const entry = formatLogLine(line);
    this.pending.push(entry);
    this.pendingBytes += entry.length;
    if (this.pendingBytes > this.maxPendingBytes) this.dropOldest();
    this.schedule();
  }

  /** Resolves when every line written before the call is on disk (or reported as lost). */
  flush(): Promise<void> {
    return this.enqueue();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.enqueue();
    const handle = this.handle;
    this.handle = null;
    await handle?.close().catch(() => undefined);
  }

  private schedule(): void {
    if (this.scheduled || this.busy) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.enqueue();
    });
  }

  private enqueue(): Promise<void> {
    this.chain = this.chain.then(() => this.writePending());
    return this.chain;
  }

  private dropOldest(): void {
    let n = 0;
    while (this.pendingBytes > this.maxPendingBytes / 2 && n < this.pending.length) this.pendingBytes -= this.pending[n++].length;
    this.pending = this.pending.slice(n);
    this.droppedLines += n;
  }

  /** Never rejects: failures are reported and counted. */
  private async writePending(): Promise<void> {
    if (this.pending.length === 0) return;
    this.busy = true;
    let lines = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    // Lines lost earlier are announced first; dropOldest may add more while this batch is written.
    const announced = this.droppedLines;
    if (announced > 0) {
      const reason = this.lastError ? ` (${this.lastError.message})` : '';
      const text = `job log: ${announced} line${announced === 1 ? '' : 's'} lost${reason}`;
      lines = [formatLogLine({ time: Date.now(), level: 'WARNING', source: 'supervisor', text }), ...lines];
    }
    let written = 0;
    try {
      await this.ensureOpen();
      let chunk: string[] = [];
      let chunkBytes = 0;
      for (const entry of lines) {
        const bytes = Buffer.byteLength(entry);
        if (this.size + chunkBytes + bytes > this.maxSizeBytes && this.size + chunkBytes > 0 && Date.now() >= this.rotateBlockedUntil) {
          await this.append(chunk);
          written += chunk.length;
          chunk = [];
          chunkBytes = 0;
          await this.rotate();
        }
        chunk.push(entry);
        chunkBytes += bytes;
      }
      await this.append(chunk);
      written += chunk.length;
      this.droppedLines -= announced;
      this.lastError = null;
    } catch (error) {
      if (announced > 0 && written > 0) this.droppedLines -= announced;
      // An unwritten notice is written again next time; it is not a lost line of its own.
      this.droppedLines += lines.length - written - (announced > 0 && written === 0 ? 1 : 0);
      this.report(error as Error);
      const handle = this.handle;
      this.handle = null;
      await handle?.close().catch(() => undefined);
    } finally {
      this.busy = false;
      if (this.pending.length > 0) this.schedule();
    }
  }

  private report(error: Error): void {
    const first = this.lastError === null;
    this.lastError = error;
    if (!first) return;
    try {
      this.onError(error);
    } catch {
      // A failing reporter must not stop the writer.
    }
  }

  private async ensureOpen(): Promise<FileHandle> {
    if (this.handle) return this.handle;
    await mkdir(path.dirname(this.file), { recursive: true });
    const handle = await open(this.file, 'a');
    try {
      this.size = (await handle.stat()).size;
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
    this.handle = handle;
    return handle;
  }

  private async append(chunk: string[]): Promise<void> {
    if (chunk.length === 0) return;
    const handle = await this.ensureOpen();
    const buffer = Buffer.from(chunk.join(''));
    let offset = 0;
    while (offset < buffer.length) {
      const { bytesWritten } = await handle.write(buffer, offset, buffer.length - offset);
      offset += bytesWritten;
    }
    this.size += buffer.length;
  }

  private async rotate(): Promise<void> {
    const handle = this.handle;
    this.handle = null;
    await handle?.close().catch(() => undefined);
    try {
      if (this.keepFiles === 0) {
        await unlink(this.file);
      } else {
        // Shift the rotated files that are there (.1, .2 ... contiguous), the oldest first.
        let last = 0;
        while (last < this.keepFiles - 1 && (await exists(`${this.file}.${last + 1}`))) last++;
        for (let i = last; i >= 1; i--) await renameIfExists(`${this.file}.${i}`, `${this.file}.${i + 1}`);
        await rename(this.file, `${this.file}.1`);
      }
    } catch (error) {
      // Keep appending to the current file rather than losing lines; try again later.
      this.rotateBlockedUntil = Date.now() + ROTATE_RETRY_MS;
      this.report(error as Error);
      this.lastError = null;
    }
    await this.ensureOpen();
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

async function renameIfExists(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
