import { sql, type RawBuilder } from 'kysely';
import { MAX_ID } from '../../openapi/schemas/common.ts';
import type { Db } from '../db/database.ts';
import type { JobRow, JobStatusRow } from '../db/tables.ts';

export type JobKindName = JobRow['kind'];

/** The list's search, filters, sort and page, already parsed. */
export interface JobListFilter {
  search?: string;
  videoType?: string;
  status?: 'active' | 'inactive' | 'streaming' | 'waiting' | 'failed';
  nodes?: number[];
  presets?: number[];
  outputTypes?: string[];
  inputTypes?: string[];
  sort: 'id' | 'name';
  order: 'asc' | 'desc';
  offset: number;
  limit: number;
}

/** A list row: the job's list columns, what its node observes, and the names it refers to. */
export interface JobSummaryRow {
  id: number;
  kind: JobKindName;
  name: string;
  video_type: string;
  active: boolean;
  saved: boolean;
  is_template: boolean;
  template_type: string | null;
  config_version: number;
  node_id: number | null;
  input_type: string;
  output_types: string[];
  preset_id: number | null;
  created_by_name: string | null;
  /** ISO 8601 (see iso()). */
  created_at: string;
  updated_at: string;
  list_summary: unknown;
  preset_name: string | null;
  node_name: string | null;
  execution_node_name: string | null;
  state: string | null;
  restarts: number | null;
  cpu_percent: number | null;
  rss_bytes: number | null;
  input_bps: number | null;
  output_bps: number | null;
  io_rates: unknown;
  active_input: string | null;
  started_at: string | null;
  last_reset_at: string | null;
  reason: string | null;
  reason_detail: string | null;
  applied_config_version: number | null;
  srt_stats: unknown;
  /** [worst level (1 NOTICE, 2 WARNING, 3 CRITICAL), count]; the worst is null without comments. */
  comments: [number | null, number];
}

export interface JobCountsRow {
  total: number;
  active: number;
  failed: number;
  waiting: number;
}

/** A job with what its node observes and the names it refers to. */
export interface JobDetailRow {
  job: JobRow;
  status: JobStatusRow | undefined;
  nodeName: string | null;
  executionNodeName: string | null;
  comments: JobCommentRow[];
}

export interface JobCommentRow {
  id: number;
  type: string;
  comment: string;
  created_by: string | null;
  created_at: Date;
}

export type JobColumns = Pick<JobRow, 'name' | 'video_type' | 'node_id' | 'input_type' | 'output_types' | 'preset_id' | 'watermark_id'> & { config: string };

export type Actor = { kind: 'user'; userId: number; username: string };

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * A timestamp as the API writes it (ISO 8601 in UTC, milliseconds), made by Postgres: parsing
 * dates in the driver costs more than the rest of a list row.
 */
const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The columns of a list row (over `page`, `jobs j` and `job_status s`): constant text, so it costs
 * nothing to compile at each request. Preset, node names and comments come from small subqueries
 * (cheaper to plan than joins); the configuration itself is not read: `list_summary` holds what
 * the row shows of it.
 */
const ROW_COLUMNS = sql.raw(`
  j.id, j.kind, j.name, j.video_type, j.active, j.saved, j.is_template, j.template_type, j.config_version,
  j.node_id, j.input_type, j.output_types, j.preset_id, j.created_by_name, ${iso('j.created_at')} as created_at, ${iso('j.updated_at')} as updated_at,
  j.list_summary, s.state, s.restarts, s.cpu_percent, s.rss_bytes, s.input_bps, s.output_bps, s.io_rates, s.active_input,
  ${iso('s.started_at')} as started_at, ${iso('s.last_reset_at')} as last_reset_at,
  s.reason, s.reason_detail, s.applied_config_version, s.srt_stats,
  (select p.name from video_presets p where p.id = j.preset_id) as preset_name,
  (select n.name from nodes n where n.id = coalesce(j.node_id, j.assigned_node_id)) as node_name,
  (select n.name from nodes n where n.id = s.node_id) as execution_node_name,
  (select array[max(case cm.type when 'CRITICAL' then 3 when 'WARNING' then 2 else 1 end)::int, count(*)::int]
    from job_comments cm where cm.job_id = j.id) as comments`);

