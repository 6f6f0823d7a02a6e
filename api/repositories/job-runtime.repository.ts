import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { AudioPresetRow, JobRow, JobStatusRow, VideoPresetRow, WatermarkRow } from '../db/tables.ts';

export interface JobStatusUpdate {
  state: string;
  pid?: number | null;
  restarts?: number;
  cpuPercent?: number;
  rssBytes?: number;
  /** null: not measured. */
  inputBps?: number | null;
  outputBps?: number | null;
  /** Each input's and output's rate (engine/stats/job-io.ts); null clears them. */
  ioRates?: JobIoRatesRow | null;
  activeInput?: string | null;
  startedAt?: Date | null;
  lastResetAt?: Date | null;
  reason?: string | null;
  reasonDetail?: string | null;
  appliedRestartSeq?: number;
  appliedConfigVersion?: number;
  srtStats?: unknown;
}

/** Each input's (0 primary, 1 failover) and each output's bitrate by index, as stored in job_status.io_rates. */
export interface JobIoRatesRow {
  inputs: Array<{ index: number; bps: number | null }>;
  outputs: Array<{ index: number; bps: number | null }>;
}

/** The figures a node samples while a job runs. */
export interface JobStatsRow {
  jobId: number;
  cpuPercent: number;
  rssBytes: number;
  /** Bits per second; null: not measured. */
  inputBps: number | null;
  outputBps: number | null;
  ioRates: JobIoRatesRow;
  srtStats?: unknown;
}

export interface JobEventInput {
  jobId: number;
  type: 'START' | 'STOP' | 'RESTART' | 'UP' | 'EXIT' | 'FAILOVER' | 'FAILURE';
  reason?: string | null;
  detail?: string | null;
  actor: { kind: 'user'; userId: number; username: string } | { kind: 'timer'; timerId: number; name: string } | { kind: 'engine' };
  nodeId: number | null;
}

/** What the node reconciler reads and writes: desired state in, observed state and events out. */
export class JobRuntimeRepository {
  constructor(private readonly db: Db) {}

  /** Jobs placed on this node that should run, or that it may still be running. */
  desiredForNode(nodeId: number): Promise<JobRow[]> {
    return this.db.selectFrom('jobs').selectAll().where('is_template', '=', false).where('active', '=', true).where('assigned_node_id', '=', nodeId).execute();
  }

