import { BATCH_STATUSES, type JobHistoryQueryValue } from '../../openapi/schemas/job-insights.ts';
import type { DataPaths } from '../config.ts';
import type { Db } from '../db/database.ts';
import { JobHistoryRepository, requireJob, type BatchEntryRow, type JobEventRow, type JobKindName } from '../repositories/job-history.repository.ts';
import { JobLogsService } from './job-logs.service.ts';
import { JobMonitorService } from './job-monitor.service.ts';
import { deriveUptimes, type DowntimeInterval, type UptimeInterval } from './job-uptime.ts';
import { MediaInfoService, type MediaInfoOptions } from './media-info.service.ts';

/** The services of what an operator reads about a job, on one repository: wired once by createServices. */
export function createJobInsightServices(db: Db, paths: Pick<DataPaths, 'logsDir' | 'streamsDir'>, options: { mediaInfo?: MediaInfoOptions } = {}) {
  const jobs = new JobHistoryRepository(db);
  return {
    logs: new JobLogsService(jobs, paths.logsDir),
    history: new JobHistoryService(jobs),
    mediaInfo: new MediaInfoService(jobs, options.mediaInfo),
    monitor: new JobMonitorService(jobs, paths.streamsDir),
  };
}

export type JobInsightServices = ReturnType<typeof createJobInsightServices>;

export interface JobEventDto {
  id: number;
  time: number;
  type: 'START' | 'STOP' | 'RESTART' | 'UP' | 'EXIT' | 'FAILOVER' | 'FAILURE';
  reason: string | null;
  detail: string | null;
  actor: string | null;
}

export type BatchStatusName = (typeof BATCH_STATUSES)[number];

export interface BatchResultDto {
  id: number;
  startTime: string | null;
  endTime: string | null;
  elapsedTimeInSeconds: number | null;
  sourceFile: string;
  sourceFileDurationInSeconds: number | null;
  sourceFileSizeInBytes: number | null;
  outputFiles: string[];
  transcodingSpeedInBitsPerSecond: number | null;
  transcodingSpeedToPlaySpeedRatio: number | null;
  jobName: string;
  status: BatchStatusName;
  createdAt: string;
}

export type HistoryRecords = 'events' | 'uptimes' | 'downtimes';

/**
 * A job's history: its events, the uptimes and downtimes derived from them (job-uptime.ts), and
 * the batch results of a batch job; with the CSV downloads of the statistics screen (spec 03 §7).
 */
export class JobHistoryService {
  constructor(
    private readonly jobs: JobHistoryRepository,
    private readonly clock: () => number = Date.now,
  ) {}

  async events(kind: JobKindName, id: number, query: JobHistoryQueryValue): Promise<{ items: JobEventDto[] }> {
    await requireJob(this.jobs, kind, id);
    const rows = await this.jobs.events(id, { from: query.from, to: query.to, limit: query.size });
    return { items: rows.map(toEventDto) };
  }

  async uptimes(kind: JobKindName, id: number, query: JobHistoryQueryValue): Promise<{ items: UptimeInterval[] }> {
    const { uptimes } = await this.intervals(kind, id, query);
    return { items: uptimes };
  }

  async downtimes(kind: JobKindName, id: number, query: JobHistoryQueryValue): Promise<{ items: DowntimeInterval[] }> {
    const { downtimes } = await this.intervals(kind, id, query);
    return { items: downtimes };
  }

  /** The records of `what` as a CSV file, with the name it is downloaded under. */
  async download(kind: JobKindName, id: number, what: HistoryRecords, query: JobHistoryQueryValue): Promise<{ fileName: string; csv: string }> {
    const fileName = `${kind}-${id}-${what}.csv`;
    if (what === 'events') {
      const { items } = await this.events(kind, id, query);
      return { fileName, csv: toCsv(['Time', 'Type', 'Reason', 'Detail', 'By'], items.map((e) => [utcTime(e.time), e.type, e.reason, e.detail, e.actor ?? 'engine'])) };
    }
    if (what === 'uptimes') {
      const { items } = await this.uptimes(kind, id, query);
      return { fileName, csv: toCsv(['From', 'Until', 'Duration (seconds)'], items.map((u) => [utcTime(u.from), u.until === undefined ? '' : utcTime(u.until), String(u.durationSeconds)])) };
    }
    const { items } = await this.downtimes(kind, id, query);
    return {
      fileName,
      csv: toCsv(['From', 'Until', 'Duration (seconds)', 'Reason'], items.map((d) => [utcTime(d.from), d.until === undefined ? '' : utcTime(d.until), String(d.durationSeconds), d.reason])),
    };
  }

