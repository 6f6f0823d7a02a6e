import { spawn, type ChildProcess } from 'node:child_process';
import dgram from 'node:dgram';
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ownedProcessEnv, reapOrphans, type OrphanKind } from '../orphans.ts';
import { CpuMeter } from '../stats/process-tree.ts';
import { DEFAULT_BACKOFF, type Backoff } from '../supervisor/backoff.ts';
import { signalGroup, trackGroup, untrackGroup } from '../supervisor/process-group.ts';
import { eachLine, quoteArg } from '../supervisor/supervisor-types.ts';
import type { LogLevel, SrtStats } from '../types.ts';
import { SrtStatsTracker, type SrtDirection } from './srt-stats-parser.ts';

/**
 * One SRT link of a job carried by srt-live-transmit beside ffmpeg (the "companion"): ffmpeg
 * writes MPEG-TS to a loopback UDP port that the companion sends over SRT (an output), or the
 * companion receives SRT and writes it to a loopback UDP port that ffmpeg reads (an input). The
 * companion prints the link's statistics, which ffmpeg 5.1's libsrt never does.
 *
 * Lifetime: the companion belongs to its job. It is started with the job's process, stopped with it
 * (JobRunner stops both), killed if Node exits (its process group is tracked like ffmpeg's), and a
 * companion left by a control plane that was killed outright is found by the marker in its
 * environment and ended before the job starts again (`reapLeftoverCompanions`). As long as the
 * owner lives, an orphaned companion also dies on its own: its next line to a closed pipe (SIGPIPE).
 *
 * Restarts: a companion that exits is restarted on its own, with the job's backoff, and ffmpeg is
 * left alone. The loopback leg is UDP, so ffmpeg never notices: an output's packets are dropped
 * until the companion is back (every other output of the job goes on, as with tee's onfail=ignore);
 * an input's ffmpeg just waits for data on the same port (its read timeout and the supervisor's
 * stale clock still apply). Restarting the whole job would break every other output and the encode
 * for the failure of one link. Each companion runs in a process group of its own, so that the stale
 * clock's kill of ffmpeg does not take the SRT connections down with it.
 */

export const BRIDGE_ENV = 'MEDIAPLANE_SRT_BRIDGE';
export const BRIDGE_OWNER_ENV = 'MEDIAPLANE_SRT_BRIDGE_OWNER';
/** How companions are marked (engine/orphans.ts). */
export const SRT_COMPANIONS: OrphanKind = { marker: BRIDGE_ENV, ownerVar: BRIDGE_OWNER_ENV };

export interface SrtBridgeOptions {
  jobId: string;
  direction: SrtDirection;
  /** Output index; for inputs 0 (primary) or 1 (failover). */
  index: number;
  /** Names the link in log lines, e.g. `output 1`. */
  label: string;
  /** The srt-live-transmit program. */
  file: string;
  /** Its argv (engine/srt/srt-live-transmit-args.ts). */
  args: string[];
  /** The loopback UDP port between ffmpeg and the companion. */
  udpPort: number;
  onStats: (stats: SrtStats, at: number) => void;
  onLog: (level: LogLevel, text: string) => void;
  /** Delay before restart n (default: 250 ms doubling to 30 s). */
  backoff?: Backoff;
  /** A companion that ran this long counts as healthy: the next restart is the first again (default 10 s). */
  healthyAfterMs?: number;
  /** SIGINT (which tells a connected peer goodbye) to SIGKILL (default 1 s). */
  stopGraceMs?: number;
  /** At most one onStats call per this period for reports (connections coming and going are passed at once). Default 1 s. */
  statsIntervalMs?: number;
  now?: () => number;
}

export class SrtBridge {
  private child: ChildProcess | undefined;
  private wanted = false;
  private failures = 0;
  private restartTimer: NodeJS.Timeout | undefined;
  private spawnedAt = 0;
  /** The last warning or error the companion printed: the likely reason it ended. */
  private lastProblem = '';
  private lastEmitAt = -Infinity;
  private statsTime: number | null = null;
  private meter: CpuMeter | undefined;
  private exitWaiters: Array<() => void> = [];
  private readonly tracker: SrtStatsTracker;
  private readonly clock: () => number;
  /** Companions started since start() (the first included). */
  spawns = 0;