  findJob(id: number): Promise<JobRow | undefined> {
    return this.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async references(row: JobRow, audioPresetIds: number[]): Promise<{ preset?: VideoPresetRow & { audioPreset?: AudioPresetRow }; audioPresets: Map<number, AudioPresetRow>; watermark?: WatermarkRow }> {
    const preset = row.preset_id ? await this.db.selectFrom('video_presets').selectAll().where('id', '=', row.preset_id).executeTakeFirst() : undefined;
    const ids = [...new Set([...audioPresetIds, ...(preset ? [preset.audio_preset_id] : [])])];
    const audio = ids.length ? await this.db.selectFrom('audio_presets').selectAll().where('id', 'in', ids).execute() : [];
    const audioPresets = new Map(audio.map((a) => [a.id, a]));
    const watermark = row.watermark_id ? await this.db.selectFrom('watermarks').selectAll().where('id', '=', row.watermark_id).executeTakeFirst() : undefined;
    return { preset: preset ? { ...preset, audioPreset: audioPresets.get(preset.audio_preset_id) } : undefined, audioPresets, watermark };
  }

  async writeStatus(jobId: number, nodeId: number, update: JobStatusUpdate): Promise<void> {
    const values = {
      state: update.state,
      pid: update.pid,
      restarts: update.restarts,
      cpu_percent: update.cpuPercent,
      rss_bytes: update.rssBytes,
      input_bps: update.inputBps,
      output_bps: update.outputBps,
      io_rates: update.ioRates === undefined ? undefined : update.ioRates === null ? null : JSON.stringify(update.ioRates),
      active_input: update.activeInput,
      started_at: update.startedAt,
      last_reset_at: update.lastResetAt,
      reason: update.reason,
      reason_detail: update.reasonDetail,
      applied_restart_seq: update.appliedRestartSeq,
      applied_config_version: update.appliedConfigVersion,
      srt_stats: update.srtStats === undefined ? undefined : JSON.stringify(update.srtStats),
      node_id: nodeId,
      updated_at: new Date(),
    };
    const defined = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as typeof values;
    await this.db
      .insertInto('job_status')
      .values({ job_id: jobId, ...defined })
      .onConflict((oc) => oc.column('job_id').doUpdateSet(defined))
      .execute()
      .catch((error: Error & { code?: string }) => {
        // The job was deleted while it ran: its status has nowhere to go.
        if (error.code !== '23503') throw error;
      });
  }

  /** Many jobs' figures in one statement; SRT statistics not sampled keep their stored value, a bitrate not measured is null. */
  /** Every row in one statement with seven array parameters (a VALUES list would be seven parameters per job). */
  async writeStats(rows: JobStatsRow[]): Promise<void> {
    if (rows.length === 0) return;
    const column = <T>(pick: (row: JobStatsRow) => T) => rows.map(pick);
    await sql`
      update job_status as s set
        cpu_percent = v.cpu, rss_bytes = v.rss,
        input_bps = v.input_bps, output_bps = v.output_bps, io_rates = v.io,
        srt_stats = coalesce(v.srt, s.srt_stats), updated_at = now()
      from unnest(
        ${column((r) => r.jobId)}::int[], ${column((r) => r.cpuPercent)}::real[], ${column((r) => Math.round(r.rssBytes))}::bigint[],
        ${column((r) => r.inputBps)}::bigint[], ${column((r) => r.outputBps)}::bigint[],
        ${column((r) => JSON.stringify(r.ioRates))}::jsonb[], ${column((r) => (r.srtStats === undefined ? null : JSON.stringify(r.srtStats)))}::jsonb[]
      ) as v(job_id, cpu, rss, input_bps, output_bps, io, srt)
      where s.job_id = v.job_id and s.state = 'running'`.execute(this.db);
  }

  statusOf(jobId: number): Promise<JobStatusRow | undefined> {
    return this.db.selectFrom('job_status').selectAll().where('job_id', '=', jobId).executeTakeFirst();
  }

  async recordEvent(event: JobEventInput): Promise<void> {
    await this.db
      .insertInto('job_events')
      .values({
        job_id: event.jobId,
        type: event.type,
        reason: event.reason ?? null,
        detail: event.detail?.slice(0, 2000) ?? null,
        actor_kind: event.actor.kind,
        actor_id: event.actor.kind === 'user' ? event.actor.userId : event.actor.kind === 'timer' ? event.actor.timerId : null,
        actor_name: event.actor.kind === 'user' ? event.actor.username : event.actor.kind === 'timer' ? event.actor.name : null,
        node_id: event.nodeId,
      })
      .execute()
      .catch((error: Error & { code?: string }) => {
        if (error.code !== '23503') throw error;
      });
  }

  /**
   * Switch a job off on the engine's behalf (a VOD or batch that finished), so it does not start
   * over; a job the operator switched off meanwhile is left as it is. True when it was on.
   */
  async switchOff(jobId: number, actor: JobEventInput['actor']): Promise<boolean> {
    const result = await this.db
      .updateTable('jobs')
      .set({ active: false, desired_actor: JSON.stringify(actor) })
      .where('id', '=', jobId)
      .where('active', '=', true)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async recordBatchEntry(jobId: number, sourceFile: string, status: string, entry: unknown): Promise<void> {
    await this.db.insertInto('job_batch_entries').values({ job_id: jobId, source_file: sourceFile, status, entry: JSON.stringify(entry) }).execute();
  }

  /** Files of a batch job already transcoded, so a restarted batch skips them. */
  async doneBatchFiles(jobId: number): Promise<string[]> {
    const rows = await this.db.selectFrom('job_batch_entries').select('source_file').where('job_id', '=', jobId).where('status', '=', 'DONE').execute();
    return rows.map((r) => r.source_file);
  }

  /** Events older than each job's statistics days (1–30, default 7) are dropped. */
  async purgeOldEvents(): Promise<number> {
    const result = await sql<{ n: number }>`
      with purged as (
        delete from job_events e using jobs j
        where e.job_id = j.id
          and e.at < now() - make_interval(days => coalesce((j.config->>'statisticsDays')::int, 7))
        returning 1)
      select count(*)::int as n from purged`.execute(this.db);
    return result.rows[0]?.n ?? 0;
  }
}
