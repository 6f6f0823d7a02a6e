import path from 'node:path';
import { followLog, readLogLines } from '../../engine/logs/log-reader.ts';
import { compileLogQuery, LogQueryError, type LogQuery } from '../../engine/logs/log-query.ts';
import type { LogLine } from '../../engine/types.ts';
import type { JobLogsFollowQueryValue, JobLogsQueryValue } from '../../openapi/schemas/job-insights.ts';
import { ValidationError } from '../errors.ts';
import { requireJob, type JobHistoryRepository, type JobKindName } from '../repositories/job-history.repository.ts';

export interface LogEntryDto {
  timestamp: string;
  level: LogLine['level'];
  text: string;
}

/** A follow that has passed its checks (the job exists, the filters compile): `run` streams it. */
export interface PreparedFollow {
  /** Resolves when `signal` aborts; rejects when `onEntry` throws. */
  run(onEntry: (entry: LogEntryDto) => void, signal: AbortSignal, onReady: () => void): Promise<void>;
}

const toEntry = (line: LogLine): LogEntryDto => ({ timestamp: new Date(line.time).toISOString(), level: line.level, text: line.text });

/**
 * The Logs tab (spec 01 §2.9): the last N lines of a job's log and a live follow, filtered by
 * level, text or regular expression, case and time range. The log is the file the node writes,
 * `<logsDir>/<kind>-<id>.log` (and its rotated files); a job that never ran has none.
 */
export class JobLogsService {
  constructor(
    private readonly jobs: JobHistoryRepository,
    private readonly logsDir: string,
  ) {}

  logFile(kind: JobKindName, id: number): string {
    return path.join(this.logsDir, `${kind}-${id}.log`);
  }

  async read(kind: JobKindName, id: number, query: JobLogsQueryValue): Promise<{ entries: LogEntryDto[]; truncatedScan: boolean }> {
    await requireJob(this.jobs, kind, id);
    const logQuery = checked({ ...filtersOf(query), lines: query.lines, direction: query.direction });
    const result = await readLogLines(this.logFile(kind, id), logQuery);
    return { entries: result.lines.map(toEntry), truncatedScan: result.truncatedScan };
  }

  /** Checks everything a follow needs before the stream opens, so a mistake is still an ordinary error response. */
  async prepareFollow(kind: JobKindName, id: number, query: JobLogsFollowQueryValue): Promise<PreparedFollow> {
    await requireJob(this.jobs, kind, id);
    const logQuery = checked({ ...filtersOf(query), lines: 1, direction: 'forward' });
    const file = this.logFile(kind, id);
    return {
      run: (onEntry, signal, onReady) => followLog(file, logQuery, (line) => onEntry(toEntry(line)), signal, { backlog: query.backlog, onReady }),
    };
  }
}

function filtersOf(query: JobLogsFollowQueryValue | JobLogsQueryValue): Omit<LogQuery, 'lines' | 'direction'> {
  return { level: query.level, text: query.text, regex: query.regex, caseSensitive: query.caseSensitive, from: query.from, to: query.to };
}

/** The reader's own check, turned into a 400 that names the field (query.text for a regular expression). */
function checked(query: LogQuery): LogQuery {
  try {
    compileLogQuery(query);
  } catch (error) {
    if (!(error instanceof LogQueryError)) throw error;
    const field = /regular expression/i.test(error.message) ? 'query.text' : 'query';
    throw ValidationError.field(field, error.message);
  }
  return query;
}