  async batchResults(kind: JobKindName, id: number, query: { page: number; size: number; order: 'asc' | 'desc' }) {
    await requireJob(this.jobs, kind, id);
    const { rows, total } = await this.jobs.batchEntries(id, { offset: (query.page - 1) * query.size, limit: query.size, order: query.order });
    return { items: rows.map(toBatchResult), total, page: query.page, size: query.size };
  }

  /** Every interval that overlaps from–to, newest first, at most `size` of each. */
  private async intervals(kind: JobKindName, id: number, query: JobHistoryQueryValue): Promise<{ uptimes: UptimeInterval[]; downtimes: DowntimeInterval[] }> {
    await requireJob(this.jobs, kind, id);
    const derived = deriveUptimes(await this.jobs.eventsInOrder(id), this.clock());
    const from = query.from === undefined ? -Infinity : Math.floor(query.from / 1000);
    const to = query.to === undefined ? Infinity : query.to / 1000;
    const inRange = <T extends UptimeInterval>(list: T[]) =>
      list
        .filter((interval) => interval.from <= to && (interval.until === undefined || interval.until >= from))
        .reverse()
        .slice(0, query.size);
    return { uptimes: inRange(derived.uptimes), downtimes: inRange(derived.downtimes) };
  }
}

function toEventDto(row: JobEventRow): JobEventDto {
  return {
    id: Number(row.id),
    time: Math.floor(row.at.getTime() / 1000),
    type: row.type as JobEventDto['type'],
    reason: row.reason,
    detail: row.detail,
    actor: row.actor_kind === 'engine' ? null : row.actor_name,
  };
}

const numberOrNull = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const stringOrNull = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** A stored batch entry with every field of spec 01 §3; what was not recorded is null, a missing status NONE. */
export function toBatchResult(row: BatchEntryRow): BatchResultDto {
  const entry = (row.entry && typeof row.entry === 'object' ? row.entry : {}) as Record<string, unknown>;
  const status = [row.status, entry.status].find((value): value is BatchStatusName => (BATCH_STATUSES as readonly unknown[]).includes(value)) ?? 'NONE';
  return {
    id: Number(row.id),
    startTime: stringOrNull(entry.startTime),
    endTime: stringOrNull(entry.endTime),
    elapsedTimeInSeconds: numberOrNull(entry.elapsedTimeInSeconds),
    sourceFile: stringOrNull(entry.sourceFile) ?? row.source_file,
    sourceFileDurationInSeconds: numberOrNull(entry.sourceFileDurationInSeconds),
    sourceFileSizeInBytes: numberOrNull(entry.sourceFileSizeInBytes),
    outputFiles: Array.isArray(entry.outputFiles) ? entry.outputFiles.filter((f): f is string => typeof f === 'string') : [],
    transcodingSpeedInBitsPerSecond: numberOrNull(entry.transcodingSpeedInBitsPerSecond),
    transcodingSpeedToPlaySpeedRatio: numberOrNull(entry.transcodingSpeedToPlaySpeedRatio),
    jobName: stringOrNull(entry.jobName) ?? '',
    status,
    createdAt: row.created_at.toISOString(),
  };
}

/** Seconds since the epoch as the histories show them: yyyy-MM-dd HH:mm:ss, UTC. */
export function utcTime(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, a quote, a line break or edge spaces, its
 * quotes doubled. A text that a spreadsheet would run as a formula (= + - @, tab, CR first) gets a
 * leading apostrophe.
 */
export function csvCell(value: string | null | undefined): string {
  let text = value ?? '';
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A header row and the records, CRLF line ends. */
export function toCsv(header: string[], rows: (string | null | undefined)[][]): string {
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
