import path from 'node:path';
import type { JobInputValue } from '../../openapi/schemas/jobs.ts';
import type { BatchLogEntry } from '../../engine/batch/batch-entry.ts';
import { BatchJobRunner } from '../../engine/batch/batch-job-runner.ts';
import type { TsFanout } from '../../engine/mpegts-fanout.ts';
import { ProcessRegistry } from '../../engine/process-registry.ts';
import { reapOrphansOf } from '../../engine/orphans.ts';
import { INPUT_PROBES } from '../../engine/probe/input-probe.ts';
import { SRT_COMPANIONS } from '../../engine/srt/srt-bridge.ts';
import type { Actor, EngineEvent, JobSpec, JobState, SrtStats } from '../../engine/types.ts';
import type { JobRow } from '../db/tables.ts';
import type { EventBus, LiveEvent } from '../events/event-bus.ts';
import type { JobRuntimeRepository, JobStatsRow } from '../repositories/job-runtime.repository.ts';
import { isBatchJob, JobResolveError, jobKey, resolveJobSpec, type NodePaths } from './job-resolver.ts';
import type { Leader } from './leader.ts';

/** What the reconciler needs of a job runner (engine/job-runner.ts). */
export interface RunnerHandle {
  start(): Promise<void> | void;
  stop(): Promise<void>;
  restart(mode: 'hard' | 'soft'): Promise<void>;
  reload(spec: JobSpec): Promise<void>;
  /** Stop watching, leave the processes running (what a control plane killed outright leaves). */
  abandon?(): void;
  /** The MPEG-TS fan-out of an HTTP MPEG-TS output, served at /streams/mpegts/{key}.ts. */
  mpegts?(): TsFanout | undefined;
}

export type RunnerFactory = (spec: JobSpec, deps: { logFile: string; nodeName: string; onEvent: (event: EngineEvent) => void }) => RunnerHandle;

/** A batch job's runner also hands out an entry per file, and skips the files an earlier run did. */
export type BatchRunnerFactory = (
  spec: JobSpec,
  deps: {
    logFile: string;
    nodeName: string;
    onEvent: (event: EngineEvent) => void;
    onEntry: (entry: BatchLogEntry) => Promise<void>;
    doneFiles: () => Promise<string[]>;
  },
) => RunnerHandle;

export const createBatchJobRunner: BatchRunnerFactory = (spec, deps) => new BatchJobRunner(spec, deps);

export interface ReconcilerOptions {
  nodeId: number;
  nodeName: string;
  paths: NodePaths & { logsDir: string; runDir: string };
  createRunner: RunnerFactory;
  /** Default: BatchJobRunner with the real engine. */
  createBatchRunner?: BatchRunnerFactory;
  leader?: Leader;
  /** The safety-net sweep, besides the wake-ups from LISTEN/NOTIFY. */
  sweepIntervalMs?: number;
  /** Minimum time between two writes of a job's CPU/RSS/bitrate figures. */
  statsWriteIntervalMs?: number;
  log?: (line: string) => void;
}

interface Running {
  row: JobRow;
  runner: RunnerHandle;
  appliedRestartSeq: number;
  appliedConfigVersion: number;
  /** CPU, memory, bitrates and SRT figures not yet written: the stats flush writes every job's in one statement. */
  pendingStats?: JobStatsRow;
  /** The latest SRT statistics of each SRT link (`input-0`, `output-2` ...), written with the stats. */
  srt: Map<string, { direction: 'input' | 'output'; index: number; stats: SrtStats }>;
  restarts: number;
  startedAt: Date | null;
  /** The last state the runner reported: an UP event is recorded when it becomes running, not again while it stays so. */
  state: JobState | null;
  /** The runner's events are written one after the other, in the order they came. */
  events: Promise<void>;
  /** Set when the job ended by itself (a VOD or batch that is done): the next sweep switches it off. */
  finished?: { detail: string | null };
  /** No runner: the job could not be prepared (invalid_config); kept so the sweep does not retry it every few seconds. */
  placeholder?: boolean;
}

/** A status left by an earlier run of this node's control plane (or of another node) for a job that was on. */
function wasRunning(status: { state: string; reason: string | null } | undefined): boolean {
  return status !== undefined && (status.state !== 'stopped' || status.reason === 'node_shutdown');
}

/** The job topics the API publishes on; a change there wakes the reconciler. */
const JOB_TOPICS = new Set(['relays', 'encodings', 'jobs']);
/** What the nodes themselves publish on those topics: no desired state changed. */
const OBSERVED_TYPES = new Set(['status', 'stats', 'batch']);