  constructor(readonly options: SrtBridgeOptions) {
    this.tracker = new SrtStatsTracker(options.direction);
    this.clock = options.now ?? Date.now;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get udpPort(): number {
    return this.options.udpPort;
  }

  /** The latest statistics (kept after the connection ends, with 0 connections); null before the first report. */
  get stats(): SrtStats | null {
    return this.tracker.current;
  }

  /** When `stats` last changed (ms since the epoch). */
  get statsAt(): number | null {
    return this.statsTime;
  }

  start(): void {
    if (this.wanted) return;
    this.wanted = true;
    this.failures = 0;
    this.spawns = 0;
    this.launch();
  }

  /**
   * Stops the companion; resolves once it is gone. A connected peer is told goodbye (SIGINT, then
   * SIGKILL after the grace period); with nobody connected, or `hard`, it is killed at once.
   */
  async stop(mode: 'soft' | 'hard' = 'soft'): Promise<void> {
    this.wanted = false;
    clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    const child = this.child;
    if (!child?.pid) return;
    const gone = new Promise<void>((resolve) => this.exitWaiters.push(resolve));
    const pid = child.pid;
    if (mode === 'hard' || this.tracker.connections === 0) {
      signalGroup(pid, 'SIGKILL');
    } else {
      signalGroup(pid, 'SIGINT');
      const grace = setTimeout(() => this.child === child && signalGroup(pid, 'SIGKILL'), this.options.stopGraceMs ?? 1_000);
      void gone.then(() => clearTimeout(grace));
    }
    await gone;
  }

  /** CPU and memory of the companion (0 when none runs). */
  async sample(): Promise<{ cpuPercent: number; rssBytes: number }> {
    const meter = this.meter;
    if (!meter || !this.child) return { cpuPercent: 0, rssBytes: 0 };
    try {
      return await meter.sample();
    } catch {
      return { cpuPercent: 0, rssBytes: 0 };
    }
  }

  private log(level: LogLevel, text: string): void {
    // The passphrase stays out of the log (srt-live-transmit repeats its URLs).
    this.options.onLog(level, `srt-live-transmit (${this.options.label}): ${maskPassphrase(text)}`);
  }

  private emit(stats: SrtStats | null, force: boolean): void {
    if (!stats) return;
    const at = this.clock();
    this.statsTime = at;
    const now = performance.now();
    if (!force && now - this.lastEmitAt < (this.options.statsIntervalMs ?? 1_000)) return;
    this.lastEmitAt = now;
    this.options.onStats(stats, at);
  }

  private launch(): void {
    this.restartTimer = undefined;
    if (!this.wanted) return;
    let child: ChildProcess;
    try {
      child = spawn(this.options.file, this.options.args, {
        detached: true,
        shell: false,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, ...ownedProcessEnv(BRIDGE_ENV, BRIDGE_OWNER_ENV, this.options.jobId) },
      });
    } catch (error) {
      this.afterExit(undefined, `could not start ${this.options.file}: ${(error as Error).message}`);
      return;
    }
    this.child = child;
    this.spawns++;
    this.spawnedAt = performance.now();
    this.lastProblem = '';
    child.once('error', (error) => {
      // Spawning failed (no such program): there is no process to wait for.
      if (child.pid === undefined) this.afterExit(child, `could not start ${this.options.file}: ${error.message}`);
    });
    if (child.pid === undefined) return;
    const pid = child.pid;
    trackGroup(pid);
    this.meter = new CpuMeter(pid);
    this.log('NOTICE', `started pid ${pid}: ${[this.options.file, ...this.options.args].map((arg) => quoteArg(maskPassphrase(arg))).join(' ')}`);
    if (child.stdout) eachLine(child.stdout, (line) => this.emit(this.tracker.stdoutLine(line) ?? null, false));
    if (child.stderr) {
      eachLine(child.stderr, (line) => {
        const { message, changed } = this.tracker.stderrLine(line);
        if (['WARNING', 'ERROR', 'FATAL'].includes(message.level)) this.lastProblem = message.text;
        this.log(message.level, message.text);
        if (changed !== undefined) this.emit(changed, true);
      });
    }
    child.once('exit', (code, signal) => {
      // Whatever the companion left in its group goes with it.
      signalGroup(pid, 'SIGKILL');
      untrackGroup(pid);
      const how = signal ? `signal ${signal}` : `code ${code}`;
      this.afterExit(child, `exited (${how})${this.lastProblem ? `: ${this.lastProblem}` : ''}`);
    });
  }

  private afterExit(child: ChildProcess | undefined, why: string): void {
    if (child && this.child !== child) return;
    this.child = undefined;
    this.meter = undefined;
    const wasConnected = this.tracker.connections > 0;
    const stats = this.tracker.exited();
    if (wasConnected) this.emit(stats, true);
    const waiters = this.exitWaiters.splice(0);
    for (const resolve of waiters) resolve();
    if (!this.wanted) {
      this.log('NOTICE', 'stopped');
      return;
    }
    const ranFor = performance.now() - this.spawnedAt;
    if (ranFor >= (this.options.healthyAfterMs ?? 10_000)) this.failures = 0;
    this.failures++;
    const delay = (this.options.backoff ?? DEFAULT_BACKOFF)(this.failures);
    this.log('WARNING', `${why}; restarting it in ${delay} ms (the job goes on)`);
    this.restartTimer = setTimeout(() => this.launch(), delay);
  }
}

/** `passphrase=<value>` in an SRT URL (or a line quoting one) with the value hidden. */
export function maskPassphrase(text: string): string {
  return text.replace(/([?&]passphrase=)[^&']*/g, '$1***');
}

/** The program on PATH (or the path given), if it is there and executable. */
export async function findExecutable(name: string): Promise<string | undefined> {
  const candidates = name.includes('/') ? [name] : (process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin').split(':').filter(Boolean).map((dir) => path.join(dir, name));
  for (const candidate of candidates) {
    if (await access(candidate, constants.X_OK).then(() => true, () => false)) return candidate;
  }
  return undefined;
}

/** A UDP port on 127.0.0.1 that nothing holds right now (the OS picks it). */
export async function freeLoopbackUdpPort(): Promise<number> {
  const socket = dgram.createSocket('udp4');
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(0, '127.0.0.1', () => resolve());
    });
    return socket.address().port;
  } finally {
    await new Promise<void>((resolve) => socket.close(() => resolve()));
  }
}

/**
 * Ends srt-live-transmit companions whose owner is gone (a control plane killed outright leaves
 * its detached children behind): every process that carries the bridge marker in its environment
 * and whose owner process (pid and start time) no longer exists. With a job id, only that job's.
 * Returns the pids it ended. Companions of a living owner (another node process on this machine,
 * another test) are never touched.
 */
export function reapLeftoverCompanions(jobId?: string): Promise<number[]> {
  return reapOrphans(BRIDGE_ENV, BRIDGE_OWNER_ENV, jobId);
}
