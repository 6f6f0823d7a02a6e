import path from 'node:path';
import { CMAF_HLS_MASTER, DASH_MANIFEST } from '../ffmpeg/outputs/dash.ts';
import { HLS_ENTRY_PLAYLIST } from '../ffmpeg/outputs/hls.ts';
import { JobRunner, type JobRunnerDeps } from '../job-runner.ts';
import { JobLogWriter } from '../logs/job-log.ts';
import { LOG_LEVELS, type DesiredState, type EngineEvent, type ExitReason, type JobSpec, type JobState, type LogLevel, type LogLine, type OutputSpec } from '../types.ts';
import { runBatch, type BatchLogEntry, type BatchStatus, type BatchTranscodeResult } from './batch-entry.ts';
import { batchItemJob, planBatch, type BatchItem, type BatchPlan } from './batch-plan.ts';

/** What a batch needs of the runner of one file: JobRunner's life cycle (a test may hand in another). */
export interface BatchItemRunner {
  start(): void;
  stop(): Promise<void>;
  dispose(): Promise<void>;
  status(): { pid: number | null; cpuPercent: number; rssBytes: number };
}

export interface BatchJobRunnerDeps extends JobRunnerDeps {
  /** Each file's batch log entry, as the file is done (awaited: the next file starts after it). */
  onEntry: (entry: BatchLogEntry) => void | Promise<void>;
  /** Source files an earlier run transcoded (status DONE): a started or restarted batch skips them. */
  doneFiles: () => Promise<Iterable<string>>;
  /** Source duration for the entry; default ffprobe. */
  probeDurationSeconds?: (file: string) => Promise<number | null>;
  /** Default: a JobRunner for the file's job. */
  createItemRunner?: (spec: JobSpec, deps: JobRunnerDeps) => BatchItemRunner;
}

export interface BatchProgress {
  /** Files the glob matched. */
  files: number;
  /** Done or failed in this run, and done by an earlier run. */
  done: number;
  failed: number;
  skipped: number;
  /** The source file being transcoded now. */
  currentFile: string | null;
}

export interface BatchJobRunnerStatus {
  state: JobState;
  desired: DesiredState;
  pid: number | null;
  restarts: number;
  cpuPercent: number;
  rssBytes: number;
  startedAt: number | null;
  uptimeSeconds: number | null;
  lastExit: Extract<EngineEvent, { type: 'exit' }> | null;
  node: string;
  batch: BatchProgress;
}

type Outcome = BatchStatus;

interface Pass {
  abort: AbortController;
  done: Promise<void>;
}

interface Current {
  item: BatchItem;
  runner: BatchItemRunner;
  /** Decided before the process is gone (a failure not worth retrying). */
  outcome?: Outcome;
  /** Aborted when the batch is stopped or restarted: the file's events then only settle its outcome. */
  signal?: AbortSignal;
  settle: (outcome: Outcome) => void;
}

/** Exits that trying the same file again will not cure: the batch goes on with the next file at once. */
const NOT_RETRIED = new Set<ExitReason>(['not_found', 'invalid_data', 'codec_unsupported', 'option_unsupported']);

type ExitEvent = Extract<EngineEvent, { type: 'exit' }>;

/** The files a finished batch job wrote for one output, as templates (placeholders filled per file). */
function outputTemplates(output: OutputSpec): string[] {
  switch (output.type) {
    case 'hls':
      return [path.join(output.dir, HLS_ENTRY_PLAYLIST)];
    case 'dash':
      return [path.join(output.dir, DASH_MANIFEST)];
    case 'cmaf':
      return [path.join(output.dir, DASH_MANIFEST), path.join(output.dir, CMAF_HLS_MASTER)];
    case 'rtmp':
      return [output.url];
    case 'srt':
      return [`srt://${output.host}:${output.port}${output.streamId ? `?streamid=${output.streamId}` : ''}`];
    case 'udp':
    case 'tcp':
      return [`${output.type}://${output.host}:${output.port}`];
    case 'mpegts':
      return ['mpegts'];
  }
}