function actorOf(row: JobRow): Actor {
  const actor = row.desired_actor as Actor | null;
  return actor && typeof actor === 'object' && 'kind' in actor ? actor : { kind: 'engine' };
}

/**
 * Drives this node's engine toward the desired state stored in Postgres: starts the jobs that
 * should run here, stops the others, carries out restart orders, and writes status, events and
 * statistics back. Woken by LISTEN/NOTIFY (through the event bus), with a periodic sweep as a
 * safety net. Sweeps never overlap: a wake-up during one runs another right after it.
 */
export class NodeReconciler {
  private readonly running = new Map<string, Running>();
  private readonly registry: ProcessRegistry;
  private readonly log: (line: string) => void;
  private timer?: NodeJS.Timeout;
  private statsTimer?: NodeJS.Timeout;
  private unsubscribe?: () => void;
  private sweeping?: Promise<void>;
  private again = false;
  private stopped = false;

  constructor(
    private readonly repo: JobRuntimeRepository,
    private readonly bus: EventBus,
    private readonly options: ReconcilerOptions,
  ) {
    this.log = options.log ?? (() => {});
    this.registry = new ProcessRegistry(path.join(options.paths.runDir, 'jobs'));
  }

  /** End what a killed predecessor left running, then start what should run. */
  async start(): Promise<void> {
    // SRT companions and input probes a killed predecessor left (one pass over /proc), then its jobs' processes.
    for (const pid of await reapOrphansOf([SRT_COMPANIONS, INPUT_PROBES])) this.log(`ended helper process ${pid} (srt-live-transmit or input probe) left by a previous run`);
    await this.registry.reapLeftovers(this.log);
    this.unsubscribe = this.bus.subscribe((event: LiveEvent) => {
      if (JOB_TOPICS.has(event.topic) && !OBSERVED_TYPES.has(event.type)) this.wake();
    });
    this.timer = setInterval(() => this.wake(), this.options.sweepIntervalMs ?? 5000);
    this.timer.unref();
    this.statsTimer = setInterval(() => void this.flushStats().catch((error: Error) => this.log(`writing job statistics: ${error.message}`)), this.options.statsWriteIntervalMs ?? 2000);
    this.statsTimer.unref();
    await this.sweep();
  }

  /**
   * Every job's latest CPU, memory, bitrate and SRT figures in ONE update and one live event per
   * kind, however many jobs run: per-job writes would cost the control plane more than the jobs.
   */
  private async flushStats(): Promise<void> {
    const rows: Array<JobStatsRow & { kind: JobRow['kind'] }> = [];
    for (const running of this.running.values()) {
      if (!running.pendingStats) continue;
      rows.push({ ...running.pendingStats, kind: running.row.kind });
      running.pendingStats = undefined;
    }
    if (rows.length === 0) return;
    await this.repo.writeStats(rows);
    for (const kind of ['relay', 'encoding'] as const) {
      const ofKind = rows.filter((r) => r.kind === kind);
      // NOTIFY payloads are limited to 8000 bytes: a few dozen jobs per event.
      for (let i = 0; i < ofKind.length; i += 40) {
        const data = ofKind.slice(i, i + 40).map(({ jobId, cpuPercent, rssBytes, inputBps, outputBps, ioRates }) => ({ id: jobId, cpu: cpuPercent, rss: rssBytes, inputBps, outputBps, io: ioRates }));
        await this.bus.publish({ topic: `${kind}s`, type: 'stats', data });
      }
    }
  }

  /** Ask for a sweep now; coalesces with one in progress. */
  wake(): void {
    if (this.stopped) return;
    void this.sweep().catch((error: Error) => this.log(`reconciler: ${error.message}`));
  }

  async sweep(): Promise<void> {
    if (this.sweeping) {
      this.again = true;
      return this.sweeping;
    }
    this.sweeping = (async () => {
      do {
        this.again = false;
        await this.reconcileOnce();
      } while (this.again && !this.stopped);
    })().finally(() => {
      this.sweeping = undefined;
    });
    return this.sweeping;
  }

