import { mkdir } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { FailoverPolicy, type ActiveInput } from './failover.ts';
import { buildFfmpegArgs, type FfmpegCommand } from './ffmpeg/build-args.ts';
import { LIVE_PROBE_SECONDS } from './ffmpeg/inputs/uri.ts';
import { prepareHlsKeys } from './ffmpeg/hls-keys.ts';
import { ffmpegLogLevelFor, parseFfmpegLogLine } from './logs/ffmpeg-log-parser.ts';
import { JobLogWriter } from './logs/job-log.ts';
import { TsFanout } from './mpegts-fanout.ts';
import { probeInput } from './probe/input-probe.ts';
import { SrtBridgeSet, type SrtLinkStatus } from './srt/srt-bridges.ts';
import { JobIoMeter, type LinkRate } from './stats/job-io.ts';
import { JobStatsSampler, type JobStatsSample } from './stats/job-stats.ts';
import { kernelUdpCounters, type KernelUdpCounters } from './stats/udp-counters.ts';
import type { Backoff } from './supervisor/backoff.ts';
import { ProcessSupervisor } from './supervisor/process-supervisor.ts';
import { LOG_LEVELS, type DesiredState, type EngineEvent, type InputSpec, type JobSpec, type JobState, type LogLevel, type LogLine } from './types.ts';

export interface JobRunnerDeps {
  /** Default: `ffmpeg` from PATH. */
  ffmpegPath?: string;
  /** Used to probe the primary input while on failover. Default: `ffprobe` from PATH. */
  ffprobePath?: string;
  /** The job's log file on this node (rotated at the spec's logMaxSizeInMegaBytes). */
  logFile: string;
  /** The node this runner executes on, reported in the status. */
  nodeName: string;
  onEvent: (event: EngineEvent) => void;
  /** Clock for event times (ms since the epoch). */
  now?: () => number;
  /** SIGINT → SIGKILL grace on stop and soft restart (default 5 s). */
  stopGraceMs?: number;
  /** CPU/RSS sampling period while a process runs (default 2 s). */
  statsIntervalMs?: number;
  /** A process running this long resets the restart attempt count (default 10 s). */
  healthyAfterMs?: number;
  /** Restart delays (default 250 ms doubling to 30 s). */
  backoff?: Backoff;
  /** How often the primary is probed while on failover (default 2 s), and each probe's limit (default 5 s). */
  probeIntervalMs?: number;
  probeTimeoutMs?: number;
  /** Replaces the ffprobe check of the primary input (tests, or a cheaper check for some sources). */
  probePrimary?: (input: InputSpec) => Promise<boolean>;
  /** The least time a primary gets to deliver its first media after a start or a return (default 10 s). */
  failoverOpeningAllowanceMs?: number;
  /**
   * srt-live-transmit, which carries the job's SRT links and reports their statistics (engine/srt).
   * Default: `srt-live-transmit` from PATH when installed; null: never (ffmpeg's libsrt carries SRT,
   * without statistics).
   */
  srtLiveTransmitPath?: string | null;
  /** srt-live-transmit's statistics period in packets (default 25); SRT events are passed on at most once a second per link. */
  srtStatsEveryPackets?: number;
  /** Kernel counters of UDP flows, for the bitrates of UDP/RTP inputs and outputs (default: the node's; null: not measured). */
  udpCounters?: KernelUdpCounters | null;
}