/**
 * A batch VOD job (spec 01 §2.6): the glob of its uri input is expanded and every file not done
 * by an earlier run is transcoded once, one after the other, each by a JobRunner of its own over
 * `batchItemJob(job, item)` (VOD: the process ends with its file), its outputs named by the
 * placeholders. A batch log entry is handed out as each file finishes. The events are the job's:
 * `running` with each file's process, an exit per failed file (the batch goes on: willRestart),
 * and, when every file has had its turn, an exit with reason `finished` and the state `stopped`.
 *
 * A file's process is restarted on a crash like any job's (its restart attempts), except for
 * failures another try will not cure (input not found, invalid data, unsupported codec or option).
 * Stop ends the file being transcoded (its entry says NONE); restart and reload end it too and plan
 * again, skipping the files done. Hard and soft restarts are the same here: the file in progress is
 * ended gracefully (ffmpeg closes its outputs) and done again from its start.
 */
export class BatchJobRunner {
  private spec: JobSpec;
  private readonly deps: BatchJobRunnerDeps;
  private readonly clock: () => number;
  private _state: JobState = 'stopped';
  private _desired: DesiredState = 'stopped';
  private pass: Pass | undefined;
  /** Bumped by every start, stop and restart: a pending replacement of the pass that is no longer current gives up. */
  private generation = 0;
  private current: Current | undefined;
  private progress: BatchProgress = { files: 0, done: 0, failed: 0, skipped: 0, currentFile: null };
  private outcomes = new Map<string, Outcome>();
  private restarts = 0;
  private startedAt: number | null = null;
  private lastExit: ExitEvent | null = null;

  constructor(spec: JobSpec, deps: BatchJobRunnerDeps) {
    this.spec = spec;
    this.deps = deps;
    this.clock = deps.now ?? Date.now;
  }

  get id(): string {
    return this.spec.id;
  }

  start(): void {
    if (this._desired === 'running' && this.pass) return;
    this._desired = 'running';
    this.restarts = 0;
    this.startedAt = this.clock();
    void this.replacePass(++this.generation);
  }

  /** Ends the file in progress (its entry says NONE) and stops the batch; resolves once its process is gone. */
  async stop(): Promise<void> {
    this._desired = 'stopped';
    this.generation++;
    const pass = this.pass;
    if (pass) {
      this.setState('stopping');
      pass.abort.abort();
      await pass.done;
    }
    if (this._desired === 'stopped' && this._state !== 'stopped') this.setState('stopped', { reason: 'stopped', detail: 'stop requested' });
    this.startedAt = null;
  }

  /** Ends the file in progress and plans again: only the files not done are transcoded. */
  async restart(mode: 'hard' | 'soft'): Promise<void> {
    if (!this.pass && this._desired !== 'running') {
      this.start();
      return;
    }
    this._desired = 'running';
    this.restarts++;
    if (this._state === 'starting' || this._state === 'running') this.setState('restarting');
    await this.replacePass(++this.generation, `batch: ${mode} restart: the files not done are planned again`);
  }

  /** A changed job: the files still to do are planned from it (the one in progress is done again). */
  async reload(spec: JobSpec): Promise<void> {
    if (spec.id !== this.spec.id) throw new Error(`reload: job ${this.spec.id} cannot become ${spec.id}`);
    this.spec = spec;
    if (this._desired === 'running' && this.pass) await this.restart('soft');
  }

  status(): BatchJobRunnerStatus {
    const item = this.current?.runner.status();
    return {
      state: this._state,
      desired: this._desired,
      pid: item?.pid ?? null,
      restarts: this.restarts,
      cpuPercent: item?.cpuPercent ?? 0,
      rssBytes: item?.rssBytes ?? 0,
      startedAt: this.startedAt,
      uptimeSeconds: this.startedAt === null ? null : Math.max(0, (this.clock() - this.startedAt) / 1000),
      lastExit: this.lastExit,
      node: this.deps.nodeName,
      batch: { ...this.progress, currentFile: this.current?.item.sourceFile ?? null },
    };
  }

  /** Stops the batch; nothing else is held between files. */
  async dispose(): Promise<void> {
    await this.stop();
  }

  /** Ends the pass in progress (if any), then starts a new one unless another order came meanwhile. */
  private async replacePass(generation: number, note?: string): Promise<void> {
    const old = this.pass;
    if (old) {
      old.abort.abort();
      await old.done;
    }
    if (generation !== this.generation || this._desired !== 'running') return;
    if (note) await this.note('NOTICE', note);
    if (generation !== this.generation || this._desired !== 'running') return;
    this.setState('starting');
    const pass: Pass = { abort: new AbortController(), done: Promise.resolve() };
    this.pass = pass;
    pass.done = this.runPass(pass.abort.signal)
      .catch(async (error: Error) => {
        if (!pass.abort.signal.aborted) await this.fail('crashed', `batch: ${error.message}`);
      })
      .finally(() => {
        if (this.pass === pass) this.pass = undefined;
      });
  }

