import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { ApiError, messageOf } from '../../../data/client.ts';
import type { JobKind } from '../../../data/jobs/keys.ts';
import { useJobLogs, type LogEntry } from '../../../data/job-insights/queries.ts';
import '../../../styles/job-insights.css';
import { LogControls } from './LogControls.tsx';
import { LogEntryList } from './LogEntryList.tsx';
import { LogFilters } from './LogFilters.tsx';
import { DEFAULT_LOG_VIEW, activeFilterCount, entryKey, followQueryOf, logsQueryOf, mergeFollowed, type LogView } from './logQuery.ts';
import { useLogFollow } from './useLogFollow.ts';

/** Followed lines kept beyond what is shown: enough for a reconnect's backlog to be recognised. */
const FOLLOW_KEEP_EXTRA = 100;

/** The message of a failed read that concerns the filter text (query.text), else undefined. */
function textErrorOf(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || error.status !== 400) return undefined;
  return error.details?.find((d) => d.path === 'query.text')?.message;
}

/**
 * A job's log, shared by the Logs page and the Logs tab (spec 01 §2.9): the last lines with the
 * controls and the filters, and a live follow that adds new lines as the job writes them.
 */
export function LogViewer({ kind, id }: { kind: JobKind; id: number }) {
  const filtersId = useId();
  const [view, setView] = useState<LogView>(DEFAULT_LOG_VIEW);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [follow, setFollow] = useState(true);
  const [followed, setFollowed] = useState<LogEntry[]>([]);

  const query = useMemo(() => logsQueryOf(view), [view]);
  const followQuery = useMemo(() => followQueryOf(view), [view]);
  const logs = useJobLogs(kind, id, query);
  const current = logs.isSuccess && !logs.isPlaceholderData;

  // A new read replaces what the follow added.
  const readAt = logs.dataUpdatedAt;
  useEffect(() => setFollowed([]), [readAt]);

  const onLines = useCallback(
    (lines: LogEntry[]) =>
      setFollowed((before) => {
        const known = new Set(before.map(entryKey));
        const fresh = lines.filter((line) => !known.has(entryKey(line)));
        return fresh.length ? [...before, ...fresh].slice(-(view.lines + FOLLOW_KEEP_EXTRA)) : before;
      }),
    [view.lines],
  );
  const followState = useLogFollow(kind, id, followQuery, follow && current, onLines);

  const entries = useMemo(() => (logs.data ? mergeFollowed(logs.data.entries, followed, view) : undefined), [logs.data, followed, view]);
  const textError = textErrorOf(logs.error);
  const error = logs.error ? (textError ?? messageOf(logs.error)) : undefined;
  const change = (next: Partial<LogView>) => setView((before) => ({ ...before, ...next }));

  return (
    <section className="log-viewer" aria-label="Log">
      <LogControls
        view={view}
        onChange={change}
        filtersOpen={filtersOpen}
        onToggleFilters={() => setFiltersOpen((open) => !open)}
        filterCount={activeFilterCount(view)}
        filtersId={filtersId}
        follow={follow}
        onFollow={setFollow}
        followState={followState}
        onRefresh={() => void logs.refetch()}
        refreshing={logs.isFetching}
      />
      {filtersOpen && <LogFilters id={filtersId} view={view} onChange={change} textError={textError} />}
      {error && logs.data && (
        <div className="log-alert" role="alert">
          {error}
        </div>
      )}
      {logs.data?.truncatedScan && current && <p className="log-note muted">The search stopped before the start of the log: older matching lines may exist.</p>}
      <LogEntryList entries={logs.error && !logs.isPlaceholderData ? undefined : entries} loading={logs.isPending} error={error} />
    </section>
  );
}