export interface JobRunnerStatus {
  state: JobState;
  desired: DesiredState;
  pid: number | null;
  /** Processes started again (automatically or by restart/reload/failover) since the job was started. */
  restarts: number;
  /** CPU of the whole process group and of the job's SRT companions (srt-live-transmit), 100 = one core. 0 when no process runs. */
  cpuPercent: number;
  rssBytes: number;
  /** Bits per second of the input the job reads now, as measured where its bytes pass (stats/job-io.ts); null: not measured (or nothing runs). */
  inputBps: number | null;
  /** Bits per second of every enabled output together; null unless each of them is measured. */
  outputBps: number | null;
  /** Each input's rate (0 primary, 1 failover) and each enabled output's, by index; bps null: not measured. Empty while nothing runs. */
  inputs: LinkRate[];
  outputs: LinkRate[];
  /** When the job was last started (by an operator or a timer), ms since the epoch; null while stopped. */
  startedAt: number | null;
  /** When the current process was spawned, ms since the epoch. */
  lastStartAt: number | null;
  /** Seconds since the job was started (across restarts); null while stopped. */
  uptimeSeconds: number | null;
  /** Seconds since the current process was spawned; null when none runs. */
  secondsSinceLastStart: number | null;
  lastExit: Extract<EngineEvent, { type: 'exit' }> | null;
  activeInput: ActiveInput;
  node: string;
  /** The latest SRT statistics of each SRT input and output carried by srt-live-transmit (empty when none is). */
  srt: SrtLinkStatus[];
}

function rank(level: LogLevel): number {
  return LOG_LEVELS.indexOf(level);
}

/**
 * Runs one job: builds its argv (the failover input when the policy says so), supervises the
 * process, writes the supervisor's lines and ffmpeg's stderr to the job's log, samples CPU, memory
 * and the bitrates of its inputs and outputs where their bytes pass (stats/job-io.ts), starts a
 * process again at once with a longer probe when probing found too little (`probe_incomplete`),
 * fans the MPEG-TS of an mpegts output out to HTTP clients, switches inputs on failover,
 * and runs the srt-live-transmit companions that carry its SRT links and report their statistics
 * (engine/srt: started before ffmpeg, kept across ffmpeg's own restarts, stopped with the job).
 */
export class JobRunner {
  private spec: JobSpec;
  private readonly deps: JobRunnerDeps;
  private readonly clock: () => number;
  private readonly supervisor: ProcessSupervisor;
  private log: JobLogWriter;
  private failover: FailoverPolicy | undefined;
  private usesStdout = false;
  /** The input the last built command reads, and the one the current process reads. */
  private commandInput: ActiveInput = 'primary';
  private processInput: ActiveInput = 'primary';
  private fanout: TsFanout | undefined;
  private readonly srt: SrtBridgeSet;
  private readonly io: JobIoMeter;
  private readonly stats: JobStatsSampler;
  /** What the last built command said of itself (probing, the output ffmpeg counts), and the current process's. */
  private commandInfo: Pick<FfmpegCommand, 'probe' | 'progressOutput'> = {};
  private processInfo: Pick<FfmpegCommand, 'probe' | 'progressOutput'> = {};
  /** Steps of longer probing since the job was started (processes that ended with `probe_incomplete`), and the input they were for. */
  private probeRetries = 0;
  private probeRetriesFor: ActiveInput = 'primary';

  constructor(spec: JobSpec, deps: JobRunnerDeps) {
    this.spec = spec;
    this.deps = deps;
    this.clock = deps.now ?? Date.now;
    this.log = this.openLog(spec);
    this.failover = this.makeFailover(spec);
    if (this.needsFanout(spec)) this.ensureFanout();
    this.srt = new SrtBridgeSet({
      jobId: spec.id,
      srtLiveTransmitPath: deps.srtLiveTransmitPath,
      statsEveryPackets: deps.srtStatsEveryPackets,
      backoff: deps.backoff,
      now: this.clock,
      onStats: (link) => this.deps.onEvent({ type: 'srt', jobId: this.spec.id, ...link }),
      onLog: (level, text) => this.note(level, text),
    });
    this.io = new JobIoMeter(deps.udpCounters === undefined ? kernelUdpCounters() : deps.udpCounters);
    this.stats = new JobStatsSampler({
      io: this.io,
      companions: () => this.srt.sample(),
      context: () => ({ fanoutBytes: this.usesStdout ? this.fanout?.bytesIn : undefined, srt: this.srt.status() }),
      onSample: (sample) => this.onStatsSample(sample),
      intervalMs: deps.statsIntervalMs,
    });

    this.supervisor = new ProcessSupervisor({
      id: spec.id,
      command: () => this.command(),
      progressFd: 3,
      staleTimeoutMs: spec.staleTimeoutSeconds * 1000,
      restart: {
        attempts: spec.restartAttempts,
        backoff: deps.backoff,
        healthyAfterMs: deps.healthyAfterMs,
        onFinish: spec.videoType === 'LIVE',
      },
      stopGraceMs: deps.stopGraceMs ?? 5_000,
      retryStart: (exit) => this.retryStart(exit.reason),
      onStdout: (stream) => this.takeStdout(stream),
      now: this.clock,
    });
    this.wire();
  }

