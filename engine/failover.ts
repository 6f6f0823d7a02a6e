import { performance } from 'node:perf_hooks';

/**
 * Failover policy of one job: which input it runs from, when it leaves the primary and when it
 * comes back. It decides only; the job runner restarts the process with the other input.
 *
 * - On the primary, every progress block that moves media resets the clock; when the primary has
 *   given no progress for `switchTimeoutMs` (across restarts: a primary that keeps failing fast
 *   counts as silent), the job switches to the failover input. Until the primary has delivered
 *   media once since the job started or came back to it, it gets at least `openingAllowanceMs`:
 *   opening a live input takes time (ffmpeg reads 5 s of a UDP MPEG-TS stream before its first
 *   frame), and a switch timeout shorter than that would send a healthy primary straight back to
 *   the failover input, again and again.
 * - On the failover input, the primary is probed every `probeIntervalMs` (one probe at a time,
 *   each with its own time limit). Once it has answered every probe for `returnAfterHealthyMs`,
 *   the job returns to it. A failed probe starts the healthy period again.
 */
export type ActiveInput = 'primary' | 'failover';

export interface FailoverPolicyOptions {
  switchTimeoutMs: number;
  returnAfterHealthyMs: number;
  probeIntervalMs: number;
  /** The least time a primary that has not delivered media yet (job start, return from failover) gets (default 10 s). */
  openingAllowanceMs?: number;
  /** Is the primary input delivering media right now? */
  probe: () => Promise<boolean>;
  onSwitch: (to: ActiveInput, reason: string) => void;
  /** A line for the job's log (probe results and the like). */
  onNotice?: (text: string) => void;
}

export class FailoverPolicy {
  private current: ActiveInput = 'primary';
  private watching = false;
  private lastPrimaryProgressAt = 0;
  /** The primary has delivered media since the job started or returned to it. */
  private primaryFlowed = false;
  private switchTimer: NodeJS.Timeout | undefined;
  private probeTimer: NodeJS.Timeout | undefined;
  private healthySince: number | undefined;
  private probing = false;
  /** Bumped on every switch and stop, so a probe that was under way cannot act on a stale situation. */
  private epoch = 0;

  constructor(private readonly options: FailoverPolicyOptions) {}

  get active(): ActiveInput {
    return this.current;
  }

  /** The job was started: it begins on the primary, with a fresh clock. */
  start(): void {
    this.stop();
    this.watching = true;
    this.current = 'primary';
    this.primaryFlowed = false;
    this.lastPrimaryProgressAt = performance.now();
    this.armSwitch();
  }

  /** The job was stopped: no more switching or probing. */
  stop(): void {
    this.watching = false;
    this.epoch++;
    clearTimeout(this.switchTimer);
    clearTimeout(this.probeTimer);
    this.switchTimer = this.probeTimer = undefined;
    this.healthySince = undefined;
  }

  /** A progress block that moved media arrived from the running process. */
  progress(): void {
    if (this.current !== 'primary') return;
    this.lastPrimaryProgressAt = performance.now();
    if (!this.primaryFlowed) {
      // The opening allowance is over: the plain switch timeout applies from now on.
      this.primaryFlowed = true;
      if (this.watching) this.armSwitch();
    }
  }

  private switchTimeoutMs(): number {
    const { switchTimeoutMs, openingAllowanceMs = 10_000 } = this.options;
    return this.primaryFlowed ? switchTimeoutMs : Math.max(switchTimeoutMs, openingAllowanceMs);
  }

  private armSwitch(): void {
    clearTimeout(this.switchTimer);
    const check = () => {
      if (!this.watching || this.current !== 'primary') return;
      const silent = performance.now() - this.lastPrimaryProgressAt;
      const timeout = this.switchTimeoutMs();
      if (silent < timeout) {
        this.switchTimer = setTimeout(check, timeout - silent + 5);
        return;
      }
      const what = this.primaryFlowed ? 'no progress from the primary input' : 'the primary input delivered nothing';
      this.switchTo('failover', `${what} for ${(silent / 1000).toFixed(1)} s (switch timeout ${this.options.switchTimeoutMs / 1000} s)`);
    };
    this.switchTimer = setTimeout(check, this.options.switchTimeoutMs);
  }

  private switchTo(to: ActiveInput, reason: string): void {
    this.epoch++;
    this.current = to;
    clearTimeout(this.switchTimer);
    clearTimeout(this.probeTimer);
    this.healthySince = undefined;
    if (to === 'primary') {
      this.primaryFlowed = false;
      this.lastPrimaryProgressAt = performance.now();
      this.armSwitch();
    } else {
      this.scheduleProbe(0);
    }
    this.options.onSwitch(to, reason);
  }

  private scheduleProbe(delayMs: number): void {
    clearTimeout(this.probeTimer);
    this.probeTimer = setTimeout(() => void this.probeOnce(), delayMs);
  }

  private async probeOnce(): Promise<void> {
    if (!this.watching || this.current !== 'failover' || this.probing) return;
    const epoch = this.epoch;
    this.probing = true;
    let healthy = false;
    try {
      healthy = await this.options.probe();
    } catch {
      healthy = false;
    } finally {
      this.probing = false;
    }
    if (epoch !== this.epoch || !this.watching || this.current !== 'failover') return;
    const now = performance.now();
    if (!healthy) {
      if (this.healthySince !== undefined) this.options.onNotice?.('primary input probe failed: healthy period starts again');
      this.healthySince = undefined;
    } else {
      if (this.healthySince === undefined) {
        this.healthySince = now;
        this.options.onNotice?.('primary input answers the probe again');
      }
      const healthyFor = now - this.healthySince;
      if (healthyFor >= this.options.returnAfterHealthyMs) {
        this.switchTo('primary', `primary input healthy for ${(healthyFor / 1000).toFixed(1)} s`);
        return;
      }
    }
    this.scheduleProbe(this.options.probeIntervalMs);
  }
}

// The probe of the primary lives in engine/probe/input-probe.ts (bounded, in its own process group).
export { probeInput, probeTarget, type ProbeOptions } from './probe/input-probe.ts';