/** The observed states of a job that is switched on and neither running nor failed: waiting. */
const WAITING = sql`coalesce(s.state, 'stopped') not in ('running', 'failed')`;

/** The WHERE conditions of a list (over `jobs j left join job_status s`), besides kind and template. */
function conditionsOf(filter: JobListFilter): RawBuilder<unknown>[] {
  const where: RawBuilder<unknown>[] = [];
  const search = filter.search?.trim();
  if (search) {
    const id = /^\d{1,10}$/.test(search) && Number(search) <= MAX_ID ? Number(search) : undefined;
    const byName = sql`lower(j.name) like ${`%${escapeLike(search.toLowerCase())}%`}`;
    where.push(id === undefined ? byName : sql`(${byName} or j.id = ${id})`);
  }
  if (filter.videoType) where.push(sql`j.video_type = ${filter.videoType}`);
  if (filter.status === 'active') where.push(sql`j.active`);
  if (filter.status === 'inactive') where.push(sql`not j.active`);
  if (filter.status === 'streaming') where.push(sql`j.active and s.state = 'running'`);
  if (filter.status === 'failed') where.push(sql`j.active and s.state = 'failed'`);
  if (filter.status === 'waiting') where.push(sql`j.active and ${WAITING}`);
  if (filter.nodes?.length) where.push(sql`(j.node_id = any(${filter.nodes}::int[]) or j.assigned_node_id = any(${filter.nodes}::int[]))`);
  if (filter.presets?.length) where.push(sql`j.preset_id = any(${filter.presets}::int[])`);
  if (filter.outputTypes?.length) where.push(sql`j.output_types && ${filter.outputTypes}::varchar[]`);
  if (filter.inputTypes?.length) where.push(sql`j.input_type = any(${filter.inputTypes}::varchar[])`);
  return where;
}

/** Relays, encodings and their templates: the rows the operators write (Kysely only). */
export class JobsRepository {
  constructor(private readonly db: Db) {}

