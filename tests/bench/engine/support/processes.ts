import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import { execa } from 'execa';
import { readProcTable } from '../../../../engine/stats/process-tree.ts';
import { signalGroup, trackGroup, untrackGroup } from '../../../../engine/supervisor/process-group.ts';
import { ProgressParser } from '../../../../engine/supervisor/progress-parser.ts';
import type { Progress } from '../../../../engine/types.ts';

/**
 * Processes the benchmark starts itself (bare ffmpeg, the paced senders) and what it reads of every
 * process from /proc. Each child leads its own process group (like the product's jobs), so one
 * signal ends it and its CPU is the sum over the group.
 */

export const FFMPEG = 'ffmpeg';

let clock: { ticksPerSecond: number; pageSize: number } | undefined;
function systemClock(): { ticksPerSecond: number; pageSize: number } {
  clock ??= {
    ticksPerSecond: Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100,
    pageSize: Number(execFileSync('getconf', ['PAGESIZE'], { encoding: 'utf8' }).trim()) || 4096,
  };
  return clock;
}

export interface CpuSample {
  /** CPU seconds used so far (user + system). */
  cpuSeconds: number;
  rssBytes: number;
  /** performance.now() of the reading. */
  at: number;
}

/** CPU and memory of several process groups from ONE fresh scan of /proc (zombies left out). */
export async function sampleGroups(pgids: number[]): Promise<Map<number, CpuSample & { pids: number[] }>> {
  const { ticksPerSecond, pageSize } = systemClock();
  const at = performance.now();
  const { entries } = await readProcTable({ fresh: true });
  const wanted = new Set(pgids);
  const result = new Map<number, CpuSample & { pids: number[] }>();
  for (const pgid of pgids) result.set(pgid, { cpuSeconds: 0, rssBytes: 0, at, pids: [] });
  for (const entry of entries) {
    if (!wanted.has(entry.pgid) || entry.state === 'Z') continue;
    const sample = result.get(entry.pgid)!;
    sample.cpuSeconds += entry.cpuTicks / ticksPerSecond;
    sample.rssBytes += entry.rssPages * pageSize;
    sample.pids.push(entry.pid);
  }
  return result;
}

/**
 * CPU and memory of a process and its direct children (e.g. a postmaster and its backends, which
 * lead process groups of their own). The CPU counts the children it has reaped too (cutime and
 * cstime of its /proc stat): a backend that ends between two samples moves from the children's sum
 * into the parent's, so the difference of two samples is never short of it.
 */
export async function sampleProcessAndChildren(pid: number): Promise<CpuSample & { pids: number[] }> {
  const { ticksPerSecond, pageSize } = systemClock();
  const at = performance.now();
  const { entries } = await readProcTable({ fresh: true });
  const sample = { cpuSeconds: reapedChildrenCpuSeconds(pid, ticksPerSecond), rssBytes: 0, at, pids: [] as number[] };
  for (const entry of entries) {
    if ((entry.pid !== pid && entry.ppid !== pid) || entry.state === 'Z') continue;
    sample.cpuSeconds += entry.cpuTicks / ticksPerSecond;
    sample.rssBytes += entry.rssPages * pageSize;
    sample.pids.push(entry.pid);
  }
  return sample;
}

function reapedChildrenCpuSeconds(pid: number, ticksPerSecond: number): number {
  try {
    const f = statFields(pid);
    return (Number(f[13]) + Number(f[14])) / ticksPerSecond;
  } catch {
    return 0; // gone: its own sample says so
  }
}

/** The fields of /proc/<pid>/stat after the command name (f[0] is the state; utime is f[11]). */
function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** One process's own CPU (all its threads, not its children) and resident memory. */
export function sampleProcess(pid: number): CpuSample {
  const { ticksPerSecond, pageSize } = systemClock();
  const f = statFields(pid);
  return { cpuSeconds: (Number(f[11]) + Number(f[12])) / ticksPerSecond, rssBytes: Number(f[21]) * pageSize, at: performance.now() };
}

/** Busy and total jiffies of the whole machine (first line of /proc/stat). */
export function machineCpu(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  const idle = fields[3] + (fields[4] ?? 0);
  return { busy: total - idle, total };
}

export function processGroupOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
}

export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

export function commandLine(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((a) => a !== '');
  } catch {
    return [];
  }
}