  private async runPass(signal: AbortSignal): Promise<void> {
    const input = this.spec.input;
    if (input.type !== 'uri') {
      await this.fail('invalid_data', 'batch: a batch job reads a uri input holding a glob pattern');
      return;
    }
    let plan: BatchPlan;
    try {
      const done = await this.deps.doneFiles();
      plan = await planBatch(input.uri, this.spec.outputs.filter((o) => !o.disabled).flatMap(outputTemplates), done);
    } catch (error) {
      if (!signal.aborted) await this.fail('input_unreachable', `batch: cannot list the files of ${input.uri}: ${(error as Error).message}`);
      return;
    }
    if (signal.aborted) return;
    this.outcomes = new Map();
    this.progress = { files: plan.items.length + plan.skipped.length, done: 0, failed: 0, skipped: plan.skipped.length, currentFile: null };
    const before = plan.skipped.length ? ` (${plan.skipped.length} done before, skipped)` : '';
    await this.note('NOTICE', `batch: ${plan.items.length} file(s) to transcode from ${input.uri}${before}`);

    await runBatch(plan, (item, itemSignal) => this.transcode(item, plan, itemSignal), (entry) => this.record(entry), {
      jobName: this.spec.name,
      signal,
      probeDurationSeconds: this.deps.probeDurationSeconds,
    });
    if (signal.aborted) return;
    await this.finish(input.uri);
  }

  /** Runs one file's job to its end: DONE when ffmpeg finished it, FAILED when it could not, NONE when the batch was stopped meanwhile. */
  private async transcode(item: BatchItem, plan: BatchPlan, signal?: AbortSignal): Promise<BatchTranscodeResult> {
    const position = plan.items.indexOf(item) + 1 + plan.skipped.length;
    await this.note('NOTICE', `batch: file ${position} of ${this.progress.files}: ${item.sourceFile} -> ${item.outputs.join(', ')}`);
    const spec: JobSpec = { ...batchItemJob(this.spec, item), videoType: 'VOD' };
    let settle!: (outcome: Outcome) => void;
    const settled = new Promise<Outcome>((resolve) => (settle = resolve));
    const current = { item, settle, signal } as Current;
    const itemDeps: JobRunnerDeps = { ...this.deps, onEvent: (event) => this.onItemEvent(current, event) };
    current.runner = this.deps.createItemRunner ? this.deps.createItemRunner(spec, itemDeps) : new JobRunner(spec, itemDeps);
    this.current = current;
    const onAbort = () => void current.runner.stop();
    signal?.addEventListener('abort', onAbort, { once: true });
    let outcome: Outcome;
    try {
      if (signal?.aborted) settle('NONE');
      else current.runner.start();
      outcome = await settled;
    } finally {
      signal?.removeEventListener('abort', onAbort);
      await current.runner.dispose().catch(() => {});
      if (this.current === current) this.current = undefined;
    }
    this.outcomes.set(item.sourceFile, outcome);
    if (outcome === 'DONE') this.progress.done++;
    if (outcome === 'FAILED') this.progress.failed++;
    return { status: outcome === 'DONE' ? 'DONE' : 'FAILED' };
  }

  /** The entry of a file the batch was stopped in the middle of says NONE: it has no outcome, and is done again next time. */
  private async record(entry: BatchLogEntry): Promise<void> {
    const stored: BatchLogEntry = this.outcomes.get(entry.sourceFile) === 'NONE' ? { ...entry, status: 'NONE' } : entry;
    try {
      await this.deps.onEntry(stored);
    } catch (error) {
      await this.note('ERROR', `batch: the entry of ${entry.sourceFile} could not be kept: ${(error as Error).message}`);
    }
    const took = stored.elapsedTimeInSeconds === null ? '' : ` in ${stored.elapsedTimeInSeconds} s`;
    await this.note(stored.status === 'DONE' ? 'NOTICE' : 'WARNING', `batch: ${stored.sourceFile}: ${stored.status}${took}`);
  }

