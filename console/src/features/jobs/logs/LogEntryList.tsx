import { formatDateTime } from '../../../components/format.ts';
import { LOADING_TEXT } from '../../../components/list/ListTable.tsx';
import type { LogEntry } from '../../../data/job-insights/queries.ts';
import { EMPTY_LOG_TEXT, entryKey } from './logQuery.ts';

const TONES: Record<LogEntry['level'], string> = {
  TRACE: 'faint',
  DEBUG: 'faint',
  VERBOSE: 'faint',
  INFO: 'info',
  NOTICE: 'info',
  WARNING: 'warning',
  ERROR: 'error',
  FATAL: 'error',
};

/** The lines of a log: timestamp (yyyy-MM-dd HH:mm:ss, local time), level and text. */
export function LogEntryList({ entries, loading, error }: { entries: readonly LogEntry[] | undefined; loading: boolean; error?: string }) {
  let message: string | undefined;
  if (error && !entries) message = error;
  else if (loading && !entries) message = LOADING_TEXT;
  else if (!entries || entries.length === 0) message = EMPTY_LOG_TEXT;
  // Two lines may share their time, level and text: the position tells them apart.
  const seen = new Map<string, number>();
  return (
    <div className="log-entries" role="log" aria-label="Log lines">
      <table className="log-table" aria-label="Log entries">
        <thead className="visually-hidden">
          <tr>
            <th scope="col">Timestamp</th>
            <th scope="col">Level</th>
            <th scope="col">Text</th>
          </tr>
        </thead>
        <tbody>
          {message ? (
            <tr>
              <td colSpan={3} className={`log-message${error && !entries ? ' table-error' : ''}`}>
                {message}
              </td>
            </tr>
          ) : (
            entries?.map((entry) => {
              const base = entryKey(entry);
              const n = (seen.get(base) ?? 0) + 1;
              seen.set(base, n);
              return (
                <tr key={`${base}#${n}`} className={`log-line log-${TONES[entry.level]}`}>
                  <td className="log-time">{formatDateTime(entry.timestamp)}</td>
                  <td className="log-level">
                    <span className={`log-level-badge log-level-${entry.level.toLowerCase()}`}>{entry.level}</span>
                  </td>
                  <td className="log-text">{entry.text}</td>
                </tr>
              );
            })
          )}
        </tbody>
      </table>
    </div>
  );
}
