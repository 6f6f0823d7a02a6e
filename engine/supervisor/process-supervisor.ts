import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import type { DesiredState, ExitReason, JobState, LogLevel } from '../types.ts';
import { DEFAULT_BACKOFF } from './backoff.ts';
import { classifyExit, inputsOfArgs } from './exit-classifier.ts';
import { signalGroup, trackGroup, untrackGroup } from './process-group.ts';
import { isAdvance, ProgressParser } from './progress-parser.ts';
import { IllegalTransitionError, isLegalTransition, strictTransitions } from './transitions.ts';
import {
  DRAIN_AFTER_EXIT_MS,
  eachLine,
  LAST_LINES_KEPT,
  quoteArg,
  type ExitEvent,
  type ProcessSupervisorOptions,
  type Run,
  type SupervisedCommand,
  type SupervisorEvents,
} from './supervisor-types.ts';
import { TypedEmitter } from './typed-emitter.ts';

export type { ProcessSupervisorOptions, SupervisedCommand, SupervisorEvents } from './supervisor-types.ts';

/**
 * Keeps one process alive the way the operator asked. `desired` is the order (running or stopped);
 * `state` is what is observed. Every move of `state` goes through the transition table; timers
 * (stale clock, stop grace, restart backoff) are the only waits, and every exit is classified.
 */
export class ProcessSupervisor extends TypedEmitter<SupervisorEvents> {
  readonly id: string;
  private _state: JobState = 'stopped';
  private _desired: DesiredState = 'stopped';
  private run: Run | undefined;
  /** Bumped whenever a pending launch must not go ahead (stop while the command was being built). */
  private generation = 0;
  private failures = 0;
  private restartTimer: NodeJS.Timeout | undefined;
  private pendingRestart = false;
  private waiters: Array<{ done: () => boolean; resolve: () => void }> = [];
  private readonly clock: () => number;
  /** Every spawn ever (restart() waits for the next one). */
  private spawnCount = 0;
  /** A process was spawned since the operator's last start: the next spawn is a restart. */
  private spawnedSinceStart = false;
  /** The next spawn starts again a process that ended while starting (retryStart): not a restart. */
  private retryingStart = false;
  private abandoned = false;
  /** Processes started again after the first since the last start by the operator. */
  restarts = 0;
  lastExit: ExitEvent | undefined;
  startedAt: number | undefined;

  private options: ProcessSupervisorOptions;

  constructor(options: ProcessSupervisorOptions) {
    super();
    this.options = { ...options, restart: { ...options.restart } };
    this.id = options.id;
    this.clock = options.now ?? Date.now;
  }

  /** New limits (a reloaded spec): they apply from the next timer, exit or spawn on. */
  configure(patch: Partial<Pick<ProcessSupervisorOptions, 'staleTimeoutMs' | 'stopGraceMs' | 'restart'>>): void {
    this.options = { ...this.options, ...patch, restart: { ...this.options.restart, ...patch.restart } };
  }

  get state(): JobState {
    return this._state;
  }

  get desired(): DesiredState {
    return this._desired;
  }

  get pid(): number | undefined {
    return this.run?.exit ? undefined : this.run?.pid;
  }

  /** The process group of the current process (its leader's pid). */
  get pgid(): number | undefined {
    return this.pid;
  }

  /** When the current process was spawned (ms since the epoch). */
  get spawnedAt(): number | undefined {
    return this.run && !this.run.exit ? this.run.spawnedAt : undefined;
  }

  start(): void {
    this._desired = 'running';
    this.failures = 0;
    switch (this._state) {
      case 'stopped':
      case 'failed':
        this.restarts = 0;
        this.spawnedSinceStart = false;
        this.startedAt = this.clock();
        void this.launch();
        break;
      case 'restarting':
        if (!this.run) {
          this.clearRestartTimer();
          void this.launch();
        } else this.pendingRestart = true;
        break;
      case 'stopping':
        // The process is going down; it is started again as soon as it is gone.
        this.pendingRestart = true;
        break;
      case 'starting':
      case 'running':
        break;
    }
  }