  /** One file's events become the job's: its process, logs, progress and statistics as they are; its ends decide the file's outcome. */
  private onItemEvent(current: Current, event: EngineEvent): void {
    const ending = current.signal?.aborted === true;
    switch (event.type) {
      case 'state':
        if (ending && event.state !== 'stopped' && event.state !== 'failed') return;
        switch (event.state) {
          case 'running':
            this.setState('running', { pid: event.pid });
            return;
          case 'restarting':
            if (this._state === 'starting' || this._state === 'running') this.setState('restarting', { reason: event.reason, detail: event.detail });
            return;
          case 'starting':
            if (this._state === 'restarting') this.setState('starting');
            return;
          case 'stopped':
            current.settle(current.outcome ?? (event.reason === 'finished' ? 'DONE' : 'NONE'));
            return;
          case 'failed':
            current.settle(current.outcome ?? 'FAILED');
            return;
          case 'stopping':
            return;
        }
        return;
      case 'exit': {
        if (ending || event.reason === 'stopped' || (event.reason === 'finished' && !event.willRestart)) return;
        const notRetried = event.willRestart && NOT_RETRIED.has(event.reason);
        if (!event.willRestart || notRetried) current.outcome = 'FAILED';
        // After the supervisor has settled this exit: stopping inside its own event would cut its bookkeeping short.
        if (notRetried) setImmediate(() => void current.runner.stop());
        this.restarts++;
        // The job goes on: with the same file (a restart attempt) or the next one.
        const exit: ExitEvent = { ...event, detail: `${current.item.sourceFile}: ${event.detail}`, willRestart: true };
        this.lastExit = exit;
        this.deps.onEvent(exit);
        if (current.outcome === 'FAILED' && (this._state === 'starting' || this._state === 'running')) this.setState('restarting', { reason: event.reason, detail: exit.detail });
        return;
      }
      default:
        this.deps.onEvent(event);
    }
  }

  private async finish(glob: string): Promise<void> {
    const { files, done, failed, skipped } = this.progress;
    const transcoded = files - skipped;
    let detail: string;
    if (files === 0) detail = `no file matches ${glob}`;
    else if (transcoded === 0) detail = `nothing left to do: the ${files} file(s) were done before`;
    else detail = `${transcoded} file(s): ${done} done, ${failed} failed${skipped ? `; ${skipped} done before` : ''}`;
    this._desired = 'stopped';
    this.startedAt = null;
    const exit: ExitEvent = { type: 'exit', jobId: this.spec.id, reason: 'finished', code: 0, signal: null, detail, at: this.clock(), willRestart: false };
    this.lastExit = exit;
    this.deps.onEvent(exit);
    this.setState('stopped', { reason: 'finished', detail });
    await this.note('NOTICE', `batch finished: ${detail}`);
  }

  private async fail(reason: ExitReason, detail: string): Promise<void> {
    const exit: ExitEvent = { type: 'exit', jobId: this.spec.id, reason, code: null, signal: null, detail, at: this.clock(), willRestart: false };
    this.lastExit = exit;
    this.deps.onEvent(exit);
    this.setState('failed', { reason, detail });
    await this.note('ERROR', detail);
  }

  private setState(state: JobState, extra: { reason?: ExitReason; detail?: string; pid?: number } = {}): void {
    // `running` again carries the next file's process.
    if (state === this._state && extra.pid === undefined) return;
    this._state = state;
    const defined = Object.fromEntries(Object.entries(extra).filter(([, value]) => value !== undefined)) as typeof extra;
    this.deps.onEvent({ type: 'state', jobId: this.spec.id, state, desired: this._desired, at: this.clock(), ...defined });
  }

  /** The batch's own lines in the job's log, written only between files (the file's runner owns the log while it runs). */
  private async note(level: LogLevel, text: string): Promise<void> {
    if (LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(this.spec.logLevel)) return;
    const line: LogLine = { time: this.clock(), level, text, source: 'supervisor' };
    this.deps.onEvent({ type: 'log', jobId: this.spec.id, line });
    const writer = new JobLogWriter(this.deps.logFile, { maxSizeBytes: this.spec.logMaxSizeInMegaBytes * 1024 * 1024 });
    writer.write(line);
    await writer.close();
  }
}
