import { CpuMeter } from './process-tree.ts';
import type { JobIoContext, JobIoMeter, JobIoRates } from './job-io.ts';

/** One sample of a running job: CPU and memory of ffmpeg's group and its companions, and its bitrates. */
export interface JobStatsSample extends JobIoRates {
  cpuPercent: number;
  rssBytes: number;
}

export interface JobStatsSamplerOptions {
  io: JobIoMeter;
  /** CPU and memory of the job's companions (srt-live-transmit), added to ffmpeg's. */
  companions: () => Promise<{ cpuPercent: number; rssBytes: number }>;
  /** What the runner knows at the moment of a sample (fan-out bytes, SRT statistics). */
  context: () => JobIoContext;
  onSample: (sample: JobStatsSample) => void;
  /** Default 2 s. */
  intervalMs?: number;
}

/**
 * One timer per period for every job of the node sampled at that period: with many jobs, a timer
 * (and its callback) per job cost more than the samples themselves. A tick waits for its samples
 * (one read of the shared counters serves them all); a tick still at work skips the next.
 */
class SampleClock {
  private readonly members = new Set<() => Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private ticking = false;

  constructor(private readonly everyMs: number) {}

  add(sample: () => Promise<void>): () => void {
    this.members.add(sample);
    this.timer ??= setInterval(() => void this.tick(), this.everyMs);
    return () => {
      this.members.delete(sample);
      if (this.members.size === 0) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    };
  }

  private async tick(): Promise<void> {
    if (this.ticking) return; // a tick still at work (a slow /proc): this one is skipped, not queued
    this.ticking = true;
    try {
      await Promise.all([...this.members].map((sample) => sample()));
    } finally {
      this.ticking = false;
    }
  }
}

const clocks = new Map<number, SampleClock>();
function clockOf(everyMs: number): SampleClock {
  let clock = clocks.get(everyMs);
  if (!clock) clocks.set(everyMs, (clock = new SampleClock(everyMs)));
  return clock;
}

/**
 * Samples a job while a process runs: every period, CPU % and RSS of the process group (and of the
 * SRT companions), and the bitrates of its inputs and outputs (job-io.ts). Started at each spawn
 * and stopped at each exit, on the node's shared clock for its period (its first sample within a
 * period of the spawn); a sample that finishes after its process has gone is dropped.
 */
export class JobStatsSampler {
  private meter: CpuMeter | undefined;
  private leave: (() => void) | undefined;
  latest: JobStatsSample | undefined;

  constructor(private readonly options: JobStatsSamplerOptions) {}

  start(pgid: number): void {
    this.stop();
    const meter = new CpuMeter(pgid);
    this.meter = meter;
    this.leave = clockOf(this.options.intervalMs ?? 2_000).add(async () => {
      try {
        const [ffmpeg, companions, rates] = await Promise.all([meter.sample(), this.options.companions(), this.options.io.sample(this.options.context())]);
        if (this.meter !== meter) return;
        this.latest = {
          cpuPercent: Math.round((ffmpeg.cpuPercent + companions.cpuPercent) * 10) / 10,
          rssBytes: ffmpeg.rssBytes + companions.rssBytes,
          ...rates,
        };
        this.options.onSample(this.latest);
      } catch {
        // /proc unreadable for a moment: the next sample tries again.
      }
    });
  }

  stop(): void {
    this.leave?.();
    this.leave = undefined;
    this.meter = undefined;
    this.latest = undefined;
  }
}