  /** Stops the process (SIGINT to its group, SIGKILL after the grace period); resolves once it is gone. */
  async stop(): Promise<void> {
    this._desired = 'stopped';
    this.pendingRestart = false;
    this.clearRestartTimer();
    const run = this.liveRun();
    if (!run) {
      this.generation++;
      if (this._state !== 'stopped') this.setState('stopped');
      return;
    }
    if (this._state !== 'stopping') this.setState('stopping');
    this.terminate(run, 'soft', 'stop requested');
    await this.until(() => this._state === 'stopped' || this._desired === 'running');
  }

  /**
   * hard: kill the group and start again at once; soft: stop gracefully (SIGINT, grace, SIGKILL)
   * and start again. Resolves once the new process is spawned (or the supervisor gave up).
   */
  async restart(mode: 'hard' | 'soft'): Promise<void> {
    const spawnsBefore = this.spawnCount;
    const spawned = () => this.spawnCount > spawnsBefore || this._state === 'failed' || this._desired === 'stopped';
    const run = this.liveRun();
    if (this._state === 'stopped' || this._state === 'failed') {
      this.start();
      return this.until(spawned);
    }
    this._desired = 'running';
    this.failures = 0;
    if (!run) {
      // Waiting for a backoff delay, or the command is still being built: start over now.
      this.clearRestartTimer();
      this.generation++;
      void this.launch();
      return this.until(spawned);
    }
    this.pendingRestart = true;
    if (this._state === 'starting' || this._state === 'running') this.setState('restarting');
    this.terminate(run, mode, `${mode} restart requested`);
    return this.until(spawned);
  }

  /**
   * Stops watching without touching the process: no restart, no stale clock, no stop. What a
   * control plane killed outright leaves behind (its successor reaps the process); tests use it to
   * play that crash inside one Node process.
   */
  abandon(): void {
    this.abandoned = true;
    this.generation++;
    this.clearRestartTimer();
    const run = this.run;
    if (run) {
      clearTimeout(run.staleTimer);
      clearTimeout(run.graceTimer);
      untrackGroup(run.pid);
    }
  }

  private liveRun(): Run | undefined {
    return this.run && !this.run.finished ? this.run : undefined;
  }

  private setState(next: JobState, why?: { reason: ExitReason; detail: string }): void {
    const from = this._state;
    if (from === next) return;
    if (!isLegalTransition(from, next)) {
      const error = new IllegalTransitionError(from, next, this.id);
      if (strictTransitions()) throw error;
      this.notice('ERROR', error.message);
    }
    this._state = next;
    const pid = this.pid;
    this.emit('state', { type: 'state', jobId: this.id, state: next, desired: this._desired, at: this.clock(), ...(why ?? {}), ...(pid !== undefined ? { pid } : {}) });
    this.settleWaiters();
  }