  /** Run `work` in one transaction with a repository bound to it: a failed save leaves the old record whole. */
  transaction<T>(work: (jobs: JobsRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new JobsRepository(trx)));
  }

  /**
   * A page of a kind's jobs (or templates) in ONE statement, no per-row queries: the page's ids
   * are chosen first (by the id or name index, or the name's trigrams), then only those rows are
   * joined with their status and read (ROW_COLUMNS). With `ids` (the page as chosen a moment ago)
   * only those rows are read.
   */
  async page(kind: JobKindName, templates: boolean, filter: JobListFilter, ids?: readonly number[]): Promise<JobSummaryRow[]> {
    const { from, where } = this.filtered(kind, templates, filter);
    const direction = filter.order === 'asc' ? sql`asc` : sql`desc`;
    const orderOf = (alias: 'j' | 'r') => (filter.sort === 'name' ? sql`lower(${sql.ref(`${alias}.name`)}) ${direction}, ${sql.ref(`${alias}.id`)} ${direction}` : sql`${sql.ref(`${alias}.id`)} ${direction}`);
    const orderBy = orderOf('j');
    const paging = sql`order by ${orderBy} limit ${filter.limit} offset ${filter.offset}`;
    // A search is matched first (by the name's trigrams), then sorted: walking the id or name
    // order and filtering would read every row until a rare name comes.
    const page = ids
      ? sql`page as (select j.id from jobs j where j.id = any(${ids}::int[]) and j.kind = ${kind} and j.is_template = ${templates})`
      : filter.search?.trim()
      ? sql`matches as materialized (select j.id, j.name from ${from} where ${where}), page as (select j.id from matches j ${paging})`
      : sql`page as (select j.id from ${from} where ${where} ${paging})`;
    // One JSON value for the whole page: the driver parses it natively, not field by field.
    const result = await sql<{ rows: JobSummaryRow[] }>`
      with ${page}
      select coalesce(json_agg(r order by ${orderOf('r')}), '[]') as rows from (
        select ${ROW_COLUMNS}
        from page
        join jobs j on j.id = page.id
        left join job_status s on s.job_id = j.id
      ) r`.execute(this.db);
    return result.rows[0]?.rows ?? [];
  }

  /** How many jobs match the search and filters; null without any (the footer's total says it). */
  async countMatching(kind: JobKindName, templates: boolean, filter: JobListFilter): Promise<number | null> {
    const { from, where, filtered } = this.filtered(kind, templates, filter);
    if (!filtered) return null;
    const result = await sql<{ n: number }>`select count(*)::int as n from ${from} where ${where}`.execute(this.db);
    return result.rows[0]?.n ?? 0;
  }

  private filtered(kind: JobKindName, templates: boolean, filter: JobListFilter) {
    const conditions = conditionsOf(filter);
    return {
      // Only the status filter reads the observed state.
      from: filter.status ? sql`jobs j left join job_status s on s.job_id = j.id` : sql`jobs j`,
      where: sql.join([sql`j.kind = ${kind}`, sql`j.is_template = ${templates}`, ...conditions], sql` and `),
      filtered: conditions.length > 0,
    };
  }

  /** The footer counts over every job (or template) of the kind. */
  async counts(kind: JobKindName, templates: boolean): Promise<JobCountsRow> {
    const result = await sql<JobCountsRow>`
      select count(*)::int as total,
        count(*) filter (where j.active)::int as active,
        count(*) filter (where j.active and s.state = 'failed')::int as failed,
        count(*) filter (where j.active and ${WAITING})::int as waiting
      from jobs j left join job_status s on s.job_id = j.id
      where j.kind = ${kind} and j.is_template = ${templates}`.execute(this.db);
    return result.rows[0] as JobCountsRow;
  }

  findById(kind: JobKindName, id: number): Promise<JobRow | undefined> {
    return this.db.selectFrom('jobs').selectAll().where('id', '=', id).where('kind', '=', kind).executeTakeFirst();
  }

  /** The row locked against concurrent saves until the transaction ends. */
  findForUpdate(kind: JobKindName, id: number): Promise<JobRow | undefined> {
    return this.db.selectFrom('jobs').selectAll().where('id', '=', id).where('kind', '=', kind).forUpdate().executeTakeFirst();
  }

  async findDetail(kind: JobKindName, id: number): Promise<JobDetailRow | undefined> {
    const [found, status, comments] = await Promise.all([
      this.db
        .selectFrom('jobs as j')
        .leftJoin('job_status as s', 's.job_id', 'j.id')
        .leftJoin('nodes as n', (join) => join.on(sql`n.id`, '=', sql`coalesce(j.node_id, j.assigned_node_id)`))
        .leftJoin('nodes as sn', 'sn.id', 's.node_id')
        .selectAll('j')
        .select(['n.name as node_name', 'sn.name as execution_node_name'])
        .where('j.id', '=', id)
        .where('j.kind', '=', kind)
        .executeTakeFirst(),
      this.db.selectFrom('job_status').selectAll().where('job_id', '=', id).executeTakeFirst(),
      this.comments(id),
    ]);
    if (!found) return undefined;
    const { node_name, execution_node_name, ...job } = found;
    return { job, status, nodeName: node_name, executionNodeName: execution_node_name, comments };
  }

  insert(values: JobColumns & { kind: JobKindName; is_template: boolean; template_type: string | null; saved: boolean; created_by: number; created_by_name: string; desired_actor: string }): Promise<JobRow> {
    return this.db
      .insertInto('jobs')
      .values({ ...values, assigned_node_id: values.is_template ? null : values.node_id })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** A new configuration: the version is bumped so a running job shows changedConfigSinceLastStart. */
  updateConfig(id: number, values: JobColumns & { saved: boolean; template_type?: string | null }, restart?: { mode: string; actor: Actor }): Promise<JobRow> {
    return this.db
      .updateTable('jobs')
      .set({
        ...values,
        // A chosen node is where it runs; auto keeps the leader's placement.
        ...(values.node_id !== null ? { assigned_node_id: values.node_id } : {}),
        config_version: sql<number>`config_version + 1`,
        ...(restart ? { restart_seq: sql<number>`restart_seq + 1`, restart_mode: restart.mode, desired_actor: JSON.stringify(restart.actor) } : {}),
        updated_at: sql<Date>`now()`,
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Only the saved (locked) flag: an unlock changes nothing else. */
  async setSaved(id: number, saved: boolean): Promise<void> {
    await this.db.updateTable('jobs').set({ saved, updated_at: sql<Date>`now()` }).where('id', '=', id).execute();
  }

  /** Switch on or off (jobs only, never templates). False when no such job. */
  async setActive(kind: JobKindName, id: number, active: boolean, actor: Actor): Promise<boolean> {
    const result = await this.db
      .updateTable('jobs')
      .set({ active, desired_actor: JSON.stringify(actor) })
      .where('id', '=', id)
      .where('kind', '=', kind)
      .where('is_template', '=', false)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** A restart order: the node carries out every bump of restart_seq once, in the mode asked. False when the job is off. */
  async requestRestart(kind: JobKindName, id: number, mode: string, actor: Actor): Promise<boolean> {
    const result = await this.db
      .updateTable('jobs')
      .set({ restart_seq: sql<number>`restart_seq + 1`, restart_mode: mode, desired_actor: JSON.stringify(actor) })
      .where('id', '=', id)
      .where('kind', '=', kind)
      .where('is_template', '=', false)
      .where('active', '=', true)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Delete a job or template; its status, events, batch entries and comments go with it. */
  async delete(kind: JobKindName, id: number, templates?: boolean): Promise<boolean> {
    let query = this.db.deleteFrom('jobs').where('id', '=', id).where('kind', '=', kind);
    if (templates !== undefined) query = query.where('is_template', '=', templates);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * Serialise the creates of one user and kind until the transaction ends, so two creates checked
   * against the same count cannot both pass the limit.
   */
  async lockUserCreates(userId: number, kind: JobKindName): Promise<void> {
    await sql`select pg_advisory_xact_lock(hashtext(${`mediaplane.jobs.${kind}`}), ${userId})`.execute(this.db);
  }

  /** The user's relays or encodings limit (0 = no limit). */
  async userLimit(userId: number, kind: JobKindName): Promise<number> {
    const row = await this.db.selectFrom('users').select(['relays_limit', 'encodings_limit']).where('id', '=', userId).executeTakeFirst();
    if (!row) return 0;
    return kind === 'relay' ? row.relays_limit : row.encodings_limit;
  }

  /** Jobs (not templates) of a kind the user created. */
  async countOwn(userId: number, kind: JobKindName): Promise<number> {
    const row = await this.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('created_by', '=', userId)
      .where('kind', '=', kind)
      .where('is_template', '=', false)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Which of these references exist: presets, watermarks and nodes. */
  async missingReferences(refs: { preset?: number | null; watermark?: number | null; node?: number | null }): Promise<Array<'preset' | 'watermark' | 'node'>> {
    const row = await sql<{ preset: boolean; watermark: boolean; node: boolean }>`
      select
        (${refs.preset ?? null}::int is null or exists (select 1 from video_presets where id = ${refs.preset ?? null}::int)) as preset,
        (${refs.watermark ?? null}::int is null or exists (select 1 from watermarks where id = ${refs.watermark ?? null}::int)) as watermark,
        (${refs.node ?? null}::int is null or exists (select 1 from nodes where id = ${refs.node ?? null}::int)) as node`.execute(this.db);
    const found = row.rows[0];
    return (['preset', 'watermark', 'node'] as const).filter((key) => found && !found[key]);
  }

  comments(jobId: number): Promise<JobCommentRow[]> {
    return this.db.selectFrom('job_comments').select(['id', 'type', 'comment', 'created_by', 'created_at']).where('job_id', '=', jobId).orderBy('created_at').orderBy('id').execute();
  }

  addComment(jobId: number, comment: { type: string; comment: string; createdBy: string }): Promise<JobCommentRow> {
    return this.db
      .insertInto('job_comments')
      .values({ job_id: jobId, type: comment.type, comment: comment.comment, created_by: comment.createdBy })
      .returning(['id', 'type', 'comment', 'created_by', 'created_at'])
      .executeTakeFirstOrThrow();
  }

  async deleteComment(jobId: number, commentId: number): Promise<boolean> {
    const result = await this.db.deleteFrom('job_comments').where('id', '=', commentId).where('job_id', '=', jobId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
