import { sql, type ColumnType, type Generated, type Kysely, type Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/tables.ts';

/** How long a delivery is retried before it is FAILED (its alarm is a day old by then). */
export const DELIVERY_GIVE_UP_MS = 24 * 3_600_000;

/** The alarm tables (migration 20261126T090000-alarms), kept beside their only repository. */
interface AlarmsTable {
  id: ColumnType<number, never, never>;
  at: ColumnType<Date, Date | undefined, never>;
  type: string;
  job_id: number | null;
  job_name: string | null;
  job_type: string | null;
  resource: string | null;
  alarm: string;
  cause: string | null;
  job_event_id: number | null;
}
interface AlarmDeliveriesTable {
  id: ColumnType<number, never, never>;
  alarm_id: number;
  channel: 'EMAIL' | 'SMS';
  recipient: string;
  subject: string;
  body: string;
  status: Generated<'QUEUED' | 'SENT' | 'FAILED'>;
  attempts: Generated<number>;
  next_attempt_at: Generated<Date>;
  last_error: string | null;
  sent_at: Date | null;
  created_at: Generated<Date>;
}
interface AlarmJobSettingsTable {
  job_id: number;
  settings: ColumnType<unknown, string, string>;
  updated_at: Generated<Date>;
}
interface AlarmSystemStatesTable {
  node_id: number;
  name: string;
  raised: Generated<boolean>;
  current: number | null;
  changed_at: Generated<Date>;
}
type AlarmDatabase = Database & {
  alarms: AlarmsTable;
  alarm_deliveries: AlarmDeliveriesTable;
  alarm_job_settings: AlarmJobSettingsTable;
  alarm_system_states: AlarmSystemStatesTable;
};

export type AlarmRow = Selectable<AlarmsTable>;
export type DeliveryRow = Selectable<AlarmDeliveriesTable>;
export interface NewAlarm {
  type: string;
  jobId?: number | null;
  jobName?: string | null;
  jobType?: string | null;
  resource?: string | null;
  alarm: string;
  cause?: string | null;
  jobEventId?: number | null;
}
export interface NewDelivery {
  channel: 'EMAIL' | 'SMS';
  recipient: string;
  subject: string;
  body: string;
}
export interface JobEventForAlarm {
  id: number;
  job_id: number;
  at: Date;
  type: string;
  reason: string | null;
  detail: string | null;
  actor_kind: string;
  actor_name: string | null;
  job_name: string;
  job_kind: string;
  alarmed: boolean;
}

export class AlarmsRepository {
  private readonly db: Kysely<AlarmDatabase>;
  constructor(db: Db) {
    this.db = db.withTables<Omit<AlarmDatabase, keyof Database>>();
  }

  /** Job events after `afterId`, with their job's name, kind and alarm switch. */
  async jobEventsAfter(afterId: number, limit = 200): Promise<JobEventForAlarm[]> {
    return this.db
      .selectFrom('job_events as e')
      .innerJoin('jobs as j', 'j.id', 'e.job_id')
      .select(['e.id', 'e.job_id', 'e.at', 'e.type', 'e.reason', 'e.detail', 'e.actor_kind', 'e.actor_name', 'j.name as job_name', 'j.kind as job_kind'])
      .select(sql<boolean>`coalesce((j.config->>'alarmed')::boolean, false)`.as('alarmed'))
      .where('e.id', '>', afterId)
      .orderBy('e.id')
      .limit(limit)
      .execute();
  }

  async lastJobEventId(): Promise<number> {
    const row = await this.db.selectFrom('job_events').select((eb) => eb.fn.max('id').as('max')).executeTakeFirst();
    return Number(row?.max ?? 0);
  }

  /**
   * Record an alarm and queue its deliveries in one transaction. An alarm of a job event is
   * claimed by its unique job_event_id: when another process recorded it first, nothing happens
   * and undefined comes back.
   */
  async raise(alarm: NewAlarm, deliveries: NewDelivery[]): Promise<number | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('alarms')
        .values({
          type: alarm.type,
          job_id: alarm.jobId ?? null,
          job_name: alarm.jobName ?? null,
          job_type: alarm.jobType ?? null,
          resource: alarm.resource ?? null,
          alarm: alarm.alarm,
          cause: alarm.cause ?? null,
          job_event_id: alarm.jobEventId ?? null,
        })
        .onConflict((oc) => oc.column('job_event_id').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!row) return undefined;
      if (deliveries.length > 0) await trx.insertInto('alarm_deliveries').values(deliveries.map((d) => ({ ...d, alarm_id: row.id }))).execute();
      return row.id;
    });
  }

  /**
   * Claim the oldest due delivery of a channel (FOR UPDATE SKIP LOCKED: other processes take
   * others) and settle it with `send` in the same transaction, so each is sent by one process.
   * With a rate limit (SMS), the processes take turns (a transaction-scoped advisory lock) and the
   * count of the window is read under it, so the limit holds however many processes send; when
   * it is reached, the due ones wait, still queued, until the window has room.
   */
  async claimDue(
    channel: 'EMAIL' | 'SMS',
    send: (delivery: DeliveryRow) => Promise<{ ok: true } | { ok: false; error: string; retryAt: Date }>,
    rateLimit?: { amount: number; windowMs: number },
  ): Promise<DeliveryRow | undefined> {
    return this.db.transaction().execute(async (trx) => {
      if (rateLimit) {
        await sql`select pg_advisory_xact_lock(hashtext(${`mediaplane.alarm-${channel}`}))`.execute(trx);
        const sent = await trx
          .selectFrom('alarm_deliveries')
          .select('sent_at')
          .where('channel', '=', channel)
          .where('status', '=', 'SENT')
          .where('sent_at', '>=', new Date(Date.now() - rateLimit.windowMs))
          .orderBy('sent_at')
          .execute();
        if (sent.length >= rateLimit.amount) {
          const until = new Date((sent[sent.length - rateLimit.amount]?.sent_at?.getTime() ?? Date.now()) + rateLimit.windowMs);
          await trx
            .updateTable('alarm_deliveries')
            .set({ next_attempt_at: until, last_error: `rate limit: at most ${rateLimit.amount} ${channel} per ${rateLimit.windowMs / 60_000} minutes` })
            .where('status', '=', 'QUEUED')
            .where('channel', '=', channel)
            .where('next_attempt_at', '<', until)
            .execute();
          return undefined;
        }
      }
      const due = await trx
        .selectFrom('alarm_deliveries')
        .selectAll()
        .where('status', '=', 'QUEUED')
        .where('channel', '=', channel)
        .where('next_attempt_at', '<=', sql<Date>`now()`)
        .orderBy('id')
        .limit(1)
        .forUpdate()
        .skipLocked()
        .executeTakeFirst();
      if (!due) return undefined;
      const outcome = await send(due);
      // Retried while the alarm is news: a server down for hours still gets it; one refused for a day is FAILED.
      const givenUp = !outcome.ok && Date.now() - due.created_at.getTime() >= DELIVERY_GIVE_UP_MS;
      const update = outcome.ok
        ? { status: 'SENT' as const, attempts: due.attempts + 1, sent_at: new Date(), last_error: null }
        : givenUp
          ? { status: 'FAILED' as const, attempts: due.attempts + 1, last_error: outcome.error.slice(0, 2000) }
          : { attempts: due.attempts + 1, next_attempt_at: outcome.retryAt, last_error: outcome.error.slice(0, 2000) };
      await trx.updateTable('alarm_deliveries').set(update).where('id', '=', due.id).execute();
      return { ...due, ...update } as DeliveryRow;
    });
  }

  async history(query: { page: number; size: number; order: 'asc' | 'desc'; jobId?: number }) {
    let base = this.db.selectFrom('alarms');
    if (query.jobId) base = base.where('job_id', '=', query.jobId);
    const [{ total }] = await base.select((eb) => eb.fn.countAll<number>().as('total')).execute();
    const alarms = await base
      .selectAll()
      .orderBy('at', query.order)
      .orderBy('id', query.order)
      .limit(query.size)
      .offset((query.page - 1) * query.size)
      .execute();
    const deliveries = alarms.length
      ? await this.db.selectFrom('alarm_deliveries').selectAll().where('alarm_id', 'in', alarms.map((a) => a.id)).orderBy('id').execute()
      : [];
    return { total: Number(total), alarms, deliveries };
  }

  async deleteHistory(): Promise<void> {
    await this.db.deleteFrom('alarms').execute();
  }

  /** Alarmed jobs and jobs with alarms, with their sent e-mail and SMS counts, by job id. */
  async cards(page: number, size: number) {
    const counts = this.db
      .selectFrom('alarm_deliveries as d')
      .innerJoin('alarms as a', 'a.id', 'd.alarm_id')
      .where('d.status', '=', 'SENT')
      .where('a.job_id', 'is not', null)
      .select(['a.job_id'])
      .select(sql<number>`count(*) filter (where d.channel = 'EMAIL')`.as('emails'))
      .select(sql<number>`count(*) filter (where d.channel = 'SMS')`.as('sms'))
      .groupBy('a.job_id');
    const base = this.db
      .selectFrom('jobs as j')
      .leftJoin(counts.as('c'), 'c.job_id', 'j.id')
      .where('j.is_template', '=', false)
      .where((eb) => eb.or([sql<boolean>`coalesce((j.config->>'alarmed')::boolean, false)`, eb('c.job_id', 'is not', null)]));
    const [{ total }] = await base.select((eb) => eb.fn.countAll<number>().as('total')).execute();
    const rows = await base
      .select(['j.id', 'j.name', 'j.kind'])
      .select(sql<boolean>`coalesce((j.config->>'alarmed')::boolean, false)`.as('alarmed'))
      .select(sql<number>`coalesce(c.emails, 0)::int`.as('emails'))
      .select(sql<number>`coalesce(c.sms, 0)::int`.as('sms'))
      .orderBy('j.id')
      .limit(size)
      .offset((page - 1) * size)
      .execute();
    return { total: Number(total), rows };
  }

  async jobExists(id: number): Promise<boolean> {
    return !!(await this.db.selectFrom('jobs').select('id').where('id', '=', id).executeTakeFirst());
  }

  async jobSettings(jobId: number): Promise<unknown> {
    return (await this.db.selectFrom('alarm_job_settings').select('settings').where('job_id', '=', jobId).executeTakeFirst())?.settings;
  }

  async saveJobSettings(jobId: number, settings: unknown): Promise<void> {
    const json = JSON.stringify(settings);
    await this.db
      .insertInto('alarm_job_settings')
      .values({ job_id: jobId, settings: json })
      .onConflict((oc) => oc.column('job_id').doUpdateSet({ settings: json, updated_at: new Date() }))
      .execute();
  }

  async usersByIds(ids: number[]) {
    if (ids.length === 0) return [];
    return this.db.selectFrom('users').select(['id', 'username', 'email', 'phone_number']).where('id', 'in', ids).where('enabled', '=', true).execute();
  }

  /** The state of every threshold on every node, with the node's name. */
  async systemStates() {
    return this.db
      .selectFrom('alarm_system_states')
      .innerJoin('nodes', 'nodes.id', 'alarm_system_states.node_id')
      .select(['alarm_system_states.node_id', 'nodes.name as node_name', 'alarm_system_states.name', 'alarm_system_states.raised', 'alarm_system_states.current', 'alarm_system_states.changed_at'])
      .orderBy('nodes.name')
      .orderBy('nodes.id')
      .execute();
  }

  /** Flip a threshold's state on a node; true only for the one process whose UPDATE changed it. */
  async flipSystemState(nodeId: number, name: string, raised: boolean, current: number): Promise<boolean> {
    await this.db
      .insertInto('alarm_system_states')
      .values({ node_id: nodeId, name, current })
      .onConflict((oc) => oc.columns(['node_id', 'name']).doNothing())
      .execute();
    const changed = await this.db
      .updateTable('alarm_system_states')
      .set({ raised, current, changed_at: new Date() })
      .where('node_id', '=', nodeId)
      .where('name', '=', name)
      .where('raised', '=', !raised)
      .returning('name')
      .executeTakeFirst();
    if (!changed) await this.db.updateTable('alarm_system_states').set({ current }).where('node_id', '=', nodeId).where('name', '=', name).execute();
    return !!changed;
  }

  /** Failed jobs by the node that ran them. */
  async failedJobsByNode(): Promise<Map<number, number>> {
    const rows = await this.db
      .selectFrom('job_status')
      .select(['node_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('state', '=', 'failed')
      .where('node_id', 'is not', null)
      .groupBy('node_id')
      .execute();
    return new Map(rows.map((row) => [Number(row.node_id), Number(row.n)]));
  }
}
