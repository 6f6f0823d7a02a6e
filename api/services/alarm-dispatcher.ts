import type { JobAlarmKind } from '../../openapi/schemas/alarms.ts';
import type { EventBus, LiveEvent } from '../events/event-bus.ts';
import type { AlarmsRepository, DeliveryRow, JobEventForAlarm } from '../repositories/alarms.repository.ts';
import type { SettingsRepository } from '../repositories/settings.repository.ts';
import { sendMail, sendSms } from './alarm-delivery.ts';
import type { AlarmsService } from './alarms.service.ts';
import { SystemAlarmMonitor, type SystemAlarmMonitorOptions } from './system-alarm-monitor.ts';

const CURSOR_KEY = 'alarms.cursor';
/** Job changes that come with the events that alarm (a start, stop, restart or failure is recorded with a status or desired change). */
const WAKING_TYPES = new Set(['status', 'desired', 'updated']);
const WAKE_DELAY_MS = 100;

/**
 * Which alarm a job event is: the actor decides (the engine → rixjob*, a user or a timer →
 * user*). FAILURE (restart attempts ran out) always alarms; UP and FAILOVER do not.
 */
export function alarmKindOf(event: Pick<JobEventForAlarm, 'type' | 'actor_kind'>): JobAlarmKind | 'FAILURE' | undefined {
  if (event.type === 'FAILURE') return 'FAILURE';
  const by = event.actor_kind === 'engine' ? 'rixjob' : 'user';
  if (event.type === 'START') return `${by}Start`;
  if (event.type === 'STOP') return `${by}Stop`;
  if (event.type === 'RESTART') return `${by}Restart`;
  if (event.type === 'EXIT') return 'rixjobStop';
  return undefined;
}

export interface AlarmDispatcherOptions {
  /**
   * How often new job events and due deliveries are looked at when nothing wakes the dispatcher
   * (default 5 s). With `bus`, a job's status or desired-state change wakes it at once.
   */
  tickMs?: number;
  /** The live events: job state changes (which come with the job events that alarm) wake a pass. */
  bus?: EventBus;
  /** Retry backoff: base * 2^(attempts-1), at most max (defaults 2 s and 5 minutes). */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  log?: (line: string) => void;
}

/**
 * Runs in every API process. Picks the job events after a cursor (kept in system_settings),
 * turns those of alarmed jobs into alarms with their deliveries (an alarm is claimed by its unique
 * job_event_id, so however many processes look, each event alarms once), then sends the due
 * deliveries, each claimed with FOR UPDATE SKIP LOCKED. A failed send stays QUEUED and is tried
 * again with backoff: an SMTP server that is down loses nothing. A pass runs when a job's state
 * changes (the live events on the bus) and every `tickMs` for the retries and other nodes' events
 * that came without one: no query a second while nothing happens.
 */
export class AlarmDispatcher {
  private cursor?: number;
  private interval?: NodeJS.Timeout;
  private running?: Promise<void>;
  private wakeTimer?: NodeJS.Timeout;
  private unsubscribe?: () => void;
  private readonly log: (line: string) => void;

  constructor(
    private readonly repo: AlarmsRepository,
    private readonly settings: SettingsRepository,
    private readonly alarms: AlarmsService,
    private readonly options: AlarmDispatcherOptions = {},
  ) {
    this.log = options.log ?? (() => {});
  }

  start(): void {
    this.interval = setInterval(() => void this.tick(), this.options.tickMs ?? 5_000);
    this.interval.unref();
    this.unsubscribe = this.options.bus?.subscribe((event: LiveEvent) => {
      if ((event.topic === 'relays' || event.topic === 'encodings') && WAKING_TYPES.has(event.type)) this.wake();
    });
  }

  async stop(): Promise<void> {
    clearInterval(this.interval);
    clearTimeout(this.wakeTimer);
    this.unsubscribe?.();
    await this.running;
  }

  /**
   * A pass soon: the events of a burst (a bulk start, a node coming back) are taken in one pass, and
   * a pass running when the wake comes is followed by a new one, so an event recorded meanwhile does
   * not wait for the next tick.
   */
  wake(): void {
    this.wakeTimer ??= setTimeout(() => {
      this.wakeTimer = undefined;
      void (this.running ? this.running.then(() => this.tick()) : this.tick());
    }, WAKE_DELAY_MS);
  }

