import { z } from 'zod';
import { Timestamp, pageOf } from './common.ts';
import { LOG_LEVEL_NAMES, OUTPUT_TYPES, SrtStats } from './jobs.ts';

/**
 * What an operator reads about a relay or an encoding (spec 01 §2.9, §3; spec 03 §3 Statistics,
 * §7): its log, its batch results, its history (events, uptimes, downtimes), the media info and
 * trace of its input, and its monitor.
 */

/** The spec's last-lines choices (01 §9). */
export const LOG_LINE_CHOICES = [30, 50, 100, 500, 1000] as const;

/** A query flag: `true` or `false` (absent: false). */
const flag = (description: string) =>
  z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true')
    .describe(description);

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A point in time as a query gives it: an ISO 8601 date and time, or a date alone (UTC), which
 * `from` reads as the start of that day and `to` as its end. Parsed into ms since the epoch.
 */
function timeParam(edge: 'from' | 'to', description: string) {
  return z
    .string()
    .trim()
    .max(40)
    .refine((value) => Number.isFinite(Date.parse(value)) && /^\d{4}-\d{2}-\d{2}/.test(value), 'must be an ISO 8601 date (2026-11-22) or date and time (2026-11-22T10:00:00Z)')
    .transform((value) => {
      const ms = Date.parse(DATE_ONLY.test(value) ? `${value}T00:00:00Z` : value);
      return DATE_ONLY.test(value) && edge === 'to' ? ms + 86_400_000 - 1 : ms;
    })
    .optional()
    .describe(description);
}

function fromBeforeTo(value: { from?: number; to?: number }, ctx: z.RefinementCtx): void {
  if (value.from !== undefined && value.to !== undefined && value.from > value.to) ctx.addIssue({ code: 'custom', path: ['to'], message: 'must not be before from' });
}

const LogLevelName = z.enum(LOG_LEVEL_NAMES);

const logFilters = {
  level: LogLevelName.optional().describe('Minimum level: WARNING returns WARNING, ERROR and FATAL.'),
  text: z.string().max(1000, 'must be at most 1000 characters').optional().describe('Text the line contains, or a regular expression when regex is true.'),
  regex: flag('Read text as a JavaScript regular expression.'),
  caseSensitive: flag('Match text with its case (default: ignore case).'),
  from: timeParam('from', 'Lines at or after this time.'),
  to: timeParam('to', 'Lines at or before this time.'),
};

export const JobLogsQuery = z
  .object({
    lines: z.coerce
      .number()
      .int()
      .refine((n) => (LOG_LINE_CHOICES as readonly number[]).includes(n), `must be one of ${LOG_LINE_CHOICES.join(', ')}`)
      .default(100)
      .meta({ enum: [...LOG_LINE_CHOICES], description: 'How many of the last matching lines (30, 50, 100, 500 or 1000).' }),
    direction: z.enum(['forward', 'backward']).default('backward').describe('backward: newest line first; forward: the oldest of those lines first.'),
    ...logFilters,
  })
  .superRefine(fromBeforeTo);
export type JobLogsQueryValue = z.output<typeof JobLogsQuery>;

export const JobLogsFollowQuery = z
  .object({
    ...logFilters,
    backlog: z.coerce.number().int().min(0).max(1000, 'must be at most 1000').default(0).describe('First send up to this many matching lines already in the log, oldest first.'),
  })
  .superRefine(fromBeforeTo);
export type JobLogsFollowQueryValue = z.output<typeof JobLogsFollowQuery>;

export const LogEntry = z
  .object({
    timestamp: Timestamp,
    level: LogLevelName,
    text: z.string(),
  })
  .meta({ id: 'LogEntry', description: 'One line of a job log (spec 01 §3 Log entry).' });

export const LogEntries = z
  .object({
    entries: z.array(LogEntry),
    truncatedScan: z.boolean().describe('The search stopped at its read budget before the start of the log: older matches may exist.'),
  })
  .meta({ id: 'LogEntries', description: 'The last matching lines of a job log. A job that never ran has none.' });

