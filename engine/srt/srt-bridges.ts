import type { SrtBridgeKey } from '../ffmpeg/build-args.ts';
import type { Backoff } from '../supervisor/backoff.ts';
import type { InputSpec, JobSpec, LogLevel, SrtStats } from '../types.ts';
import { findExecutable, freeLoopbackUdpPort, reapLeftoverCompanions, SrtBridge } from './srt-bridge.ts';
import {
  bridgeUnsupportedReason,
  SRT_LIVE_TRANSMIT,
  SRT_TOOLS_PACKAGE,
  srtLinkOfInputUri,
  srtLinkOfOutput,
  srtLiveTransmitArgs,
  type SrtLink,
} from './srt-live-transmit-args.ts';
import type { SrtDirection } from './srt-stats-parser.ts';

/**
 * The SRT links of one job and their companions (see srt-bridge.ts): which links the next ffmpeg
 * process reaches through srt-live-transmit, on which loopback ports, and the companions that
 * carry them. SRT is bridged by default when srt-live-transmit is installed; without it, or for a
 * link srt-live-transmit cannot express, ffmpeg's libsrt carries the link as before, without
 * statistics, and the job's log says so (WARNING).
 */

/** The statistics of one bridged link, for the job's status. */
export interface SrtLinkStatus {
  direction: SrtDirection;
  /** Output index; for inputs 0 (primary) or 1 (failover). */
  index: number;
  /** null until srt-live-transmit has reported (a listener nobody has called yet). */
  stats: SrtStats | null;
  /** When `stats` was last updated (ms since the epoch). */
  at: number | null;
}

export interface SrtBridgeSetOptions {
  jobId: string;
  /** srt-live-transmit to use; null: never bridge (ffmpeg's libsrt carries SRT); absent: `srt-live-transmit` from PATH when installed. */
  srtLiveTransmitPath?: string | null;
  onStats: (link: { direction: SrtDirection; index: number; stats: SrtStats; at: number }) => void;
  onLog: (level: LogLevel, text: string) => void;
  backoff?: Backoff;
  /** A statistics report every this many packets (default: srt-live-transmit-args' 25). */
  statsEveryPackets?: number;
  /** At most one stats event per link per this period (default 1 s). */
  statsIntervalMs?: number;
  now?: () => number;
}

/** What the next ffmpeg process needs: the loopback port of each bridged link, and the companions to start with it. */
export interface SrtBridgePlan {
  ports: Map<SrtBridgeKey, number>;
  /** Starts the planned companions that do not run yet. Synchronous: call it right before the spawn. */
  apply(): void;
}

interface PlannedLink {
  key: SrtBridgeKey;
  direction: SrtDirection;
  index: number;
  label: string;
  what: string;
  link: SrtLink;
}

interface Entry {
  identity: string;
  bridge: SrtBridge;
}

const lookups = new Map<string, Promise<string | undefined>>();
function lookUp(program: string): Promise<string | undefined> {
  let found = lookups.get(program);
  if (!found) {
    found = findExecutable(program);
    lookups.set(program, found);
    // Installed later (apt-get while the node runs): look again next time.
    void found.then((file) => file === undefined && lookups.delete(program));
  }
  return found;
}

export class SrtBridgeSet {
  private readonly entries = new Map<SrtBridgeKey, Entry>();
  /** Warnings already written during this run of the job (each is written once per start). */
  private warned = new Set<string>();
  private reaped = false;
  /** Plans made so far: only the latest one may start companions (an older one belongs to a launch that was given up). */
  private plans = 0;

  constructor(private readonly options: SrtBridgeSetOptions) {}

  /** The job was started by its operator: warnings may be written again. */
  newRun(): void {
    this.warned.clear();
  }

  /**
   * Decides the bridges for the next process of the job (running from `input`): keeps companions
   * whose link is unchanged (the SRT connection survives a restart of ffmpeg), stops those no
   * longer wanted or changed, and picks loopback ports for new ones. Throws (like buildFfmpegArgs)
   * when an SRT link's values are not valid.
   */
  async plan(spec: JobSpec, input: 'primary' | 'failover'): Promise<SrtBridgePlan> {
    const seq = ++this.plans;
    const links = this.links(spec, input);
    let program: string | undefined;
    if (links.length && this.options.srtLiveTransmitPath !== null) {
      program = await lookUp(this.options.srtLiveTransmitPath ?? SRT_LIVE_TRANSMIT);
      if (!program) {
        this.warn(
          `${SRT_LIVE_TRANSMIT} (Debian package ${SRT_TOOLS_PACKAGE}) is not installed: ${links.map((l) => l.label).join(', ')} carried by ffmpeg's libsrt, without SRT statistics (install it with: apt-get install ${SRT_TOOLS_PACKAGE})`,
        );
      }
    }
    const bridged = program
      ? links.filter((planned) => {
          const reason = bridgeUnsupportedReason(planned.link);
          if (reason) this.warn(`SRT ${planned.label} is carried by ffmpeg's libsrt, without SRT statistics: ${reason}`);
          return !reason;
        })
      : [];

    // Check every link (throws on invalid values) before anything is stopped or started.
    const identities = new Map(bridged.map((planned) => [planned.key, this.identity(planned)]));
    for (const planned of bridged) srtLiveTransmitArgs({ direction: planned.direction, link: planned.link, udpPort: 1, what: planned.what, statsEveryPackets: this.options.statsEveryPackets });

    const stale = [...this.entries].filter(([key, entry]) => identities.get(key) !== entry.identity);
    for (const [key] of stale) this.entries.delete(key);
    await Promise.all(stale.map(([, entry]) => entry.bridge.stop()));

    const ports = new Map<SrtBridgeKey, number>();
    const toStart: Array<{ planned: PlannedLink; port: number }> = [];
    for (const planned of bridged) {
      const kept = this.entries.get(planned.key);
      if (kept) ports.set(planned.key, kept.bridge.udpPort);
      else {
        const port = await freeLoopbackUdpPort();
        ports.set(planned.key, port);
        toStart.push({ planned, port });
      }
    }
    if (toStart.length && !this.reaped) {
      // Companions of this job left by a control plane that was killed outright would hold its SRT ports.
      this.reaped = true;
      const ended = await reapLeftoverCompanions(this.options.jobId);
      if (ended.length) this.options.onLog('WARNING', `ended ${ended.length} srt-live-transmit process(es) left by a previous run of this job (pid ${ended.join(', ')})`);
    }
    return {
      ports,
      apply: () => {
        if (seq !== this.plans) return;
        for (const { planned, port } of toStart) {
          const existing = this.entries.get(planned.key);
          if (existing?.bridge.udpPort === port) continue;
          if (existing) void existing.bridge.stop();
          const bridge = this.makeBridge(planned, program!, port);
          this.entries.set(planned.key, { identity: identities.get(planned.key)!, bridge });
          bridge.start();
        }
      },
    };
  }

