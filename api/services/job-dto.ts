import type { z } from 'zod';
import type { Job, JobSummary } from '../../openapi/schemas/job-api.ts';
import { JobInput, type JobInputValue, type JobStatus } from '../../openapi/schemas/jobs.ts';
import type { JobRow, JobStatusRow } from '../db/tables.ts';
import type { JobCommentRow, JobDetailRow, JobSummaryRow } from '../repositories/jobs.repository.ts';

/** How the jobs API turns rows into what it answers: a list row, a full job, a status, a comment. */

export type JobDto = z.output<typeof Job>;
export type JobSummaryDto = z.output<typeof JobSummary>;
type JobStatusDto = z.output<typeof JobStatus>;

const COMMENT_LEVELS = [null, 'NOTICE', 'WARNING', 'CRITICAL'] as const;
const SEGMENTED = new Set(['hls', 'dash', 'cmaf']);
/** States in which a process of the job exists: a newer stored configuration is not applied yet. */
const PROCESS_STATES = new Set(['starting', 'running', 'restarting', 'failed']);

/** The stored configuration, with the defaults of fields added since it was saved. */
export function configOf(row: Pick<JobRow, 'config'>): JobInputValue {
  const parsed = JobInput.safeParse(row.config);
  return parsed.success ? parsed.data : (row.config as JobInputValue);
}

