import { hostname } from 'node:os';
import type { EventBus, LiveEvent } from '../events/event-bus.ts';
import type { TimerRow, TimersRepository } from '../repositories/timers.repository.ts';
import { dueBetween, isDueAt } from './timer-schedule.ts';
import { scheduleOf } from './timers.service.ts';

/** Where the scheduler reads the time: the wall clock, or a test's. */
export interface SchedulerClock {
  now(): number;
}

export interface TimerSchedulerOptions {
  /** Names this process in timer_firings.fired_by. Default `<hostname>:<pid>`. */
  firedBy?: string;
  clock?: SchedulerClock;
  /** How often the clock is looked at (default 1 s): a timer fires at most this late. */
  tickMs?: number;
  /** The timers are read again this often besides on every `timers` event (default 15 s). */
  reloadMs?: number;
  /**
   * A due moment a tick finds older than this (the process was frozen, the database away) is let
   * go rather than carried out late (default 5 minutes).
   */
  maxLatenessMs?: number;
  log?: (line: string) => void;
}

export interface Firing {
  timerId: number;
  dueAt: number;
  jobs: number[];
}

/**
 * Fires the timers. Every API process runs one; each tick looks at the moments due since its
 * previous tick and tries to carry each out through TimersRepository.fire, whose claim of
 * (timer_id, due_at) in the same transaction as the change of the jobs makes each firing happen
 * exactly once, whichever process gets there first. A moment that passed while no process ran is
 * not replayed: a process only looks at moments after it started.
 *
 * A firing changes the jobs rows (active, restart_seq/restart_mode, desired_actor = the timer)
 * and then publishes the wake-up on the kind's topic, as the API's own start/stop/restart do: the
 * node reconciler records the START/STOP/RESTART events with the timer as actor.
 */
export class TimerScheduler {
  private readonly clock: SchedulerClock;
  private readonly firedBy: string;
  private readonly log: (line: string) => void;
  private timers: TimerRow[] = [];
  private loadedAt = Number.NEGATIVE_INFINITY;
  private stale = true;
  private lastTick = 0;
  private interval?: NodeJS.Timeout;
  private unsubscribe?: () => void;
  private ticking?: Promise<Firing[]>;

  constructor(
    private readonly repo: TimersRepository,
    private readonly bus: EventBus,
    private readonly options: TimerSchedulerOptions = {},
  ) {
    this.clock = options.clock ?? { now: () => Date.now() };
    this.firedBy = options.firedBy ?? `${hostname()}:${process.pid}`;
    this.log = options.log ?? (() => {});
  }

  /** Moments from now on are this process's to fire. */
  start(): void {
    this.lastTick = this.clock.now();
    this.unsubscribe = this.bus.subscribe((event: LiveEvent) => {
      if (event.topic === 'timers' && event.type !== 'fired') this.stale = true;
    });
    this.interval = setInterval(() => void this.tick().catch((error: Error) => this.log(`timers: ${error.message}`)), this.options.tickMs ?? 1000);
    this.interval.unref();
  }

  stop(): void {
    clearInterval(this.interval);
    this.unsubscribe?.();
  }

  /** Read the timers again at the next tick (a change made through this process). */
  invalidate(): void {
    this.stale = true;
  }

  /** Carry out what is due since the previous tick; ticks never overlap. Returns the firings THIS process carried out. */
  tick(): Promise<Firing[]> {
    if (this.ticking) return this.ticking;
    this.ticking = this.runTick().finally(() => {
      this.ticking = undefined;
    });
    return this.ticking;
  }

  private async runTick(): Promise<Firing[]> {
    const now = this.clock.now();
    if (now <= this.lastTick) return [];
    if (this.stale || now - this.loadedAt >= (this.options.reloadMs ?? 15_000)) {
      this.stale = false;
      this.timers = await this.repo.listEnabled();
      this.loadedAt = now;
    }
    const from = Math.max(this.lastTick, now - (this.options.maxLatenessMs ?? 5 * 60_000));
    const fired: Firing[] = [];
    for (const timer of this.timers) {
      for (const due of dueBetween(scheduleOf(timer), from, now)) {
        const outcome = await this.repo.fire(timer.id, new Date(due), this.firedBy, (fresh) => fresh.actived && isDueAt(scheduleOf(fresh), due));
        if (!outcome) continue;
        const jobs = outcome.jobs.map((job) => job.id);
        fired.push({ timerId: timer.id, dueAt: due, jobs });
        this.log(`timer ${timer.id} (${timer.name}) fired for ${new Date(due).toISOString()}: ${timer.action} on ${jobs.length} ${timer.task_type}(s)`);
        await this.publish(timer, due, outcome.jobs);
      }
    }
    // Only a tick that went through moves on: a failed one is tried again (each firing still once).
    this.lastTick = now;
    return fired;
  }

  private async publish(timer: TimerRow, due: number, jobs: Array<{ id: number; kind: 'relay' | 'encoding' }>): Promise<void> {
    const data = timer.action === 'RESTART' ? { restart: 'hard' } : { active: timer.action === 'START' };
    for (const job of jobs) await this.bus.publish({ topic: `${job.kind}s`, type: 'desired', id: job.id, data });
    await this.bus.publish({ topic: 'timers', type: 'fired', id: timer.id, data: { dueAt: new Date(due).toISOString(), jobs: jobs.map((j) => j.id) } });
  }
}