export const BATCH_STATUSES = ['DONE', 'FAILED', 'NONE'] as const;

export const BatchResult = z
  .object({
    id: z.number().int(),
    startTime: Timestamp.nullable(),
    endTime: Timestamp.nullable(),
    elapsedTimeInSeconds: z.number().nullable(),
    sourceFile: z.string(),
    sourceFileDurationInSeconds: z.number().nullable(),
    sourceFileSizeInBytes: z.number().nullable(),
    outputFiles: z.array(z.string()),
    transcodingSpeedInBitsPerSecond: z.number().nullable().describe('Source bits transcoded per second of wall time.'),
    transcodingSpeedToPlaySpeedRatio: z.number().nullable().describe('Source duration / elapsed time: 2 is twice as fast as playing it.'),
    jobName: z.string(),
    status: z.enum(BATCH_STATUSES).describe('NONE when none was given.'),
    createdAt: Timestamp,
  })
  .meta({ id: 'BatchResult', description: 'One source file of a batch job (spec 01 §3 Batch log entry).' });

export const BatchResultPage = pageOf(BatchResult, 'BatchResultPage');

export const BatchResultsQuery = z.object({
  page: z.coerce.number().int().min(1).default(1).describe('1-based page number.'),
  size: z.coerce.number().int().min(1).max(500).default(25).describe('Items per page.'),
  order: z.enum(['asc', 'desc']).default('desc').describe('desc: the latest file first.'),
});

export const JobHistoryQuery = z
  .object({
    size: z.coerce.number().int().min(1, 'must be at least 1').max(10_000, 'must be at most 10000').default(100).describe('The record count: at most this many, newest first.'),
    from: timeParam('from', 'From this date (2026-11-22: its start) or time.'),
    to: timeParam('to', 'Up to this date (2026-11-22: its end) or time.'),
  })
  .superRefine(fromBeforeTo);
export type JobHistoryQueryValue = z.output<typeof JobHistoryQuery>;

export const JOB_EVENT_TYPES = ['START', 'STOP', 'RESTART', 'UP', 'EXIT', 'FAILOVER', 'FAILURE'] as const;

export const JobHistoryEvent = z
  .object({
    id: z.number().int(),
    time: z.number().int().describe('Seconds since the epoch.'),
    type: z.enum(JOB_EVENT_TYPES),
    reason: z.string().nullable().describe('Why: hard, soft, reload, input_unreachable, hang, finished, recovered ...'),
    detail: z.string().nullable(),
    actor: z.string().nullable().describe('Who: the user or timer; null for the engine.'),
  })
  .meta({ id: 'JobHistoryEvent', description: 'A start, stop, restart, up, exit, failover or failure of a job (spec 03 §3 Statistics events).' });

export const JobHistoryEventList = z.object({ items: z.array(JobHistoryEvent) }).meta({ id: 'JobHistoryEventList', description: 'Events of a job, newest first.' });

export const JobUptime = z
  .object({
    from: z.number().int().describe('Seconds since the epoch.'),
    until: z.number().int().optional().describe('Seconds since the epoch; absent while it lasts.'),
    durationSeconds: z.number().int().describe('Until now for an open interval.'),
  })
  .meta({ id: 'JobUptime', description: 'A time the job delivered media.' });

export const JobDowntime = JobUptime.extend({ reason: z.string().nullable().describe('The reason of the event that took it down.') }).meta({
  id: 'JobDowntime',
  description: 'A time the job should have run and did not.',
});

export const JobUptimeList = z.object({ items: z.array(JobUptime) }).meta({ id: 'JobUptimeList', description: 'Uptimes of a job, newest first.' });
export const JobDowntimeList = z.object({ items: z.array(JobDowntime) }).meta({ id: 'JobDowntimeList', description: 'Downtimes of a job, newest first.' });

export const CsvFile = z.string().describe('A CSV file (RFC 4180) with a header row; times as yyyy-MM-dd HH:mm:ss UTC.');