  private async reconcileOnce(): Promise<void> {
    if (this.options.leader) {
      await this.options.leader.campaign().catch(() => false);
      await this.options.leader.placeJobs().catch((error: Error) => this.log(`placing jobs: ${error.message}`));
      this.options.leader.maintain();
    }
    // Jobs that ended by themselves are switched off before the desired state is read, so this sweep does not start them over.
    for (const [key, running] of [...this.running]) {
      if (running.finished) await this.finishJob(key, running);
    }
    const desired = await this.repo.desiredForNode(this.options.nodeId);
    const wanted = new Map(desired.map((row) => [jobKey(row), row]));
    for (const [key, running] of [...this.running]) {
      if (!wanted.has(key)) {
        const row = (await this.repo.findJob(running.row.id)) ?? running.row;
        await this.stopJob(key, running, actorOf(row));
      }
    }
    for (const [key, row] of wanted) {
      if (this.stopped) return;
      const running = this.running.get(key);
      if (!running) await this.startJob(key, row);
      else if (row.restart_seq > running.appliedRestartSeq) await this.restartJob(key, running, row);
    }
  }

  private async resolve(row: JobRow): Promise<JobSpec> {
    const config = row.config as JobInputValue;
    const audioIds = (config.audioSetting?.tracks ?? []).map((t) => t.audioPreset).filter((id): id is number => typeof id === 'number');
    const refs = await this.repo.references(row, audioIds);
    return resolveJobSpec(row, config, refs, this.options.paths);
  }

  private async startJob(key: string, row: JobRow, options: { ordered?: boolean } = {}): Promise<void> {
    // A job that was on when this node's control plane went away is brought back by the engine, not by whoever switched it on.
    const recovering = !options.ordered && wasRunning(await this.repo.statusOf(row.id));
    const actor: Actor = recovering ? { kind: 'engine' } : actorOf(row);
    // Who switched it on (a restart order carried out by starting anew is told by its RESTART event).
    if (!options.ordered) await this.repo.recordEvent({ jobId: row.id, type: 'START', reason: actor.kind === 'engine' ? 'recovered' : null, actor, nodeId: this.options.nodeId });
    let spec: JobSpec;
    try {
      spec = await this.resolve(row);
    } catch (error) {
      const detail = error instanceof JobResolveError ? error.message : `cannot prepare the job: ${(error as Error).message}`;
      await this.repo.writeStatus(row.id, this.options.nodeId, { state: 'failed', pid: null, reason: 'invalid_config', reasonDetail: detail, appliedRestartSeq: row.restart_seq });
      await this.repo.recordEvent({ jobId: row.id, type: 'FAILURE', reason: 'invalid_config', detail, actor: { kind: 'engine' }, nodeId: this.options.nodeId });
      await this.publishStatus(row);
      // Keep a placeholder so the sweep does not retry the same broken config every few seconds.
      this.running.set(key, {
        row,
        runner: { start() {}, stop: async () => {}, restart: async () => {}, reload: async () => {} },
        appliedRestartSeq: row.restart_seq,
        appliedConfigVersion: row.config_version,
        srt: new Map(),
        restarts: 0,
        startedAt: null,
        state: 'failed',
        events: Promise.resolve(),
        placeholder: true,
      });
      return;
    }
    const running: Running = {
      row,
      runner: undefined as unknown as RunnerHandle,
      appliedRestartSeq: row.restart_seq,
      appliedConfigVersion: row.config_version,
      srt: new Map(),
      restarts: 0,
      startedAt: null,
      state: null,
      events: Promise.resolve(),
    };
    const deps = {
      logFile: path.join(this.options.paths.logsDir, `${key}.log`),
      nodeName: this.options.nodeName,
      onEvent: (event: EngineEvent) => {
        // Progress blocks and log lines (several a second per job) change nothing stored: they stay in the engine.
        if (event.type === 'progress' || event.type === 'log') return;
        running.events = running.events.then(() => this.onEngineEvent(key, running, event)).catch((error: Error) => this.log(`${key}: ${error.message}`));
      },
    };
    running.runner = isBatchJob(row.config as JobInputValue)
      ? (this.options.createBatchRunner ?? createBatchJobRunner)(spec, {
          ...deps,
          onEntry: (entry) => this.recordBatchEntry(running.row, entry),
          doneFiles: () => this.repo.doneBatchFiles(row.id),
        })
      : this.options.createRunner(spec, deps);
    this.running.set(key, running);
    await this.repo.writeStatus(row.id, this.options.nodeId, {
      state: 'starting',
      reason: null,
      reasonDetail: null,
      restarts: 0,
      appliedRestartSeq: row.restart_seq,
      appliedConfigVersion: row.config_version,
      activeInput: 'primary',
    });
    await running.runner.start();
  }

