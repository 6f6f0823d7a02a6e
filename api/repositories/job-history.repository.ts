import type { Db } from '../db/database.ts';
import type { JobRow, JobStatusRow } from '../db/tables.ts';
import { AppError } from '../errors.ts';

export type JobKindName = JobRow['kind'];

export interface JobEventRow {
  id: number;
  at: Date;
  type: string;
  reason: string | null;
  detail: string | null;
  actor_kind: string;
  actor_name: string | null;
}

export interface BatchEntryRow {
  id: number;
  source_file: string;
  status: string;
  entry: unknown;
  created_at: Date;
}

export type InsightJob = Pick<JobRow, 'id' | 'kind' | 'name' | 'is_template' | 'config'>;

/** The job of that kind, or the 404 every per-job operation of the area answers ("No relay with id 7"). */
export async function requireJob(repo: JobHistoryRepository, kind: JobKindName, id: number): Promise<InsightJob> {
  const job = await repo.findJob(kind, id);
  if (!job) throw new AppError(404, 'NOT_FOUND', `No ${kind} with id ${id}`);
  return job;
}

/** At most this many events feed the uptimes of a job (its statistics days keep far fewer). */
export const MAX_UPTIME_EVENTS = 200_000;

/** What the job insight services read: a job of a kind, its events, batch entries and observed status. */
export class JobHistoryRepository {
  constructor(private readonly db: Db) {}

  /** The job with that id, when it is of that kind (templates included). */
  findJob(kind: JobKindName, id: number): Promise<InsightJob | undefined> {
    return this.db.selectFrom('jobs').select(['id', 'kind', 'name', 'is_template', 'config']).where('id', '=', id).where('kind', '=', kind).executeTakeFirst();
  }

  /** Events newest first, at most `limit`, inside from–to (ms since the epoch, inclusive). */
  events(jobId: number, range: { from?: number; to?: number; limit: number }): Promise<JobEventRow[]> {
    let query = this.db
      .selectFrom('job_events')
      .select(['id', 'at', 'type', 'reason', 'detail', 'actor_kind', 'actor_name'])
      .where('job_id', '=', jobId);
    if (range.from !== undefined) query = query.where('at', '>=', new Date(range.from));
    if (range.to !== undefined) query = query.where('at', '<=', new Date(range.to));
    return query.orderBy('at', 'desc').orderBy('id', 'desc').limit(range.limit).execute();
  }

  /** The latest events (at most `limit`), oldest first: what uptimes and downtimes are derived from. */
  async eventsInOrder(jobId: number, limit = MAX_UPTIME_EVENTS): Promise<JobEventRow[]> {
    const rows = await this.events(jobId, { limit });
    return rows.reverse();
  }

  async batchEntries(jobId: number, page: { offset: number; limit: number; order: 'asc' | 'desc' }): Promise<{ rows: BatchEntryRow[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.db
        .selectFrom('job_batch_entries')
        .select(['id', 'source_file', 'status', 'entry', 'created_at'])
        .where('job_id', '=', jobId)
        .orderBy('id', page.order)
        .offset(page.offset)
        .limit(page.limit)
        .execute(),
      this.db
        .selectFrom('job_batch_entries')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('job_id', '=', jobId)
        .executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }

  status(jobId: number): Promise<Pick<JobStatusRow, 'state' | 'srt_stats'> | undefined> {
    return this.db.selectFrom('job_status').select(['state', 'srt_stats']).where('job_id', '=', jobId).executeTakeFirst();
  }
}