/** Live processes whose environment holds `name=value` (children inherit the environment of whoever started them). */
export function processesWithEnv(name: string, value: string): Array<{ pid: number; pgid: number; args: string[] }> {
  const marker = `${name}=${value}`;
  const found = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    try {
      if (!readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(marker) || !isAlive(pid)) continue;
      found.push({ pid, pgid: processGroupOf(pid), args: commandLine(pid) });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

/** Live processes whose command line contains one of the needles (a port, a directory ...). */
export function processesMatching(needles: string[]): Array<{ pid: number; pgid: number; args: string[] }> {
  if (needles.length === 0) return [];
  const found = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    const args = commandLine(pid);
    const joined = args.join(' ');
    if (!needles.some((needle) => joined.includes(needle)) || !isAlive(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const pgid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      found.push({ pid, pgid, args });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

export interface ChildProcessHandle {
  readonly pid: number;
  /** performance.now() right after the spawn call returned. */
  readonly spawnedAt: number;
  readonly exited: boolean;
  readonly exit: Promise<void>;
  lastProgress: Progress | undefined;
  /** The last lines of stderr (for error messages). */
  stderrTail(): string;
  /** ffmpeg's own reason when it gave up, e.g. "dimensions not set" (its last error line). */
  failure(): string;
  /** Resolves with the first progress block; rejects if the process ends first. */
  running(): Promise<void>;
  /** Every progress block, as it arrives. */
  onProgress(listener: (progress: Progress, at: number) => void): void;
  /** SIGKILL to the whole group; resolves once the leader is gone. */
  kill(): Promise<void>;
}

const live = new Set<ChildProcessHandle>();

/**
 * Spawns ffmpeg with an argv list (no shell) as the leader of its own process group, with fd 3 a
 * pipe for `-progress pipe:3` (as the product gives it), stderr drained and its tail kept.
 */
export function spawnFfmpeg(args: string[]): ChildProcessHandle {
  const child = execa(FFMPEG, args, {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    detached: true,
    buffer: false,
    reject: false,
    cleanup: false,
    stripFinalNewline: false,
  });
  const spawnedAt = performance.now();
  if (child.pid === undefined) throw new Error(`could not start ${FFMPEG}`);
  const pid = child.pid;
  trackGroup(pid);
  let exited = false;
  let tail = '';
  const listeners: Array<(progress: Progress, at: number) => void> = [];
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    tail = (tail + chunk).slice(-4000);
  });
  const progressStream = child.stdio[3] as Readable;
  const parser = new ProgressParser();
  progressStream.setEncoding('utf8');
  progressStream.on('error', () => undefined);
  const exit = child.then(() => {
    exited = true;
    untrackGroup(pid);
  });
  const handle: ChildProcessHandle = {
    pid,
    spawnedAt,
    get exited() {
      return exited;
    },
    exit,
    lastProgress: undefined,
    stderrTail: () => tail,
    failure: () => ffmpegFailure(tail),
    running: () => {
      if (handle.lastProgress) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        listeners.push(() => resolve());
        void exit.then(() => reject(new Error(`ffmpeg ${pid} ended before it ran: ${ffmpegFailure(tail)}`)));
      });
    },
    onProgress: (listener) => listeners.push(listener),
    kill: async () => {
      if (!exited) signalGroup(pid, 'SIGKILL');
      await exit;
      live.delete(handle);
    },
  };
  progressStream.on('data', (chunk: string) => {
    const at = performance.now();
    for (const progress of parser.push(chunk)) {
      handle.lastProgress = progress;
      for (const listener of listeners) listener(progress, at);
    }
  });
  live.add(handle);
  return handle;
}

/** The last error ffmpeg wrote (its reason to give up), without the `[component @ 0x…] [error]` prefix. */
export function ffmpegFailure(stderr: string): string {
  const errors = stderr
    .split('\n')
    .map((line) => line.replace(/^(\[[^\]]+ @ 0x[0-9a-f]+\] )?\[(error|fatal|panic)\] /, (_, __, level: string) => `${level}: `))
    .filter((line) => /^(error|fatal|panic): \S/.test(line) && !/non-existing PPS|decode_slice_header|no frame!/.test(line));
  return (errors[0] ?? stderr.trim().split('\n').pop() ?? '').replace(/^(error|fatal|panic): /, '').trim() || 'no message';
}

/** Kills every child this module started that is still there. */
export async function killAllChildren(): Promise<void> {
  await Promise.all([...live].map((child) => child.kill()));
}

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export const TIMED_OUT = Symbol('timed out');
/** The promise's value, or TIMED_OUT after `ms` (the timer is cleared either way). */
export async function within<T>(promise: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<typeof TIMED_OUT>((resolve) => (timer = setTimeout(() => resolve(TIMED_OUT), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** Polls `check` every `everyMs` until it returns a value; throws after `timeoutMs`. */
export async function until<T>(check: () => Promise<T | undefined | null | false> | T | undefined | null | false, what: string, timeoutMs: number, everyMs = 50): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (performance.now() > deadline) throw new Error(`timed out after ${(timeoutMs / 1000).toFixed(0)} s waiting for ${what}`);
    await sleep(everyMs);
  }
}