  /** A batch file's entry: kept for the Batch Results tab, and told to the screens showing it. */
  private async recordBatchEntry(row: JobRow, entry: BatchLogEntry): Promise<void> {
    await this.repo.recordBatchEntry(row.id, entry.sourceFile, entry.status, entry);
    await this.bus.publish({ topic: `${row.kind}s`, type: 'batch', id: row.id, data: entry });
  }

  /**
   * A job that ended by itself (a VOD at the end of its input, a batch with every file done): its
   * status says stopped with the reason finished, a STOP event with that reason is recorded, and
   * it is switched off on the engine's behalf so that it does not start over.
   */
  private async finishJob(key: string, running: Running): Promise<void> {
    this.running.delete(key);
    await running.events;
    await running.runner.stop();
    this.registry.forget(key);
    const { row } = running;
    const detail = running.finished?.detail ?? null;
    const engine: Actor = { kind: 'engine' };
    await this.repo.writeStatus(row.id, this.options.nodeId, { state: 'stopped', pid: null, cpuPercent: 0, rssBytes: 0, inputBps: null, outputBps: null, ioRates: null, reason: 'finished', reasonDetail: detail });
    await this.repo.recordEvent({ jobId: row.id, type: 'STOP', reason: 'finished', detail, actor: engine, nodeId: this.options.nodeId });
    if (await this.repo.switchOff(row.id, engine)) await this.bus.publish({ topic: `${row.kind}s`, type: 'desired', id: row.id, data: { active: false } });
    await this.publishStatus(row);
  }

  private async stopJob(key: string, running: Running, actor: Actor): Promise<void> {
    this.running.delete(key);
    await running.runner.stop();
    await running.events;
    this.registry.forget(key);
    await this.repo.writeStatus(running.row.id, this.options.nodeId, { state: 'stopped', pid: null, cpuPercent: 0, rssBytes: 0, inputBps: null, outputBps: null, ioRates: null, reason: 'stopped', reasonDetail: null });
    await this.repo.recordEvent({ jobId: running.row.id, type: 'STOP', actor, nodeId: this.options.nodeId });
    await this.publishStatus(running.row);
  }

  private async restartJob(key: string, running: Running, row: JobRow): Promise<void> {
    const mode = (row.restart_mode ?? 'hard') as 'hard' | 'soft' | 'reload';
    running.appliedRestartSeq = row.restart_seq;
    running.row = row;
    await this.repo.recordEvent({ jobId: row.id, type: 'RESTART', reason: mode, actor: actorOf(row), nodeId: this.options.nodeId });
    if (running.placeholder) {
      // It could not run as configured: a restart order tries the (perhaps corrected) configuration again.
      this.running.delete(key);
      await this.startJob(key, row, { ordered: true });
      return;
    }
    let spec: JobSpec | undefined;
    if (mode === 'reload') {
      try {
        spec = await this.resolve(row);
      } catch (error) {
        await this.repo.recordEvent({ jobId: row.id, type: 'FAILURE', reason: 'invalid_config', detail: (error as Error).message, actor: { kind: 'engine' }, nodeId: this.options.nodeId });
        return;
      }
      running.appliedConfigVersion = row.config_version;
    }
    // Written before the order is carried out: the runner's own states (running again ...) come after it.
    await this.repo.writeStatus(row.id, this.options.nodeId, { state: 'restarting', appliedRestartSeq: row.restart_seq, appliedConfigVersion: running.appliedConfigVersion, lastResetAt: new Date() });
    if (spec) await running.runner.reload(spec);
    else await running.runner.restart(mode as 'hard' | 'soft');
  }

