import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import type { LogLine } from '../types.ts';
import { parseLogLine } from './log-format.ts';
import type { LogLineMatcher, LogQuery, RawLinePrefilter } from './log-query.ts';

/** What a query found, and whether it stopped at the scan budget before the start of the files. */
export interface LogReadResult {
  lines: LogLine[];
  truncatedScan: boolean;
}

export interface LogReadOptions {
  /** Bytes a filtered query may read before it gives up (and says so). Default 64 MiB. */
  scanBudgetBytes?: number;
  /** Default 64 KiB. */
  blockSize?: number;
}

export const DEFAULT_SCAN_BUDGET_BYTES = 64 * 1024 * 1024;
const DEFAULT_BLOCK_SIZE = 64 * 1024;
/** `<file>.1` … `<file>.N` are looked at; the writer keeps far fewer. */
const MAX_ROTATED_FILES = 100;
const NEWLINE = 0x0a;

/**
 * The matching entries of a log and its rotated files, newest first, reading backwards from the end.
 * `current` lets the follower read its backlog from the exact handle and offset it follows from.
 */
export async function scanBackward(
  file: string,
  query: Pick<LogQuery, 'lines' | 'from' | 'to'>,
  matcher: LogLineMatcher,
  options: LogReadOptions & { current?: { handle: FileHandle; end: number }; prefilter?: RawLinePrefilter | null } = {},
): Promise<LogReadResult> {
  const budget = options.scanBudgetBytes ?? DEFAULT_SCAN_BUDGET_BYTES;
  const blockSize = options.blockSize ?? DEFAULT_BLOCK_SIZE;
  const found: LogLine[] = [];
  const seen = new Set<string>();
  const from = query.from ?? -Infinity;
  const prefilter = options.prefilter ?? null;
  let bytesRead = 0;

  for (let index = 0; index <= MAX_ROTATED_FILES; index++) {
    const own = index === 0 ? options.current : undefined;
    let handle: FileHandle;
    if (own) handle = own.handle;
    else {
      try {
        handle = await open(index === 0 ? file : `${file}.${index}`, 'r');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        if (index === 0) continue; // just rotated: the current file is not there yet
        break;
      }
    }
    try {
      const stat = await handle.stat();
      // A rotation while we read can put a file we already read at the next index: skip it.
      const key = `${stat.dev}:${stat.ino}`;
      if (seen.has(key)) continue;
      seen.add(key);
      let end = own ? own.end : stat.size;
      if (query.to !== undefined && end > 0) {
        end = await offsetOfFirstLineAfter(handle, end, query.to, blockSize);
        bytesRead += blockSize; // the bisection's reads, roughly
      }
      const blocks = new BackwardBlocks(handle, end, blockSize);
      for (;;) {
        if (bytesRead >= budget && !blocks.done) return { lines: found, truncatedScan: true };
        const lines = await blocks.next();
        if (lines === null) break;
        bytesRead += blocks.lastReadBytes;
        for (const raw of lines) {
          if (prefilter !== null && !prefilter(raw)) {
            // Cannot match; only its time still matters, to stop at `from`.
            if (from !== -Infinity && Date.parse(raw.slice(0, 24)) < from) return { lines: found, truncatedScan: false };
            continue;
          }
          const line = parseLogLine(raw);
          if (line === null) continue;
          if (line.time < from) return { lines: found, truncatedScan: false }; // everything before is older still
          if (matcher(line)) {
            found.push(line);
            if (found.length >= query.lines) return { lines: found, truncatedScan: false };
          }
        }
      }
    } finally {
      if (!own) await handle.close().catch(() => undefined);
    }
  }
  return { lines: found, truncatedScan: false };
}

/**
 * Reads a file backwards in blocks and hands out its complete lines, newest first. Bytes after the
 * last newline before `end` are a line still being written and are left out.
 */
export class BackwardBlocks {
  lastReadBytes = 0;
  private pos: number;
  private leftover: Buffer | null = null;
  private inTail = true;

  constructor(
    private readonly handle: FileHandle,
    end: number,
    private readonly blockSize: number,
  ) {
    this.pos = end;
  }

  get done(): boolean {
    return this.pos <= 0 && this.leftover === null;
  }

  /** The next block's lines, newest first (possibly none); null at the start of the file. */
  async next(): Promise<string[] | null> {
    this.lastReadBytes = 0;
    if (this.pos <= 0) {
      const rest = this.leftover;
      this.leftover = null;
      return rest && rest.length > 0 ? [rest.toString('utf8')] : null;
    }
    const start = Math.max(0, this.pos - this.blockSize);
    const block = await readExactly(this.handle, start, this.pos - start);
    this.lastReadBytes = block.length;
    this.pos = start;
    const data = this.leftover ? Buffer.concat([block, this.leftover]) : block;
    this.leftover = null;
    let end = data.length;
    if (this.inTail) {
      const newline = data.lastIndexOf(NEWLINE);
      if (newline < 0) return []; // all of it belongs to the unfinished last line
      end = newline;
      this.inTail = false;
    }
    // data[0, first newline) is the end of a line that starts in an earlier block (unless at the start).
    let from = 0;
    if (start > 0) {
      const first = data.indexOf(NEWLINE);
      if (first < 0 || first >= end) {
        this.leftover = data.subarray(0, end);
        return [];
      }
      this.leftover = data.subarray(0, first);
      from = first + 1;
    }
    // Whole lines only, so one decode cannot split a multi-byte character.
    const lines = data.toString('utf8', from, end).split('\n');
    lines.reverse();
    return lines;
  }
}

async function readExactly(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(length);
  let offset = 0;
  while (offset < length) {
    const { bytesRead } = await handle.read(buffer, offset, length - offset, position + offset);
    if (bytesRead === 0) return buffer.subarray(0, offset);
    offset += bytesRead;
  }
  return buffer;
}

/**
 * The offset of the first line whose time is after `to` (or `size`), found by bisecting the file
 * on line starts; entries are appended in time order. Lines before the offset are the candidates.
 */
async function offsetOfFirstLineAfter(handle: FileHandle, size: number, to: number, blockSize: number): Promise<number> {
  let lo = 0; // every line starting before lo has time <= to
  let hi = size; // hi is a line start with time > to, or the end
  while (hi - lo > blockSize) {
    const mid = lo + Math.floor((hi - lo) / 2);
    const probe = await firstLineAtOrAfter(handle, mid, hi, blockSize);
    if (probe === null) break; // no line starts in [mid, hi) within reach: scan from hi
    if (probe.time > to) hi = probe.start;
    else lo = probe.start + 1;
  }
  return hi;
}

async function firstLineAtOrAfter(handle: FileHandle, position: number, limit: number, blockSize: number): Promise<{ start: number; time: number } | null> {
  const data = await readExactly(handle, position - 1, Math.min(blockSize, limit - position + 1));
  // data[0] is the byte before `position`: a newline there means a line starts at `position`.
  let i = data.indexOf(NEWLINE);
  while (i >= 0 && i < data.length - 1) {
    const next = data.indexOf(NEWLINE, i + 1);
    if (next < 0) return null;
    const line = parseLogLine(data.subarray(i + 1, next).toString('utf8'));
    if (line) return { start: position + i, time: line.time };
    i = next;
  }
  return null;
}