  /** One pass; passes never overlap. */
  tick(): Promise<void> {
    this.running ??= this.pass()
      .catch((error: Error) => this.log(`alarms: ${error.message}`))
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  private async pass(): Promise<void> {
    await this.dispatchJobEvents();
    await this.deliver('EMAIL');
    await this.deliver('SMS');
  }

  private async dispatchJobEvents(): Promise<void> {
    if (this.cursor === undefined) {
      const stored = await this.settings.get<number>(CURSOR_KEY);
      this.cursor = stored ?? (await this.repo.lastJobEventId());
      if (stored === undefined) await this.settings.set(CURSOR_KEY, this.cursor);
    }
    for (;;) {
      const events = await this.repo.jobEventsAfter(this.cursor);
      if (events.length === 0) return;
      for (const event of events) {
        if (event.alarmed) await this.raiseFor(event);
        this.cursor = event.id;
      }
      await this.settings.set(CURSOR_KEY, this.cursor);
    }
  }

  private async raiseFor(event: JobEventForAlarm): Promise<void> {
    const kind = alarmKindOf(event);
    if (!kind) return;
    const settings = await this.alarms.effectiveJobSettings(event.job_id);
    if (kind !== 'FAILURE' && !settings[kind]) return;
    const by = event.actor_kind === 'engine' ? 'the engine' : `${event.actor_kind} ${event.actor_name ?? ''}`.trim();
    const cause = [event.reason, event.detail].filter(Boolean).join(': ') || null;
    const subject = `Mediaplane alarm: ${event.job_kind} ${event.job_name} (id:${event.job_id}) ${event.type}`;
    const body = [
      `${kind === 'FAILURE' ? 'The job failed: its restart attempts ran out.' : `${event.type} by ${by}.`}`,
      `Job: ${event.job_name} (id:${event.job_id}, ${event.job_kind})`,
      `Alarm: ${kind}`,
      `Time: ${event.at.toISOString()}`,
      ...(cause ? [`Cause: ${cause}`] : []),
    ].join('\n');
    const deliveries = await this.alarms.deliveriesFor(settings, { email: settings.email, sms: settings.smsEnabled }, subject, body);
    const id = await this.repo.raise({ type: 'JOB', jobId: event.job_id, jobName: event.job_name, jobType: event.job_kind, alarm: kind, cause, jobEventId: event.id }, deliveries);
    if (id) this.log(`alarm ${id}: ${subject}, ${deliveries.length} deliveries queued`);
  }

  private retryAt(attempts: number): Date {
    const base = this.options.backoffBaseMs ?? 2000;
    return new Date(Date.now() + Math.min(base * 2 ** attempts, this.options.backoffMaxMs ?? 300_000));
  }

  private async deliver(channel: 'EMAIL' | 'SMS'): Promise<void> {
    if (channel === 'EMAIL') {
      const smtp = await this.alarms.smtpConfig();
      while (await this.repo.claimDue('EMAIL', (d) => this.attempt(d, () => sendMail(smtp, { to: d.recipient, subject: d.subject, text: d.body }))));
      return;
    }
    const sms = await this.alarms.smsConfig();
    while (await this.repo.claimDue('SMS', (d) => this.attempt(d, () => sendSms(sms, { to: d.recipient, subject: d.subject, text: d.body })), sms.rateLimit));
  }

  private async attempt(delivery: DeliveryRow, send: () => Promise<unknown>) {
    try {
      await send();
      this.log(`alarm delivery ${delivery.id}: ${delivery.channel} sent to ${delivery.recipient}`);
      return { ok: true as const };
    } catch (error) {
      const message = (error as Error).message;
      this.log(`alarm delivery ${delivery.id}: ${delivery.channel} to ${delivery.recipient} failed (attempt ${delivery.attempts + 1}): ${message}`);
      return { ok: false as const, error: message, retryAt: this.retryAt(delivery.attempts) };
    }
  }
}

/** What `mediaplane server` runs for the alarms: the dispatcher and the system monitor. Returns their stop. */
export function startAlarmWorkers(alarms: AlarmsService, options: AlarmDispatcherOptions & { monitor?: SystemAlarmMonitorOptions } = {}): () => Promise<void> {
  const dispatcher = new AlarmDispatcher(alarms.repo, alarms.settings, alarms, options);
  const monitor = new SystemAlarmMonitor(alarms.repo, alarms, { log: options.log, onRaised: () => dispatcher.wake(), ...options.monitor });
  dispatcher.start();
  monitor.start();
  return async () => {
    await dispatcher.stop();
    await monitor.stop();
  };
}