  private async onEngineEvent(key: string, running: Running, event: EngineEvent): Promise<void> {
    const jobId = running.row.id;
    const nodeId = this.options.nodeId;
    switch (event.type) {
      case 'spawn':
        this.registry.record(key, event.pid);
        return;
      case 'state': {
        const pid = event.pid;
        const becameRunning = event.state === 'running' && running.state !== 'running';
        running.state = event.state;
        if (becameRunning) {
          running.startedAt = new Date(event.at);
          await this.repo.recordEvent({ jobId, type: 'UP', actor: { kind: 'engine' }, nodeId });
        }
        if (event.state === 'stopped' || event.state === 'failed') this.registry.forget(key);
        if (!this.running.has(key) && event.state !== 'failed') return; // stopping: stopJob writes the final status
        await this.repo.writeStatus(jobId, nodeId, {
          state: event.state,
          ...(pid ? { pid } : {}),
          ...(becameRunning ? { startedAt: running.startedAt, reason: null, reasonDetail: null } : {}),
          ...(event.reason ? { reason: event.reason, reasonDetail: event.detail ?? null } : {}),
          ...(event.state === 'failed' ? { pid: null, cpuPercent: 0, rssBytes: 0, inputBps: null, outputBps: null, ioRates: null } : {}),
        });
        if (event.state === 'failed') {
          await this.repo.recordEvent({ jobId, type: 'FAILURE', reason: event.reason ?? 'crashed', detail: event.detail, actor: { kind: 'engine' }, nodeId });
        }
        await this.publishStatus(running.row);
        return;
      }
      case 'exit': {
        // Our own stop; or a start that goes on with a longer probe (the job log tells it): no outage, no restart.
        if (event.reason === 'stopped' || event.startRetry) return;
        // Stopping: what the process did on its way down is no outage, and stopJob writes the final status.
        if (!this.running.has(key)) return;
        if (event.reason === 'finished' && !event.willRestart) {
          running.finished = { detail: event.detail || null };
          this.wake();
          return;
        }
        running.restarts += event.willRestart ? 1 : 0;
        await this.repo.recordEvent({ jobId, type: 'EXIT', reason: event.reason, detail: event.detail, actor: { kind: 'engine' }, nodeId });
        await this.repo.writeStatus(jobId, nodeId, { state: event.willRestart ? 'restarting' : 'failed', restarts: running.restarts, reason: event.reason, reasonDetail: event.detail, lastResetAt: new Date(event.at) });
        await this.publishStatus(running.row);
        return;
      }
      case 'failover': {
        await this.repo.recordEvent({ jobId, type: 'FAILOVER', reason: event.to, detail: event.reason, actor: { kind: 'engine' }, nodeId });
        await this.repo.writeStatus(jobId, nodeId, { state: 'running', activeInput: event.to });
        await this.publishStatus(running.row);
        return;
      }
      case 'srt':
        running.srt.set(`${event.direction}-${event.index}`, { direction: event.direction, index: event.index, stats: event.stats });
        return;
      case 'stats':
        running.pendingStats = {
          jobId,
          cpuPercent: event.cpuPercent,
          rssBytes: event.rssBytes,
          inputBps: event.inputBps,
          outputBps: event.outputBps,
          ioRates: { inputs: event.inputs, outputs: event.outputs },
          srtStats: running.srt.size ? [...running.srt.values()] : undefined,
        };
        return;
      default:
        return;
    }
  }

  private async publishStatus(row: JobRow): Promise<void> {
    const status = await this.repo.statusOf(row.id);
    await this.bus.publish({ topic: `${row.kind}s`, type: 'status', id: row.id, data: status ? { state: status.state, cpu: status.cpu_percent, rss: status.rss_bytes, restarts: status.restarts, reason: status.reason } : null });
  }

  /** Running jobs on this node, by key (for tests and the API's stream endpoints). */
  runner(key: string): RunnerHandle | undefined {
    return this.running.get(key)?.runner;
  }

  /**
   * Stop supervising. With `stopJobs` (a clean shutdown) every process is stopped gracefully;
   * without, the runners stop watching and the processes are left to the next start, which reaps
   * and restarts them (what a control plane killed outright leaves).
   */
  async stop(options: { stopJobs: boolean } = { stopJobs: true }): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.statsTimer) clearInterval(this.statsTimer);
    this.unsubscribe?.();
    await this.sweeping?.catch(() => {});
    if (options.stopJobs) {
      await Promise.all(
        [...this.running].map(async ([key, running]) => {
          const wasUp = running.state !== null && running.state !== 'stopped' && running.state !== 'failed';
          await running.runner.stop().catch(() => {});
          await running.events;
          this.registry.forget(key);
          await this.repo
            .writeStatus(running.row.id, this.options.nodeId, { state: 'stopped', pid: null, cpuPercent: 0, rssBytes: 0, inputBps: null, outputBps: null, ioRates: null, reason: 'node_shutdown' })
            .catch(() => {});
          // Still switched on, but not running until the node is back: a downtime, not an operator's stop.
          if (wasUp) {
            await this.repo
              .recordEvent({ jobId: running.row.id, type: 'EXIT', reason: 'node_shutdown', detail: 'the node was shut down', actor: { kind: 'engine' }, nodeId: this.options.nodeId })
              .catch(() => {});
          }
        }),
      );
    } else {
      for (const running of this.running.values()) running.runner.abandon?.();
    }
    this.running.clear();
  }
}
