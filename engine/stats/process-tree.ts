import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU and memory of a job's process tree, read from /proc. Every job runs in its own process
 * group, so "the tree" is every process whose process group id is the job's pgid: ffmpeg and
 * anything it started, however deep.
 */

export interface ProcEntry {
  pid: number;
  ppid: number;
  pgid: number;
  /** utime + stime, in clock ticks. */
  cpuTicks: number;
  rssPages: number;
  /** Since boot, in clock ticks. */
  startTicks: number;
  state: string;
}

let clock: { ticksPerSecond: number; pageSize: number } | undefined;

function systemClock(): { ticksPerSecond: number; pageSize: number } {
  if (!clock) {
    const conf = (name: string, fallback: number) => {
      try {
        const n = Number.parseInt(execFileSync('getconf', [name], { encoding: 'utf8' }).trim(), 10);
        return Number.isFinite(n) && n > 0 ? n : fallback;
      } catch {
        return fallback;
      }
    };
    clock = { ticksPerSecond: conf('CLK_TCK', 100), pageSize: conf('PAGESIZE', 4096) };
  }
  return clock;
}

/** Parses /proc/<pid>/stat; the command name may hold spaces and parentheses, so fields are counted after the last ')'. */
export function parseProcStat(pid: number, stat: string): ProcEntry | undefined {
  const close = stat.lastIndexOf(')');
  if (close < 0) return undefined;
  const f = stat.slice(close + 2).split(' ');
  // f[0] is field 3 (state) of proc(5).
  return {
    pid,
    state: f[0],
    ppid: Number(f[1]),
    pgid: Number(f[2]),
    cpuTicks: Number(f[11]) + Number(f[12]),
    startTicks: Number(f[19]),
    rssPages: Number(f[21]),
  };
}

export interface ProcTable {
  entries: ProcEntry[];
  /** Seconds since boot when the scan began: the time the CPU counters belong to. */
  uptimeSeconds: number;
}

let table: { at: number; scan: Promise<ProcTable> } | undefined;
/**
 * One scan of /proc serves every job sampled within this window: with many jobs on a node, /proc
 * is read about once a second, not once per job.
 */
const SCAN_REUSE_MS = 1_000;

/** All processes, from one scan of /proc (shared by callers within a second). Processes that vanish mid-scan are skipped. */
export function readProcTable(options: { fresh?: boolean } = {}): Promise<ProcTable> {
  const now = Date.now();
  if (!options.fresh && table && now - table.at < SCAN_REUSE_MS) return table.scan;
  // Read synchronously: /proc is the kernel's memory, never a disk, and one read costs microseconds;
  // the thread pool's round trips (open, stat, read, close per file) cost the control plane far more.
  const scan = (async () => {
    const uptimeSeconds = secondsSinceBoot();
    const entries: ProcEntry[] = [];
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      const entry = readProcStat(Number(name));
      if (entry) entries.push(entry);
    }
    return { entries, uptimeSeconds };
  })();
  table = { at: now, scan };
  scan.catch(() => {
    if (table?.scan === scan) table = undefined;
  });
  return scan;
}