export const MediaStreamInfo = z
  .object({
    index: z.number().int(),
    id: z.string().nullable().describe('The stream id in its container, e.g. the PID 0x100 in MPEG-TS.'),
    type: z.string().describe('video, audio, subtitle, data ...'),
    codec: z.string().nullable(),
    codecLongName: z.string().nullable(),
    profile: z.string().nullable(),
    width: z.number().nullable(),
    height: z.number().nullable(),
    frameRate: z.number().nullable(),
    pixelFormat: z.string().nullable(),
    fieldOrder: z.string().nullable().describe('progressive, tt, bb, tb, bt.'),
    interlaced: z.boolean().nullable(),
    sampleRate: z.number().nullable(),
    channels: z.number().nullable(),
    channelLayout: z.string().nullable(),
    language: z.string().nullable(),
    bitrate: z.number().nullable().describe('Bits per second.'),
  })
  .meta({ id: 'MediaStreamInfo', description: 'A stream of a source.' });

export const MediaProgramInfo = z
  .object({
    number: z.number().int().describe('The program number (MPEG-TS service id) a job selects.'),
    name: z.string().nullable(),
    provider: z.string().nullable(),
    streams: z.array(MediaStreamInfo),
  })
  .meta({ id: 'MediaProgramInfo', description: 'A program of a multi-program source.' });

export const MediaInfo = z
  .object({
    format: z.object({
      name: z.string().nullable(),
      longName: z.string().nullable(),
      durationSeconds: z.number().nullable(),
      sizeBytes: z.number().nullable(),
      bitrate: z.number().nullable(),
    }),
    programs: z.array(MediaProgramInfo),
    streams: z.array(MediaStreamInfo),
  })
  .meta({ id: 'MediaInfo', description: 'The programs and streams of a source, as ffprobe finds them.' });

export const TraceTable = z
  .object({
    key: z.string().describe('format, programs, streams or keyframes.'),
    columns: z.array(z.string()),
    rows: z.array(z.array(z.string())),
  })
  .meta({ id: 'TraceTable', description: 'One tab of a trace: a table.' });

export const TraceResult = z
  .object({
    input: z.string().describe('The source traced, without its token.'),
    tracedAt: Timestamp,
    traces: z.array(TraceTable),
  })
  .meta({ id: 'TraceResult', description: 'A trace of a job\'s input (spec 01 §2.8): one table per trace key.' });

export const MONITOR_PLAYER_TYPES = ['hls', 'dash', 'mpegts'] as const;

export const MonitorDelivery = z
  .object({
    uuid: z.string().describe('Stable id of the delivery.'),
    uri: z.string().nullable().describe('The output as configured (its stream location).'),
    url: z.string().describe('What the console\'s player loads, on the product\'s own origin.'),
    deliveryType: z.string().describe('LOCAL_STORAGE: served by the product itself.'),
    token: z.string().nullable(),
    type: z.enum(MONITOR_PLAYER_TYPES).describe('The player it needs: hls (hls.js or native), dash, or mpegts (MPEG-TS over HTTP).'),
    srtStat: SrtStats.nullable(),
    outputPosition: z.number().int().describe('The output it comes from.'),
    outputType: z.enum(OUTPUT_TYPES),
  })
  .meta({ id: 'MonitorDelivery', description: 'An output a browser can play (spec 01 §3 monitorDeliveries).' });

export const JobMonitor = z
  .object({
    deliveries: z.array(MonitorDelivery),
    inputs: z.array(z.object({ index: z.number().int().describe('0: the primary input, 1: the failover input.'), srtStat: SrtStats })).describe('SRT statistics of the SRT inputs, while the job runs.'),
    outputs: z.array(z.object({ position: z.number().int(), srtStat: SrtStats })).describe('SRT statistics of the SRT outputs, while the job runs.'),
    state: z.string().nullable().describe('The observed state of the job; null when it never ran.'),
  })
  .meta({ id: 'JobMonitor', description: 'What the Monitor tab shows: the playable outputs and the SRT statistics.' });