  get id(): string {
    return this.spec.id;
  }

  start(): void {
    if (this.supervisor.desired !== 'running' || this.supervisor.state === 'failed') this.newRun();
    this.supervisor.start();
  }

  /** Stops ffmpeg and the SRT companions together. */
  async stop(): Promise<void> {
    this.failover?.stop();
    await Promise.all([this.supervisor.stop(), this.srt.stopAll()]);
    await Promise.all([this.log.flush(), this.io.dispose()]);
  }

  /** A restart by the operator starts the SRT links afresh too (an automatic restart of ffmpeg keeps them). */
  async restart(mode: 'hard' | 'soft'): Promise<void> {
    if (this.supervisor.state === 'stopped' || this.supervisor.state === 'failed') this.newRun();
    this.probeRetries = 0;
    await this.srt.stopAll(mode);
    await this.supervisor.restart(mode);
  }

  /** Applies a changed spec: the next process is built from it; a running job is restarted softly. */
  async reload(spec: JobSpec): Promise<void> {
    if (spec.id !== this.spec.id) throw new Error(`reload: job ${this.spec.id} cannot become ${spec.id}`);
    const previous = this.spec;
    this.spec = spec;
    if (previous.logLevel !== spec.logLevel || previous.logMaxSizeInMegaBytes !== spec.logMaxSizeInMegaBytes) {
      const old = this.log;
      this.log = this.openLog(spec);
      await old.close();
    }
    if (JSON.stringify(previous.failover) !== JSON.stringify(spec.failover) || JSON.stringify(previous.input) !== JSON.stringify(spec.input)) {
      this.failover?.stop();
      this.failover = this.makeFailover(spec);
      if (this.supervisor.desired === 'running') this.failover?.start();
    }
    if (this.needsFanout(spec)) this.ensureFanout();
    this.probeRetries = 0;
    if (this.supervisor.desired === 'running') void this.io.configure(spec, this.outputCountedByFfmpeg());
    this.supervisor.configure({
      staleTimeoutMs: spec.staleTimeoutSeconds * 1000,
      restart: { attempts: spec.restartAttempts, onFinish: spec.videoType === 'LIVE' },
    });
    if (this.supervisor.desired === 'running') {
      this.note('NOTICE', 'configuration changed: reload (soft restart)');
      await this.supervisor.restart('soft');
    }
  }

  /** The MPEG-TS fan-out of an mpegts output (it lives across restarts); undefined when the job has none. */
  mpegts(): TsFanout | undefined {
    return this.fanout;
  }

  status(): JobRunnerStatus {
    const now = this.clock();
    const running = this.supervisor.pid !== undefined;
    const startedAt = this.supervisor.desired === 'running' ? (this.supervisor.startedAt ?? null) : null;
    const lastStartAt = this.supervisor.spawnedAt ?? null;
    const sample = this.stats.latest;
    return {
      state: this.supervisor.state,
      desired: this.supervisor.desired,
      pid: this.supervisor.pid ?? null,
      restarts: this.supervisor.restarts,
      cpuPercent: (running && sample?.cpuPercent) || 0,
      rssBytes: (running && sample?.rssBytes) || 0,
      inputBps: running && sample ? sample.inputBps : null,
      outputBps: running && sample ? sample.outputBps : null,
      inputs: running && sample ? sample.inputs : [],
      outputs: running && sample ? sample.outputs : [],
      startedAt,
      lastStartAt,
      uptimeSeconds: startedAt === null ? null : Math.max(0, (now - startedAt) / 1000),
      secondsSinceLastStart: lastStartAt === null ? null : Math.max(0, (now - lastStartAt) / 1000),
      lastExit: this.supervisor.lastExit ?? null,
      activeInput: this.failover?.active ?? 'primary',
      node: this.deps.nodeName,
      srt: this.srt.status(),
    };
  }