/** One process's /proc/<pid>/stat; undefined when it has gone. */
function readProcStat(pid: number): ProcEntry | undefined {
  try {
    return parseProcStat(pid, readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The processes of a process group (zombies excluded: they hold no resources and are gone once reaped). */
export async function processGroupMembers(pgid: number, options: { fresh?: boolean } = {}): Promise<ProcEntry[]> {
  return (await readProcTable(options)).entries.filter((e) => e.pgid === pgid && e.state !== 'Z');
}

interface GroupSample {
  cpuSeconds: number;
  rssBytes: number;
  pids: number[];
  /** When the counters were read, in seconds since boot; the leader's start likewise (undefined once it is gone). */
  uptimeSeconds: number;
  leaderStartSeconds: number | undefined;
}

async function sampleGroup(pgid: number, options: { fresh?: boolean } = {}): Promise<GroupSample> {
  const { ticksPerSecond, pageSize } = systemClock();
  const { entries, uptimeSeconds } = await readProcTable(options);
  const members = entries.filter((e) => e.pgid === pgid && e.state !== 'Z');
  const leader = members.find((e) => e.pid === pgid);
  return {
    cpuSeconds: members.reduce((sum, e) => sum + e.cpuTicks, 0) / ticksPerSecond,
    rssBytes: members.reduce((sum, e) => sum + e.rssPages, 0) * pageSize,
    pids: members.map((e) => e.pid),
    uptimeSeconds,
    leaderStartSeconds: leader ? leader.startTicks / ticksPerSecond : undefined,
  };
}

/** CPU seconds used so far and memory held by every process of the group. `fresh` skips the shared recent scan. */
export async function sampleProcessGroup(pgid: number, options: { fresh?: boolean } = {}): Promise<{ cpuSeconds: number; rssBytes: number; pids: number[] }> {
  const { cpuSeconds, rssBytes, pids } = await sampleGroup(pgid, options);
  return { cpuSeconds, rssBytes, pids };
}

let boot: { uptimeSeconds: number; at: number } | undefined;
/**
 * Seconds since boot: /proc/uptime read once, then carried on by the monotonic clock (both count
 * from boot and neither jumps with the wall clock), so a sample reads no file for it.
 */
function secondsSinceBoot(): number {
  if (!boot) boot = { uptimeSeconds: Number.parseFloat(readFileSync('/proc/uptime', 'utf8').split(' ')[0]), at: performance.now() };
  return boot.uptimeSeconds + (performance.now() - boot.at) / 1000;
}

/**
 * CPU% (100 = one core fully busy; a tree using two cores reads 200) and RSS of a process group.
 * Each sample measures the CPU time used since the previous one; the first measures it since the
 * group's leader started.
 */
export class CpuMeter {
  private last: { cpuSeconds: number; at: number } | undefined;
  private lastPercent = 0;
  /** Members that have gone since the scan of /proc made at `goneSince` (a pid is not read again once it has). */
  private readonly gone = new Set<number>();
  private goneSince = Number.NaN;

  constructor(readonly pgid: number) {}

  async sample(): Promise<{ cpuPercent: number; rssBytes: number }> {
    const group = this.sampleMembers();
    let cpuPercent = this.lastPercent;
    if (this.last) {
      const wall = group.uptimeSeconds - this.last.at;
      if (wall > 0) cpuPercent = (Math.max(0, group.cpuSeconds - this.last.cpuSeconds) / wall) * 100;
    } else if (group.leaderStartSeconds !== undefined) {
      const alive = group.uptimeSeconds - group.leaderStartSeconds;
      if (alive > 0) cpuPercent = (group.cpuSeconds / alive) * 100;
    }
    if (!this.last || group.uptimeSeconds > this.last.at) this.last = { cpuSeconds: group.cpuSeconds, at: group.uptimeSeconds };
    this.lastPercent = Math.round(cpuPercent * 10) / 10;
    return { cpuPercent: this.lastPercent, rssBytes: group.rssBytes };
  }

  /**
   * Reading every process of the machine for each sample would cost the control plane more than
   * the jobs it watches: the members are read directly, each from its own /proc/<pid>/stat. Who the
   * members are comes from a scan of /proc shared by every job of the node and made at most every
   * MEMBERS_RESCAN_MS (a new child shows within that time), and the leader is always one of them;
   * a member that has gone drops out at once.
   */
  private sampleMembers(): GroupSample {
    const { ticksPerSecond, pageSize } = systemClock();
    const uptimeSeconds = secondsSinceBoot();
    const scan = membership();
    if (scan.at !== this.goneSince) {
      this.gone.clear();
      this.goneSince = scan.at;
    }
    const pids = [this.pgid, ...(scan.groups.get(this.pgid) ?? [])];
    let cpuTicks = 0;
    let rssPages = 0;
    let leaderStartSeconds: number | undefined;
    const alive: number[] = [];
    for (const pid of pids) {
      if (this.gone.has(pid)) continue;
      const entry = readProcStat(pid);
      if (!entry || entry.pgid !== this.pgid || entry.state === 'Z') {
        this.gone.add(pid);
        continue;
      }
      alive.push(pid);
      cpuTicks += entry.cpuTicks;
      rssPages += entry.rssPages;
      if (pid === this.pgid) leaderStartSeconds = entry.startTicks / ticksPerSecond;
    }
    return { cpuSeconds: cpuTicks / ticksPerSecond, rssBytes: rssPages * pageSize, pids: alive, uptimeSeconds, leaderStartSeconds };
  }
}

let scanned: { at: number; groups: Map<number, number[]> } | undefined;
/**
 * The processes of every process group but their leaders, from a scan of /proc made at most every
 * MEMBERS_RESCAN_MS for all the jobs of the node.
 */
function membership(): { at: number; groups: Map<number, number[]> } {
  const now = performance.now();
  if (scanned && now - scanned.at < MEMBERS_RESCAN_MS) return scanned;
  const groups = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const entry = readProcStat(Number(name));
    if (!entry || entry.state === 'Z' || entry.pid === entry.pgid) continue;
    const members = groups.get(entry.pgid);
    if (members) members.push(entry.pid);
    else groups.set(entry.pgid, [entry.pid]);
  }
  scanned = { at: now, groups };
  return scanned;
}

const MEMBERS_RESCAN_MS = 30_000;