/** The input URL as the list shows it: without an access token in its query. */
export function withoutToken(uri: string | null | undefined): string | null {
  if (!uri) return null;
  return uri.replace(/([?&])token=[^&#]*(&?)/i, (_m, sep: string, next: string) => (next ? sep : '')).replace(/[?&]$/, '');
}

type OutputLike = { type?: string; disabled?: boolean; encryption?: boolean; drmEnabled?: boolean; adMarkersEnabled?: boolean };

export function outputMarkersOf(kind: JobRow['kind'], adaptive: boolean, outputs: OutputLike[]) {
  const enabled = outputs.filter((o) => !o.disabled);
  return {
    multiProfile: kind === 'encoding' && adaptive && enabled.some((o) => SEGMENTED.has(o.type ?? '')),
    encrypted: enabled.some((o) => o.encryption === true || o.drmEnabled === true),
    ad: enabled.some((o) => o.adMarkersEnabled === true),
  };
}

interface ObservedStatus {
  state: string | null;
  restarts: number | null;
  cpu_percent: number | null;
  rss_bytes: number | null;
  input_bps: number | null;
  output_bps: number | null;
  io_rates?: unknown;
  active_input: string | null;
  /** A Date, or ISO 8601 as the list query writes it. */
  started_at: Date | string | null;
  last_reset_at: Date | string | null;
  reason: string | null;
  reason_detail: string | null;
  srt_stats: unknown;
}

type SrtEntry = { direction: 'input' | 'output'; index: number; stats: JobStatusDto['inputs'][number]['srtStat'] };
type IoRates = { inputs?: Array<{ index: number; bps: number | null }>; outputs?: Array<{ index: number; bps: number | null }> };

/** Running with a configuration older than the stored one: a reload applies it. */
export function changedConfig(active: boolean, state: string | null | undefined, applied: number | null | undefined, version: number): boolean {
  return active && state !== null && state !== undefined && PROCESS_STATES.has(state) && (applied ?? 0) < version;
}

const secondsSince = (at: Date | null, now: number) => (at ? Math.max(0, Math.round((now - at.getTime()) / 1000)) : null);
/** A bitrate as measured; null: not measured. */
const rate = (bps: number | null | undefined) => (bps === null || bps === undefined ? null : Number(bps));
const dateOf = (value: Date | string | null | undefined) => (value === null || value === undefined ? null : value instanceof Date ? value : new Date(value));

/**
 * What the node observes, as the lists show it: the switch, the state and its reason always; CPU,
 * memory, start information and bitrates only while the job is on (CPU 0 and nulls otherwise).
 * Bitrates per input and output where the node measured them one by one (io_rates), else the
 * totals; null where the node could not measure them.
 */
export function statusOf(active: boolean, s: ObservedStatus | undefined, executionNode: string | null, outputs: OutputLike[]): JobStatusDto {
  const state = (s?.state ?? 'stopped') as JobStatusDto['state'];
  const on = active && s !== undefined && s.state !== null;
  const live = on && state !== 'stopped' && state !== 'failed';
  const workStatus = !active ? 'Stopped' : state === 'running' ? 'Streaming' : state === 'failed' ? 'Failed' : 'Waiting';
  const srt = Array.isArray(s?.srt_stats) ? (s.srt_stats as SrtEntry[]) : [];
  const srtOf = (direction: string, index: number) => srt.find((e) => e.direction === direction && e.index === index)?.stats ?? null;
  const io = (s?.io_rates ?? null) as IoRates | null;
  const now = Date.now();
  const startedAt = dateOf(s?.started_at);
  const lastResetAt = dateOf(s?.last_reset_at);
  const lastStart = lastResetAt && startedAt && lastResetAt > startedAt ? lastResetAt : startedAt;
  const inputs = (): JobStatusDto['inputs'] =>
    io?.inputs?.length ? io.inputs.map((i) => ({ bps: rate(i.bps), srtStat: srtOf('input', i.index) })) : [{ bps: rate(s?.input_bps), srtStat: srtOf('input', 0) }];
  const outputRates = (): JobStatusDto['outputs'] => {
    if (io?.outputs?.length) return io.outputs.map((o) => ({ position: o.index, bps: rate(o.bps), srtStat: srtOf('output', o.index) }));
    // Only the total is known: every enabled output carries the stream it measures.
    return outputs.flatMap((o, position) => (o.disabled ? [] : [{ position, bps: rate(s?.output_bps), srtStat: srtOf('output', position) }]));
  };
  return {
    on: active,
    state,
    workStatus,
    reason: s?.reason ?? null,
    reasonDetail: s?.reason_detail ?? null,
    restarts: s?.restarts ?? 0,
    cpu: live ? Number(s?.cpu_percent ?? 0) : 0,
    rss: live ? Number(s?.rss_bytes ?? 0) : 0,
    uptimeSeconds: live && state === 'running' ? secondsSince(startedAt, now) : null,
    secondsSinceLastStart: live ? secondsSince(lastStart, now) : null,
    startedAt: on && startedAt ? startedAt.toISOString() : null,
    lastResetAt: on && lastResetAt ? lastResetAt.toISOString() : null,
    executionNode: on ? executionNode : null,
    activeInput: live ? ((s?.active_input ?? null) as JobStatusDto['activeInput']) : null,
    inputs: live ? inputs() : [],
    outputs: live ? outputRates() : [],
  };
}

/** What a list row shows of the configuration (the jobs.list_summary column, computed by Postgres). */
interface ListSummary {
  inputUri?: string | null;
  alarmed?: boolean;
  statistics?: boolean;
  adaptive?: boolean;
  outputs?: OutputLike[];
}

export function summaryOf(row: JobSummaryRow): JobSummaryDto {
  const summary = (row.list_summary ?? {}) as ListSummary;
  const outputs = summary.outputs ?? [];
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    videoType: row.video_type as JobSummaryDto['videoType'],
    active: row.active,
    saved: row.saved,
    isTemplate: row.is_template,
    templateType: row.template_type as JobSummaryDto['templateType'],
    changedConfigSinceLastStart: changedConfig(row.active, row.state, row.applied_config_version, row.config_version),
    node: row.node_id,
    nodeName: row.node_name,
    preset: row.preset_id !== null && row.preset_name !== null ? { id: row.preset_id, name: row.preset_name } : null,
    inputType: row.input_type as JobSummaryDto['inputType'],
    inputUri: row.input_type === 'uri' ? withoutToken(summary.inputUri) : null,
    outputTypes: row.output_types as JobSummaryDto['outputTypes'],
    outputMarkers: outputMarkersOf(row.kind, summary.adaptive === true, outputs),
    worstComment: COMMENT_LEVELS[row.comments[0] ?? 0] ?? null,
    commentCount: row.comments[1],
    alarmed: summary.alarmed === true,
    statistics: summary.statistics === true,
    createdBy: row.created_by_name,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    status: statusOf(row.active, row.state === null ? undefined : row, row.execution_node_name, outputs),
  };
}

/** A job or list row without its alarm switch: what a reader without ALARMS_VIEW gets. */
export function withoutAlarmSwitch<T extends { alarmed?: boolean }>(dto: T): T {
  const { alarmed: _alarmed, ...rest } = dto;
  return rest as T;
}

export function commentOf(row: JobCommentRow): JobDto['comments'][number] {
  return { id: row.id, type: row.type as JobDto['comments'][number]['type'], comment: row.comment, createdAt: row.created_at.toISOString(), createdBy: row.created_by };
}

export function jobOf(detail: JobDetailRow): JobDto {
  const { job, status } = detail;
  const config = configOf(job);
  return {
    ...config,
    name: job.name,
    node: job.node_id,
    id: job.id,
    kind: job.kind,
    active: job.active,
    saved: job.saved,
    isTemplate: job.is_template,
    templateType: job.template_type as JobDto['templateType'],
    changedConfigSinceLastStart: changedConfig(job.active, status?.state, status?.applied_config_version, job.config_version),
    executionLocationType: job.node_id === null ? 'auto' : 'LOCALHOST',
    nodeName: detail.nodeName,
    comments: detail.comments.map(commentOf),
    createdBy: job.created_by_name,
    createdAt: job.created_at.toISOString(),
    updatedAt: job.updated_at.toISOString(),
    status: statusOf(job.active, status as JobStatusRow | undefined, detail.executionNodeName, config.outputs ?? []),
  };
}