  /** Stops watching and leaves the processes running, as a control plane killed outright would (see ProcessSupervisor.abandon). */
  abandon(): void {
    this.failover?.stop();
    this.stats.stop();
    this.supervisor.abandon();
  }

  /** Stops the job and releases what it holds (log file, fan-out). */
  async dispose(): Promise<void> {
    await this.stop();
    this.fanout?.close();
    await this.log.close();
  }

  private openLog(spec: JobSpec): JobLogWriter {
    return new JobLogWriter(this.deps.logFile, { maxSizeBytes: spec.logMaxSizeInMegaBytes * 1024 * 1024, minLevel: spec.logLevel });
  }

  private makeFailover(spec: JobSpec): FailoverPolicy | undefined {
    const failover = spec.failover;
    if (!failover) return undefined;
    const probe = () =>
      this.deps.probePrimary
        ? this.deps.probePrimary(this.spec.input)
        : probeInput(this.spec.input, { ffprobePath: this.deps.ffprobePath, ffmpegPath: this.deps.ffmpegPath, timeoutMs: this.deps.probeTimeoutMs, jobId: this.spec.id });
    return new FailoverPolicy({
      switchTimeoutMs: failover.switchTimeoutSeconds * 1000,
      returnAfterHealthyMs: (failover.returnAfterHealthySeconds ?? 10) * 1000,
      probeIntervalMs: this.deps.probeIntervalMs ?? 2_000,
      openingAllowanceMs: this.deps.failoverOpeningAllowanceMs,
      probe,
      onSwitch: (to, reason) => this.onFailoverSwitch(to, reason),
      onNotice: (text) => this.note('INFO', `failover: ${text}`),
    });
  }

  private onFailoverSwitch(to: ActiveInput, reason: string): void {
    this.deps.onEvent({ type: 'failover', jobId: this.spec.id, to, reason, at: this.clock() });
    this.note('WARNING', `failover: switching to the ${to === 'primary' ? 'primary' : 'failover'} input: ${reason}`);
    // Leaving a silent primary: kill at once (a blocked read may ignore SIGINT). Returning to a healthy primary: graceful.
    void this.supervisor.restart(to === 'failover' ? 'hard' : 'soft');
  }

  private needsFanout(spec: JobSpec): boolean {
    return spec.outputs.some((o) => o.type === 'mpegts' && !o.disabled);
  }

  private ensureFanout(): void {
    this.fanout ??= new TsFanout();
  }

  /** Each new process's stdout feeds the same fan-out, so HTTP clients stay connected across restarts. */
  private takeStdout(stream: Readable): void {
    if (this.usesStdout && this.fanout) this.fanout.attach(stream);
    else stream.resume();
  }

  private async command(): Promise<{ file: string; args: string[] }> {
    const level = ffmpegLogLevelFor(this.spec.logLevel);
    const input: ActiveInput = this.failover?.active ?? 'primary';
    // SRT links go through srt-live-transmit companions on loopback UDP ports (engine/srt).
    const bridges = await this.srt.plan(this.spec, input);
    if (input !== this.probeRetriesFor) this.probeRetries = 0;
    this.probeRetriesFor = input;
    const built = buildFfmpegArgs(this.spec, {
      useFailover: input === 'failover',
      // The exit classifier needs ffmpeg's error lines even when the job keeps only FATAL.
      ffmpegLogLevel: level === 'fatal' ? 'error' : level,
      srtBridges: bridges.ports,
      probeRetries: this.probeRetries,
    });
    this.commandInfo = { probe: built.probe, progressOutput: built.progressOutput };
    await Promise.all(built.directories.map((dir) => mkdir(dir, { recursive: true })));
    await prepareHlsKeys(this.spec);
    this.usesStdout = built.usesStdout;
    this.commandInput = input;
    if (built.usesStdout) this.ensureFanout();
    // Synchronously before the spawn: a stop that came while the command was built starts nothing.
    if (this.supervisor.desired === 'running') bridges.apply();
    return { file: this.deps.ffmpegPath ?? 'ffmpeg', args: built.args };
  }

