import type { ControlPlane, RelayJob } from './control-plane.ts';
import { isAlive, sleep, spawnFfmpeg, TIMED_OUT, within, type ChildProcessHandle } from './processes.ts';
import type { PortPool } from './udp.ts';

/** One relay of a fleet: a job of the product, and the same argv for bare ffmpeg. */
export interface RelayPlan {
  index: number;
  inPort: number;
  outPort: number;
  job: RelayJob;
}

/** Stores `count` relays (UDP in → UDP out on loopback), switched off. */
export async function planRelays(plane: ControlPlane, ports: PortPool, count: number, firstIndex: number, label: string): Promise<RelayPlan[]> {
  const plans: RelayPlan[] = [];
  for (let i = 0; i < count; i++) {
    const index = firstIndex + i;
    const inPort = await ports.take();
    const outPort = await ports.take();
    const job = await plane.createRelay(`${label}-${index}`, {
      input: { type: 'uri', uri: `udp://127.0.0.1:${inPort}` },
      outputs: [{ type: 'udp', uri: `udp://127.0.0.1:${outPort}` }],
    });
    plans.push({ index, inPort, outPort, job });
  }
  return plans;
}

/**
 * A set of running relays, either supervised by the product or bare ffmpeg with the same argv:
 * the measurements drive both the same way.
 */
export interface Fleet {
  readonly side: 'Mediaplane' | 'bare ffmpeg';
  readonly plans: RelayPlan[];
  /** Starts the relays and resolves once each runs (its first progress block is out). */
  add(plans: RelayPlan[]): Promise<void>;
  /** The process group of each relay now (index → pgid). */
  groups(): Promise<Map<number, number>>;
  /** Relays that were restarted or ended since they were added. */
  casualties(): Promise<string[]>;
  /** Starts that ended before the relay ran (the product's supervisor or the bench started them again). */
  startRetries(): number;
  stopAll(): Promise<void>;
}

/** Startup allowance: ffmpeg reads 5 s of a UDP MPEG-TS input before it writes anything, more on a busy machine. */
function startTimeoutMs(count: number): number {
  return 60_000 + count * 1_000;
}

/** A relay the supervisor gave up on at its start (restart attempts used up) is switched off and on again, at most this often. */
const PRODUCT_START_TOGGLES = 3;

export class ProductFleet implements Fleet {
  readonly side = 'Mediaplane' as const;
  readonly plans: RelayPlan[] = [];
  private restartsAtStart = new Map<number, number>();
  private pidsAtStart = new Map<number, number>();
  /** Jobs the supervisor marked failed while starting (every restart attempt ended before output), with the reason. */
  readonly gaveUp: string[] = [];

  constructor(private readonly plane: ControlPlane) {}

  startRetries(): number {
    return [...this.restartsAtStart.values()].reduce((a, b) => a + b, 0);
  }

  async add(plans: RelayPlan[]): Promise<void> {
    const ids = plans.map((p) => p.job.row.id);
    await this.plane.setActive(ids, true);
    const deadline = performance.now() + startTimeoutMs(plans.length);
    const toggles = new Map<number, number>();
    for (;;) {
      const statuses = await this.plane.statuses(ids);
      const failed = ids.filter((id) => statuses.get(id)?.state === 'failed');
      if (failed.length) {
        for (const id of failed) {
          const status = statuses.get(id)!;
          this.gaveUp.push(`${status.reason}: ${status.reason_detail ?? ''}`);
          toggles.set(id, (toggles.get(id) ?? 0) + 1);
          if (toggles.get(id)! > PRODUCT_START_TOGGLES) throw new Error(`job ${id} failed at each of ${PRODUCT_START_TOGGLES + 1} starts: ${status.reason}: ${status.reason_detail ?? ''}`);
        }
        await this.plane.setActive(failed, false);
        await this.plane.waitStopped(failed, 30_000);
        await this.plane.setActive(failed, true);
        continue;
      }
      const running = ids.every((id) => {
        const status = statuses.get(id);
        return status?.state === 'running' && status.pid && isAlive(status.pid);
      });
      if (running) {
        for (const plan of plans) {
          const status = statuses.get(plan.job.row.id)!;
          this.plans.push(plan);
          this.pidsAtStart.set(plan.index, status.pid!);
          this.restartsAtStart.set(plan.index, status.restarts);
        }
        return;
      }
      if (performance.now() > deadline) throw new Error(`${ids.length - ids.filter((id) => statuses.get(id)?.state === 'running').length} of ${ids.length} jobs not running after ${(startTimeoutMs(plans.length) / 1000).toFixed(0)} s`);
      await sleep(200);
    }
  }

