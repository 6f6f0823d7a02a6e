import { defineOperation, type OperationDef } from '../operation.ts';
import { jobPermissions } from '../permissions.ts';
import { ErrorBody, IdParams } from '../schemas/common.ts';
import {
  BatchResultPage,
  BatchResultsQuery,
  CsvFile,
  JobDowntimeList,
  JobHistoryEventList,
  JobHistoryQuery,
  JobLogsFollowQuery,
  JobLogsQuery,
  JobMonitor,
  JobUptimeList,
  LogEntries,
  LogEntry,
  MediaInfo,
  TraceResult,
} from '../schemas/job-insights.ts';
import { Input, type JOB_KINDS } from '../schemas/jobs.ts';

type Kind = (typeof JOB_KINDS)[number];

const KIND_NAMES = { relay: 'Relay', encoding: 'Encoding' } as const;

const MEDIA_INFO_FAILED = 'Media info detection failed. Please make sure the source is available. `details` may carry the cause.';

/**
 * What an operator reads about one relay or encoding: its log (and a live follow), its batch
 * results, its history with the CSV downloads of spec 03 §7, the media info and trace of its input,
 * and its monitor. One factory makes the same operations for each kind, under /api/{kind}s.
 */
export function jobInsightOperationsFor<K extends Kind>(kind: K) {
  const Kind = KIND_NAMES[kind];
  const base = `/api/${kind}s` as const;
  const tag = `${kind}s`;
  const permissions = jobPermissions(kind);
  const history = { anyOf: [...permissions.view.anyOf, 'STATISTICS_VIEW'] } as const;
  const notFound = { description: `No ${kind} with that id.`, schema: ErrorBody };
  const csv = (what: 'Events' | 'Uptimes' | 'Downtimes') =>
    defineOperation({
      operationId: `download${Kind}${what}`,
      method: 'get',
      path: `${base}/{id}/${what.toLowerCase()}/download`,
      tag,
      summary: `Download the ${what.toLowerCase()} of a ${kind} as a CSV file`,
      description: `The same records as GET ${base}/{id}/${what.toLowerCase()} (size, from, to), newest first, as an attachment with a header row.`,
      permission: history,
      params: IdParams,
      query: JobHistoryQuery,
      responses: { 200: { description: 'The CSV file.', contentType: 'text/csv', schema: CsvFile }, 404: notFound },
    });

  return {
    getLogs: defineOperation({
      operationId: `get${Kind}Logs`,
      method: 'get',
      path: `${base}/{id}/logs`,
      tag,
      summary: `The last lines of a ${kind}'s log, filtered`,
      description:
        'Reads the job\'s log file backwards from its end (and on into its rotated files), never the whole file: the last `lines` lines at or above `level` whose text contains `text` (or matches it as a regular expression), inside `from`–`to`. A job that never ran has no log: an empty list. An invalid regular expression is a 400 naming query.text.',
      permission: permissions.log,
      params: IdParams,
      query: JobLogsQuery,
      responses: { 200: { description: 'The lines.', schema: LogEntries }, 400: { description: 'A filter breaks a rule, e.g. a regular expression that does not compile.', schema: ErrorBody }, 404: notFound },
    }),
    followLogs: defineOperation({
      operationId: `follow${Kind}Logs`,
      method: 'get',
      path: `${base}/{id}/logs/follow`,
      tag,
      summary: `Follow a ${kind}'s log as Server-Sent Events`,
      description:
        'Each new line that passes the filters is one event `event: log` whose `data` is a LogEntry; `backlog` sends that many matching lines already in the log first. A comment line `: following` says the follow has started, and a comment every 15 s keeps proxies from closing the stream. The stream follows the log across rotations and ends when the client goes, or when the caller loses the permission.',
      permission: permissions.log,
      params: IdParams,
      query: JobLogsFollowQuery,
      responses: {
        200: { description: 'An event stream; each event\'s data is a LogEntry.', contentType: 'text/event-stream', schema: LogEntry },
        400: { description: 'A filter breaks a rule, e.g. a regular expression that does not compile.', schema: ErrorBody },
        404: notFound,
      },
    }),
    listBatchResults: defineOperation({
      operationId: `list${Kind}BatchResults`,
      method: 'get',
      path: `${base}/{id}/batch-results`,
      tag,
      summary: `The batch results of a ${kind}: one row per source file`,
      permission: permissions.log,
      params: IdParams,
      query: BatchResultsQuery,
      responses: { 200: { description: 'A page of results.', schema: BatchResultPage }, 404: notFound },
    }),
    listEvents: defineOperation({
      operationId: `list${Kind}Events`,
      method: 'get',
      path: `${base}/{id}/events`,
      tag,
      summary: `The events of a ${kind} (start, stop, restart, up, exit, failover, failure), newest first`,
      permission: history,
      params: IdParams,
      query: JobHistoryQuery,
      responses: { 200: { description: 'The events.', schema: JobHistoryEventList }, 404: notFound },
    }),
    listUptimes: defineOperation({
      operationId: `list${Kind}Uptimes`,
      method: 'get',
      path: `${base}/{id}/uptimes`,
      tag,
      summary: `The uptimes of a ${kind}, derived from its events, newest first`,
      description: 'An interval that overlaps from–to is listed whole; an open one has no until.',
      permission: history,
      params: IdParams,
      query: JobHistoryQuery,
      responses: { 200: { description: 'The uptimes.', schema: JobUptimeList }, 404: notFound },
    }),
    listDowntimes: defineOperation({
      operationId: `list${Kind}Downtimes`,
      method: 'get',
      path: `${base}/{id}/downtimes`,
      tag,
      summary: `The downtimes of a ${kind}, derived from its events, newest first`,
      description: 'A downtime is a time the job was switched on and did not deliver (an exit or a failure until the next up). An interval that overlaps from–to is listed whole; an open one has no until.',
      permission: history,
      params: IdParams,
      query: JobHistoryQuery,
      responses: { 200: { description: 'The downtimes.', schema: JobDowntimeList }, 404: notFound },
    }),
    downloadEvents: csv('Events'),
    downloadUptimes: csv('Uptimes'),
    downloadDowntimes: csv('Downtimes'),
    detectMediaInfo: defineOperation({
      operationId: `detect${Kind}MediaInfo`,
      method: 'post',
      path: `${base}/media-info`,
      tag,
      summary: 'Detect the programs and streams of an input before saving it (the media source check)',
      description: 'Probes a uri input with ffprobe, bounded in time. Other input types are a 400 naming input.type.',
      permission: permissions.edit,
      body: Input,
      responses: {
        200: { description: 'What the source carries.', schema: MediaInfo },
        400: { description: 'The input breaks a rule, or is not a uri input.', schema: ErrorBody },
        422: { description: MEDIA_INFO_FAILED, schema: ErrorBody },
        429: { description: 'Too many probes are running; try again in a moment.', schema: ErrorBody },
      },
    }),
    getMediaInfo: defineOperation({
      operationId: `get${Kind}MediaInfo`,
      method: 'get',
      path: `${base}/{id}/media-info`,
      tag,
      summary: `Detect the programs and streams of a stored ${kind}'s input`,
      permission: permissions.view,
      params: IdParams,
      responses: {
        200: { description: 'What the source carries.', schema: MediaInfo },
        400: { description: 'The job\'s input is not a uri input.', schema: ErrorBody },
        404: notFound,
        422: { description: MEDIA_INFO_FAILED, schema: ErrorBody },
        429: { description: 'Too many probes are running; try again in a moment.', schema: ErrorBody },
      },
    }),
    trace: defineOperation({
      operationId: `trace${Kind}`,
      method: 'post',
      path: `${base}/{id}/trace`,
      tag,
      summary: `Trace a ${kind}'s input: format, programs, streams and the first keyframes`,
      description: 'Probes the stored input (bounded reads, bounded in time) and answers one table per trace key: format, programs, streams, and keyframes (the time of each of the first keyframes of the first video stream, the interval and the GOP length in frames).',
      permission: permissions.view,
      params: IdParams,
      responses: {
        200: { description: 'The trace.', schema: TraceResult },
        400: { description: 'The job\'s input is not a uri input.', schema: ErrorBody },
        404: notFound,
        422: { description: MEDIA_INFO_FAILED, schema: ErrorBody },
        429: { description: 'Too many probes are running; try again in a moment.', schema: ErrorBody },
      },
    }),
    getMonitor: defineOperation({
      operationId: `get${Kind}Monitor`,
      method: 'get',
      path: `${base}/{id}/monitor`,
      tag,
      summary: `The monitor of a ${kind}: its playable outputs and SRT statistics`,
      description: 'For each enabled HLS, DASH or CMAF output the playlist or manifest under /streams/, for an HTTP MPEG-TS output its stream; and the SRT statistics of the SRT inputs and outputs while the job runs.',
      permission: permissions.view,
      params: IdParams,
      responses: { 200: { description: 'The monitor.', schema: JobMonitor }, 404: notFound },
    }),
  };
}

export const jobInsightOperationsByKind = {
  relay: jobInsightOperationsFor('relay'),
  encoding: jobInsightOperationsFor('encoding'),
};

/** Every operation of the area, keyed by operationId. */
export const jobInsightOperations: Record<string, OperationDef> = Object.fromEntries(
  Object.values(jobInsightOperationsByKind).flatMap((ops) => Object.values(ops).map((op) => [op.operationId, op])),
);
