import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import type { TimerFiringsTable, TimersTable } from '../db/tables.ts';

export type TimerRow = Selectable<TimersTable>;
export type TimerFiringRow = Selectable<TimerFiringsTable>;

export interface TimerColumns {
  name: string;
  action: string;
  type: string;
  hour: number | null;
  minute: number;
  days_of_week: string[];
  date: string | null;
  time_zone: string;
  task_type: 'relay' | 'encoding';
  job_ids: number[];
  all_jobs: boolean;
  actived: boolean;
}

export type TimerActor = { kind: 'timer'; timerId: number; name: string };

/** What a firing changed: the jobs whose desired state it set, each with its kind. */
export interface FiringOutcome {
  firingId: number;
  jobs: Array<{ id: number; kind: 'relay' | 'encoding' }>;
}

const intArray = (ids: readonly number[]) => sql<number[]>`${`{${ids.join(',')}}`}::integer[]`;
const textArray = (values: readonly string[]) => sql<string[]>`${`{${values.join(',')}}`}::text[]`;

export class TimersRepository {
  constructor(private readonly db: Db) {}

  list(): Promise<TimerRow[]> {
    return this.db.selectFrom('timers').selectAll().orderBy('id').execute();
  }

  listEnabled(): Promise<TimerRow[]> {
    return this.db.selectFrom('timers').selectAll().where('actived', '=', true).orderBy('id').execute();
  }

  findById(id: number): Promise<TimerRow | undefined> {
    return this.db.selectFrom('timers').selectAll().where('id', '=', id).executeTakeFirst();
  }

  insert(columns: TimerColumns, createdBy: number | null): Promise<TimerRow> {
    return this.db
      .insertInto('timers')
      .values({ ...columns, days_of_week: textArray(columns.days_of_week), job_ids: intArray(columns.job_ids), created_by: createdBy })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  update(id: number, columns: TimerColumns): Promise<TimerRow | undefined> {
    return this.db
      .updateTable('timers')
      .set({ ...columns, days_of_week: textArray(columns.days_of_week), job_ids: intArray(columns.job_ids), updated_at: sql<Date>`now()` })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  setActived(id: number, actived: boolean): Promise<TimerRow | undefined> {
    return this.db.updateTable('timers').set({ actived, updated_at: sql<Date>`now()` }).where('id', '=', id).returningAll().executeTakeFirst();
  }

  async delete(id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('timers').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Id and name of jobs (not templates) of a kind among `ids`. */
  jobNames(kind: 'relay' | 'encoding', ids: readonly number[]): Promise<Array<{ id: number; name: string }>> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('jobs').select(['id', 'name']).where('kind', '=', kind).where('is_template', '=', false).where('id', 'in', [...ids]).orderBy('id').execute();
  }

  firings(timerId: number, limit = 100): Promise<TimerFiringRow[]> {
    return this.db.selectFrom('timer_firings').selectAll().where('timer_id', '=', timerId).orderBy('due_at', 'desc').limit(limit).execute();
  }

  /**
   * Carry out one firing, exactly once across every API process: in ONE transaction, re-read the
   * timer (locked; `stillDue` checks it still is enabled and due at that moment after any edit),
   * claim (timer_id, due_at) in timer_firings (a second claimer finds the row and does nothing),
   * change the desired state of the jobs it acts on, and record which. Returns null when the
   * firing was not this caller's to carry out.
   */
  fire(timerId: number, dueAt: Date, firedBy: string, stillDue: (timer: TimerRow) => boolean): Promise<FiringOutcome | null> {
    return this.db.transaction().execute(async (trx) => {
      const timer = await trx.selectFrom('timers').selectAll().where('id', '=', timerId).forUpdate().executeTakeFirst();
      if (!timer || !timer.actived || !stillDue(timer)) return null;
      const claim = await trx
        .insertInto('timer_firings')
        .values({ timer_id: timerId, due_at: dueAt, fired_by: firedBy, action: timer.action })
        .onConflict((oc) => oc.constraint('timer_firings_once').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!claim) return null;

      const actor: TimerActor = { kind: 'timer', timerId: timer.id, name: timer.name };
      let change = trx.updateTable('jobs').where('kind', '=', timer.task_type).where('is_template', '=', false);
      if (!timer.all_jobs) change = change.where('id', 'in', timer.job_ids.length ? timer.job_ids : [-1]);
      // Only the jobs the action changes: START those off, STOP those on, RESTART those on.
      const touched =
        timer.action === 'START'
          ? await change.set({ active: true, desired_actor: JSON.stringify(actor) }).where('active', '=', false).returning(['id', 'kind']).execute()
          : timer.action === 'STOP'
            ? await change.set({ active: false, desired_actor: JSON.stringify(actor) }).where('active', '=', true).returning(['id', 'kind']).execute()
            : await change
                .set({ restart_seq: sql<number>`restart_seq + 1`, restart_mode: 'hard', desired_actor: JSON.stringify(actor) })
                .where('active', '=', true)
                .returning(['id', 'kind'])
                .execute();
      const jobIds = touched.map((job) => job.id).sort((a, b) => a - b);
      await trx.updateTable('timer_firings').set({ job_ids: intArray(jobIds) }).where('id', '=', claim.id).execute();
      await trx.updateTable('timers').set({ last_fired_at: dueAt }).where('id', '=', timerId).execute();
      return { firingId: claim.id, jobs: touched };
    });
  }
}