  private write(line: LogLine): void {
    if (rank(line.level) < rank(this.spec.logLevel)) return;
    if (this.spec.logTarget !== 'NONE') this.log.write(line);
    this.deps.onEvent({ type: 'log', jobId: this.spec.id, line });
  }

  private note(level: LogLevel, text: string): void {
    this.write({ time: this.clock(), level, text, source: 'supervisor' });
  }

  private wire(): void {
    const s = this.supervisor;
    s.on('state', (event) => {
      // The job is over (stopped, finished, or failed for good): its SRT companions go with it.
      if (event.state === 'stopped' || event.state === 'failed') void this.srt.stopAll();
      this.deps.onEvent(event);
    });
    s.on('exit', (event) => {
      this.stats.stop();
      this.io.processEnded();
      this.deps.onEvent(event);
    });
    s.on('notice', (event) => this.write({ time: event.at, level: event.level, text: event.text, source: 'supervisor' }));
    s.on('log', (event) => this.write(parseFfmpegLogLine(event.raw, event.at)));
    s.on('progress', ({ advanced, ...event }) => {
      // Only the primary's own media counts for the primary (not the old process of a switch going down).
      if (advanced && this.processInput === 'primary') this.failover?.progress();
      this.io.progress(event.progress.totalSizeBytes);
      this.deps.onEvent(event);
    });
    s.on('spawn', (event) => {
      this.processInput = this.commandInput;
      this.processInfo = this.commandInfo;
      this.io.processStarted(event.pid, this.processInput, this.processInfo.progressOutput);
      this.stats.start(event.pid);
      this.deps.onEvent({ type: 'spawn', jobId: this.spec.id, pid: event.pid, at: event.at });
    });
  }

  /** The job was started by its operator (or after it failed): failover, SRT warnings, bitrates and probing begin afresh. */
  private newRun(): void {
    this.failover?.start();
    this.srt.newRun();
    this.probeRetries = 0;
    void this.io.configure(this.spec, this.outputCountedByFfmpeg());
  }

  /** The output whose bytes ffmpeg's progress will count, as the command would be built now (none when it cannot be). */
  private outputCountedByFfmpeg(): number | undefined {
    try {
      return buildFfmpegArgs(this.spec, { useFailover: this.failover?.active === 'failover' }).progressOutput;
    } catch {
      return undefined;
    }
  }

  /**
   * A process that ended while starting because probing found too little (`probe_incomplete`) is
   * started again at once with the next longer probe (LIVE_PROBE_SECONDS), as part of the start:
   * no restart attempt is used. The longer probe stays for the job's later starts until its
   * operator starts it again (the source's GOP does not change from one crash to the next).
   */
  private retryStart(reason: string): string | undefined {
    const probe = this.processInfo.probe;
    if (reason !== 'probe_incomplete' || !probe?.longerLeft) return undefined;
    this.probeRetries++;
    const next = LIVE_PROBE_SECONDS[LIVE_PROBE_SECONDS.indexOf(probe.seconds as (typeof LIVE_PROBE_SECONDS)[number]) + 1] ?? 'longer';
    return `the input's streams were not all known after ${probe.seconds} s of probing: starting again at once with ${next} s of probing (no restart attempt used)`;
  }

  private onStatsSample(sample: JobStatsSample): void {
    this.deps.onEvent({ type: 'stats', jobId: this.spec.id, at: this.clock(), ...sample });
  }
}
