/**
 * A bitrate from a growing byte count: samples of a cumulative counter (bytes so far, and when that
 * count was true), the rate over the samples of the last `windowMs`. Every source of the job's
 * bitrates feeds one: ffmpeg's `total_size`, the fan-out's bytes, kernel counters, the SRT
 * companion's counters, the size of segment files, /proc/<pid>/io.
 *
 * - A count that goes down means the counter started again (a new process, a new SRT connection):
 *   the samples before it are dropped, and the rate is unknown until the new counter has two.
 * - `bps()` is null until two samples at least `minSpanMs` apart exist (not measured yet), and 0
 *   when the newest sample is older than `staleMs` (a source that reports only when bytes move,
 *   such as segment files or SRT statistics, has gone quiet).
 */
export interface ByteRateOptions {
  windowMs: number;
  /** The newest sample older than this: nothing moves any more (default: never). */
  staleMs?: number;
  /** Samples closer together than this give no rate yet (default 900 ms). */
  minSpanMs?: number;
}

export class ByteRate {
  private samples: Array<{ at: number; bytes: number }> = [];

  constructor(private readonly options: ByteRateOptions) {}

  /** The counter read `bytes` at `at` (ms, any monotonic or wall clock, the same for every call). */
  add(at: number, bytes: number): void {
    const last = this.samples.at(-1);
    if (last && bytes < last.bytes) this.samples = [];
    else if (last && at <= last.at) {
      if (bytes > last.bytes) last.bytes = bytes;
      return;
    }
    this.samples.push({ at, bytes });
    // Keep one sample older than the window, so the window is always fully spanned.
    while (this.samples.length > 2 && at - this.samples[1].at >= this.options.windowMs) this.samples.shift();
  }

  reset(): void {
    this.samples = [];
  }

  /** Bits per second over the window, rounded; null when not known yet. */
  bps(now: number): number | null {
    const last = this.samples.at(-1);
    if (!last) return null;
    if (this.options.staleMs !== undefined && now - last.at > this.options.staleMs) return 0;
    const first = this.samples[0];
    const span = last.at - first.at;
    if (span < (this.options.minSpanMs ?? 900)) return null;
    return Math.round(((last.bytes - first.bytes) * 8 * 1000) / span);
  }
}