  /** Stops every companion (the job stopped, failed, or is restarted by its operator). */
  async stopAll(mode: 'soft' | 'hard' = 'soft'): Promise<void> {
    const entries = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(entries.map((entry) => entry.bridge.stop(mode)));
  }

  /** The bridged links and their latest statistics: inputs first, then outputs by index. */
  status(): SrtLinkStatus[] {
    return [...this.entries.values()]
      .map(({ bridge }) => ({ direction: bridge.options.direction, index: bridge.options.index, stats: bridge.stats, at: bridge.statsAt }))
      .sort((a, b) => (a.direction === b.direction ? a.index - b.index : a.direction === 'input' ? -1 : 1));
  }

  /** CPU and memory of every companion together. */
  async sample(): Promise<{ cpuPercent: number; rssBytes: number }> {
    const samples = await Promise.all([...this.entries.values()].map((entry) => entry.bridge.sample()));
    return samples.reduce((sum, s) => ({ cpuPercent: sum.cpuPercent + s.cpuPercent, rssBytes: sum.rssBytes + s.rssBytes }), { cpuPercent: 0, rssBytes: 0 });
  }

  /** Pids of the companions running now. */
  pids(): number[] {
    return [...this.entries.values()].map((entry) => entry.bridge.pid).filter((pid): pid is number => pid !== undefined);
  }

  private warn(text: string): void {
    if (this.warned.has(text)) return;
    this.warned.add(text);
    this.options.onLog('WARNING', text);
  }

  private identity(planned: PlannedLink): string {
    return JSON.stringify([planned.direction, planned.link, this.options.statsEveryPackets ?? null]);
  }

  private makeBridge(planned: PlannedLink, file: string, udpPort: number): SrtBridge {
    const args = srtLiveTransmitArgs({ direction: planned.direction, link: planned.link, udpPort, what: planned.what, statsEveryPackets: this.options.statsEveryPackets });
    return new SrtBridge({
      jobId: this.options.jobId,
      direction: planned.direction,
      index: planned.index,
      label: planned.label,
      file,
      args,
      udpPort,
      backoff: this.options.backoff,
      statsIntervalMs: this.options.statsIntervalMs,
      now: this.options.now,
      onLog: this.options.onLog,
      onStats: (stats, at) => this.options.onStats({ direction: planned.direction, index: planned.index, stats, at }),
    });
  }

  /** The SRT links the process running from `input` has: enabled SRT outputs and the input it reads, when that is an srt:// URL. */
  private links(spec: JobSpec, input: 'primary' | 'failover'): PlannedLink[] {
    const links: PlannedLink[] = [];
    const source: InputSpec | undefined = input === 'failover' ? spec.failover?.input : spec.input;
    if (source?.type === 'uri' && /^srt:\/\//i.test(source.uri)) {
      const label = input === 'failover' ? 'failover input' : 'input';
      const parsed = srtLinkOfInputUri(source.uri, input === 'failover' ? 'Failover input URI' : 'Input URI');
      if ('unsupported' in parsed) this.warn(`SRT ${label} is carried by ffmpeg's libsrt, without SRT statistics: ${parsed.unsupported}`);
      else {
        links.push({
          key: input === 'failover' ? 'failover' : 'input',
          direction: 'input',
          index: input === 'failover' ? 1 : 0,
          label,
          what: input === 'failover' ? 'Failover input URI' : 'Input URI',
          link: parsed.link,
        });
      }
    }
    for (const output of spec.outputs ?? []) {
      if (output.type !== 'srt' || output.disabled) continue;
      links.push({ key: output.index, direction: 'output', index: output.index, label: `output ${output.index + 1}`, what: `Output ${output.index + 1} (SRT)`, link: srtLinkOfOutput(output) });
    }
    return links;
  }
}