  private until(done: () => boolean): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ done, resolve }));
  }

  private settleWaiters(): void {
    const still = [];
    for (const waiter of this.waiters) {
      if (waiter.done()) waiter.resolve();
      else still.push(waiter);
    }
    this.waiters = still;
  }

  private notice(level: LogLevel, text: string): void {
    this.emit('notice', { type: 'notice', jobId: this.id, level, text, at: this.clock() });
  }

  private clearRestartTimer(): void {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
  }

  private async launch(): Promise<void> {
    if (this.abandoned) return;
    this.clearRestartTimer();
    if (this._state !== 'starting') this.setState('starting');
    const generation = ++this.generation;
    let command: SupervisedCommand;
    try {
      command = await this.options.command();
    } catch (error) {
      if (generation !== this.generation) return;
      this.afterExit(undefined, { reason: 'spawn_failed', detail: `could not build the command: ${(error as Error).message}` }, null, null);
      return;
    }
    if (generation !== this.generation || this._desired !== 'running') return;

    const progressFd = this.options.progressFd === undefined ? 3 : this.options.progressFd;
    const stdio: StdioOptions = ['ignore', this.options.onStdout ? 'pipe' : 'ignore', 'pipe'];
    if (progressFd === 3) stdio.push('pipe');
    let child: ChildProcess;
    try {
      child = spawn(command.file, command.args, {
        detached: true,
        shell: false,
        stdio,
        env: command.env ? { ...process.env, ...command.env } : process.env,
      });
    } catch (error) {
      this.afterExit(undefined, { reason: 'spawn_failed', detail: `${command.file}: ${(error as Error).message}` }, null, null);
      return;
    }
    if (child.pid === undefined) {
      child.once('error', (error) => this.afterExit(undefined, { reason: 'spawn_failed', detail: `${command.file}: ${error.message}` }, null, null));
      return;
    }

    const now = performance.now();
    const run: Run = {
      child,
      pid: child.pid,
      args: command.args,
      spawnedAt: this.clock(),
      lastAdvanceAt: now,
      lastLines: [],
      stopRequested: false,
      hang: false,
      finished: false,
    };
    this.run = run;
    if (this.spawnedSinceStart && !this.retryingStart) this.restarts++;
    this.retryingStart = false;
    this.spawnedSinceStart = true;
    this.spawnCount++;
    trackGroup(run.pid);
    child.on('error', (error) => this.notice('ERROR', `process ${run.pid}: ${error.message}`));

    this.readStderr(run);
    if (progressFd === 3) this.readProgress(run, child.stdio[3] as Readable);
    if (this.options.onStdout && child.stdout) this.options.onStdout(child.stdout);
    this.armStaleClock(run);

    child.once('exit', (code, signal) => this.onExit(run, code, signal));
    this.notice('NOTICE', `started pid ${run.pid}: ${[command.file, ...command.args].map(quoteArg).join(' ')}`);
    this.emit('spawn', { type: 'spawn', jobId: this.id, pid: run.pid, file: command.file, args: command.args, at: run.spawnedAt });
    this.settleWaiters();
  }

  private readStderr(run: Run): void {
    if (!run.child.stderr) return;
    eachLine(run.child.stderr, (raw) => {
      run.lastLines.push(raw);
      if (run.lastLines.length > LAST_LINES_KEPT) run.lastLines.shift();
      this.emit('log', { type: 'log', jobId: this.id, raw, at: this.clock() });
    });
  }

  private readProgress(run: Run, stream: Readable | undefined): void {
    if (!stream) return;
    const parser = new ProgressParser();
    stream.setEncoding('utf8');
    stream.on('error', () => undefined);
    stream.on('data', (chunk: string) => {
      if (run.finished || run !== this.run) return;
      for (const progress of parser.push(chunk)) {
        const advanced = isAdvance(run.lastProgress, progress);
        run.lastProgress = progress;
        if (advanced) run.lastAdvanceAt = performance.now();
        if (run.runningAt === undefined && !run.exit) {
          run.runningAt = performance.now();
          if (this._state === 'starting') this.setState('running');
        }
        this.emit('progress', { type: 'progress', jobId: this.id, progress, at: this.clock(), advanced });
      }
    });
  }

  /** One timer per process, re-armed for the time left: no polling. */
  private armStaleClock(run: Run): void {
    const timeout = this.options.staleTimeoutMs;
    if (!timeout || timeout <= 0) return;
    const check = () => {
      if (run.finished || run.exit || run.stopRequested) return;
      const idle = performance.now() - run.lastAdvanceAt;
      if (idle < timeout) {
        run.staleTimer = setTimeout(check, timeout - idle + 5);
        return;
      }
      run.hang = true;
      this.notice('WARNING', `no progress for ${(idle / 1000).toFixed(1)} s (stale timeout ${timeout / 1000} s): killing process group ${run.pid}`);
      signalGroup(run.pid, 'SIGKILL');
    };
    run.staleTimer = setTimeout(check, timeout);
  }

  /** Ends a process we asked to end: SIGKILL at once (hard), or SIGINT and SIGKILL after the grace period (soft). */
  private terminate(run: Run, mode: 'hard' | 'soft', why: string): void {
    if (run.exit) return; // already exited; its exit is being drained
    const first = !run.stopRequested;
    run.stopRequested = true;
    if (mode === 'hard') {
      this.notice('NOTICE', `${why}: SIGKILL to process group ${run.pid}`);
      signalGroup(run.pid, 'SIGKILL');
      return;
    }
    if (!first) return; // SIGINT already sent, the grace timer is running
    this.notice('NOTICE', `${why}: SIGINT to process group ${run.pid}, SIGKILL in ${this.options.stopGraceMs} ms`);
    signalGroup(run.pid, 'SIGINT');
    run.graceTimer = setTimeout(() => {
      if (run.exit) return;
      this.notice('WARNING', `process ${run.pid} still there ${this.options.stopGraceMs} ms after SIGINT: SIGKILL to its group`);
      signalGroup(run.pid, 'SIGKILL');
    }, this.options.stopGraceMs);
  }

  private onExit(run: Run, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.abandoned) return;
    run.exit = { code, signal };
    clearTimeout(run.staleTimer);
    clearTimeout(run.graceTimer);
    // Nothing survives its job: whatever the leader left in its group goes with it.
    signalGroup(run.pid, 'SIGKILL');
    untrackGroup(run.pid);
    // Wait for the pipes to close so the last stderr lines are in, but never for long.
    let drained = false;
    const finish = () => {
      if (drained) return;
      drained = true;
      clearTimeout(bound);
      const classified = classifyExit({
        code,
        signal,
        lastLines: run.lastLines,
        stopRequested: run.stopRequested,
        hang: run.hang,
        inputs: inputsOfArgs(run.args),
      });
      if (run.hang) classified.detail = `no progress for ${this.options.staleTimeoutMs / 1000} s: killed by the supervisor`;
      this.afterExit(run, classified, code, signal);
    };
    const bound = setTimeout(finish, DRAIN_AFTER_EXIT_MS);
    run.child.once('close', finish);
  }

  /** Decides what follows an exit (or a failed spawn): stopped, started again now, after a backoff delay, or failed. */
  private afterExit(run: Run | undefined, classified: { reason: ExitReason; detail: string }, code: number | null, signal: string | null): void {
    if (run) {
      run.finished = true;
      if (this.run === run) this.run = undefined;
    }
    const { reason, detail } = classified;
    const healthyAfter = this.options.restart.healthyAfterMs ?? 10_000;
    // Healthy: it delivered media for a while (a process that came up and then hung does not count).
    if (run?.runningAt !== undefined && run.lastAdvanceAt - run.runningAt >= healthyAfter) this.failures = 0;

    let next: JobState;
    let delay = 0;
    let startRetry: string | undefined;
    if (this._desired === 'stopped') {
      next = 'stopped';
    } else if (this.pendingRestart || this._state === 'stopping') {
      next = 'starting';
    } else if (run && run.runningAt === undefined && this._state === 'starting' && (startRetry = this.options.retryStart?.({ reason, detail })) !== undefined) {
      // Part of the start (a longer probe): at once, no attempt used.
      next = 'starting';
      this.retryingStart = true;
    } else if (reason === 'finished' && !this.options.restart.onFinish) {
      this._desired = 'stopped';
      next = 'stopped';
    } else {
      this.failures++;
      if (this.failures > this.options.restart.attempts) next = 'failed';
      else {
        next = 'restarting';
        delay = (this.options.restart.backoff ?? DEFAULT_BACKOFF)(this.failures);
      }
    }
    this.pendingRestart = false;
    const willRestart = next === 'starting' || next === 'restarting';
    const exit: ExitEvent = { type: 'exit', jobId: this.id, reason, code, signal, detail, at: this.clock(), willRestart, ...(startRetry !== undefined ? { startRetry: true as const } : {}) };
    this.lastExit = exit;
    this.emit('exit', exit);
    const who = run ? `process ${run.pid}` : 'process';
    const how = signal ? `signal ${signal}` : code === null ? 'no exit status' : `code ${code}`;
    this.notice(reason === 'stopped' || reason === 'finished' ? 'NOTICE' : next === 'failed' ? 'ERROR' : 'WARNING', `${who} exited (${how}): ${reason}: ${detail}`);

    if (startRetry !== undefined) this.notice('WARNING', startRetry);
    if (next === 'starting') {
      void this.launch();
    } else if (next === 'restarting') {
      this.setState('restarting', { reason, detail });
      const attempt = this.failures;
      this.notice('WARNING', `restart attempt ${attempt} of ${this.options.restart.attempts} in ${delay} ms`);
      this.restartTimer = setTimeout(() => {
        this.restartTimer = undefined;
        if (this._desired === 'running' && this._state === 'restarting') void this.launch();
      }, delay);
    } else if (next === 'failed') {
      this.notice('ERROR', this.options.restart.attempts === 0 ? `not restarted (restart attempts: 0): failed: ${reason}` : `restart attempts (${this.options.restart.attempts}) used up: failed: ${reason}`);
      this.setState('failed', { reason, detail });
    } else {
      this.setState('stopped', { reason, detail });
    }
    this.settleWaiters();
  }
}
