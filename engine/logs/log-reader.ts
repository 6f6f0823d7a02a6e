import { compileLogQuery, compileRawPrefilter, type LogQuery } from './log-query.ts';
import { scanBackward, type LogReadOptions, type LogReadResult } from './log-scan.ts';

export { followLog, type FollowLogOptions } from './log-follow.ts';
export { DEFAULT_SCAN_BUDGET_BYTES, type LogReadOptions, type LogReadResult } from './log-scan.ts';

/**
 * The last `query.lines` entries of a job log that match the query, newest first ('backward') or
 * oldest first ('forward'). The file is read in fixed-size blocks from its end, and on into
 * `<file>.1`, `<file>.2` ... when it has too few matching lines; never the whole file unless the
 * query needs it. With `to`, each file is bisected by time first; with `from`, reading stops at the
 * first older entry. A filtered query stops at the scan budget and reports `truncatedScan`.
 * Throws LogQueryError for an invalid query (e.g. a regular expression that does not compile).
 */
export async function readLogLines(file: string, query: LogQuery, options: LogReadOptions = {}): Promise<LogReadResult> {
  const matcher = compileLogQuery(query);
  const result = await scanBackward(file, query, matcher, { ...options, prefilter: compileRawPrefilter(query) });
  if (query.direction === 'forward') result.lines.reverse();
  return result;
}