  async groups(): Promise<Map<number, number>> {
    const statuses = await this.plane.statuses(this.plans.map((p) => p.job.row.id));
    const groups = new Map<number, number>();
    for (const plan of this.plans) {
      const pid = statuses.get(plan.job.row.id)?.pid;
      if (pid) groups.set(plan.index, pid);
    }
    return groups;
  }

  async casualties(): Promise<string[]> {
    const statuses = await this.plane.statuses(this.plans.map((p) => p.job.row.id));
    const lost: string[] = [];
    for (const plan of this.plans) {
      const status = statuses.get(plan.job.row.id);
      if (!status || status.state !== 'running') lost.push(`relay ${plan.index}: ${status?.state ?? 'no status'}${status?.reason ? ` (${status.reason})` : ''}`);
      else if (status.pid !== this.pidsAtStart.get(plan.index) || status.restarts !== this.restartsAtStart.get(plan.index)) lost.push(`relay ${plan.index}: restarted (${status.reason ?? 'no reason'})`);
    }
    return lost;
  }

  async stopAll(): Promise<void> {
    const ids = this.plans.map((p) => p.job.row.id);
    await this.plane.setActive(ids, false);
    await this.plane.waitStopped(ids, 60_000 + ids.length * 200);
    this.plans.length = 0;
  }
}

/** A bare relay that ends before it runs is started again (as an operator would), at most this often. */
const BARE_START_ATTEMPTS = 30;

export class BareFleet implements Fleet {
  readonly side = 'bare ffmpeg' as const;
  readonly plans: RelayPlan[] = [];
  private readonly children = new Map<number, ChildProcessHandle>();
  /** Starts that ended before the relay ran, with ffmpeg's reason. */
  readonly failedStarts: string[] = [];

  startRetries(): number {
    return this.failedStarts.length;
  }

  async add(plans: RelayPlan[]): Promise<void> {
    this.plans.push(...plans);
    const deadline = performance.now() + startTimeoutMs(plans.length);
    await Promise.all(plans.map((plan) => this.start(plan, deadline)));
  }

  private async start(plan: RelayPlan, deadline: number): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const child = spawnFfmpeg(plan.job.args);
      this.children.set(plan.index, child);
      const outcome = await within(child.running().then(() => 'running' as const, () => 'ended' as const), Math.max(0, deadline - performance.now()));
      if (outcome === 'running') return;
      if (outcome === TIMED_OUT) throw new Error(`bare relay ${plan.index} not running in time: ${child.failure()}`);
      this.failedStarts.push(child.failure());
      if (attempt >= BARE_START_ATTEMPTS) throw new Error(`bare relay ${plan.index} ended at each of ${attempt} starts: ${child.failure()}`);
      // A random pause: a fixed one close to the GOP would join the stream at the same wrong point each time.
      await sleep(100 + Math.random() * 1000);
    }
  }

  async groups(): Promise<Map<number, number>> {
    return new Map([...this.children].filter(([, c]) => !c.exited).map(([index, c]) => [index, c.pid]));
  }

  async casualties(): Promise<string[]> {
    return [...this.children].filter(([, c]) => c.exited).map(([index, c]) => `relay ${index}: ended (${c.failure()})`);
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.children.values()].map((c) => c.kill()));
    this.children.clear();
    this.plans.length = 0;
  }
}
