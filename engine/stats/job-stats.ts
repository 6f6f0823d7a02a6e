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
 * Samples a job while a process runs: every period, CPU % and RSS of the process group (and of the
 * SRT companions), and the bitrates of its inputs and outputs (job-io.ts). One timer per job,
 * started at each spawn and stopped at each exit; a sample that finishes after its process has
 * gone is dropped.
 */
export class JobStatsSampler {
  private meter: CpuMeter | undefined;
  private timer: NodeJS.Timeout | undefined;
  latest: JobStatsSample | undefined;

  constructor(private readonly options: JobStatsSamplerOptions) {}

  start(pgid: number): void {
    this.stop();
    const meter = new CpuMeter(pgid);
    this.meter = meter;
    const every = this.options.intervalMs ?? 2_000;
    const sample = async () => {
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
      if (this.meter === meter) this.timer = setTimeout(() => void sample(), every);
    };
    this.timer = setTimeout(() => void sample(), every);
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.meter = undefined;
    this.latest = undefined;
  }
}
