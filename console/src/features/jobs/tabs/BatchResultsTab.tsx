import { useState } from 'react';
import { formatDateTime } from '../../../components/format.ts';
import { LOADING_TEXT } from '../../../components/list/ListTable.tsx';
import { ItemsPerPage, Paginator } from '../../../components/list/Paginator.tsx';
import { useGranted } from '../../../data/auth/queries.ts';
import { messageOf } from '../../../data/client.ts';
import type { JobKind } from '../../../data/jobs/keys.ts';
import type { Job } from '../../../data/jobs/queries.ts';
import { useJobInsightLive } from '../../../data/job-insights/live.ts';
import { useBatchResults, type BatchResult } from '../../../data/job-insights/queries.ts';
import '../../../styles/job-insights.css';
import { NONE, formatBitrate, formatBytes, formatDuration } from '../jobLabels.ts';
import { insightTabs } from '../logs/insightTabs.ts';

export const EMPTY_BATCH_TEXT = 'No batch results';

const orNone = <T,>(value: T | null | undefined, format: (value: T) => string) => (value === null || value === undefined ? NONE : format(value));

const COLUMNS: readonly { key: string; header: string; cell: (row: BatchResult) => React.ReactNode; className?: string }[] = [
  { key: 'startTime', header: 'Start Time', className: 'cell-mono', cell: (r) => formatDateTime(r.startTime) },
  { key: 'endTime', header: 'End Time', className: 'cell-mono', cell: (r) => formatDateTime(r.endTime) },
  { key: 'sourceFile', header: 'Source File', className: 'batch-file', cell: (r) => <span title={r.sourceFile}>{r.sourceFile}</span> },
  {
    key: 'outputFiles',
    header: 'Output File(s)',
    className: 'batch-file',
    cell: (r) =>
      r.outputFiles.length === 0 ? (
        NONE
      ) : (
        <ul className="batch-outputs">
          {r.outputFiles.map((file) => (
            <li key={file} title={file}>
              {file}
            </li>
          ))}
        </ul>
      ),
  },
  {
    key: 'status',
    header: 'Status',
    cell: (r) => {
      const status = r.status ?? 'NONE';
      return <span className={`batch-status batch-status-${status.toLowerCase()}`}>{status}</span>;
    },
  },
  { key: 'elapsed', header: 'Elapsed Time', cell: (r) => formatDuration(r.elapsedTimeInSeconds) },
  { key: 'duration', header: 'Source File Duration', cell: (r) => formatDuration(r.sourceFileDurationInSeconds) },
  { key: 'size', header: 'Source File Size', cell: (r) => orNone(r.sourceFileSizeInBytes, formatBytes) },
  { key: 'speed', header: 'Transcoding Speed', cell: (r) => orNone(r.transcodingSpeedInBitsPerSecond, formatBitrate) },
  { key: 'ratio', header: 'Speed To Play Speed Ratio', cell: (r) => orNone(r.transcodingSpeedToPlaySpeedRatio, (v) => `${v.toFixed(2)}x`) },
  { key: 'jobName', header: 'Job Name', cell: (r) => r.jobName },
];

/** The batch results of a job (spec 01 §2.9, §3 Batch log entry): one row per source file, the latest first. */
export function BatchResultsView({ kind, id }: { kind: JobKind; id: number }) {
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(25);
  useJobInsightLive(kind, id, 'batch-results');
  const results = useBatchResults(kind, id, { page, size, order: 'desc' });
  const rows = results.data?.items;
  let message: string | undefined;
  if (results.error && !rows) message = messageOf(results.error);
  else if (results.isPending) message = LOADING_TEXT;
  else if (!rows?.length) message = EMPTY_BATCH_TEXT;
  return (
    <section className="list-table batch-results" aria-label="Batch results">
      <div className={`table-wrap${results.isFetching && rows ? ' is-fetching' : ''}`}>
        <table className="table" aria-label="Batch results" aria-busy={results.isFetching || undefined}>
          <thead>
            <tr>
              {COLUMNS.map((column) => (
                <th key={column.key} scope="col">
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {message ? (
              <tr>
                <td colSpan={COLUMNS.length} className={`table-message${results.error && !rows ? ' table-error' : ''}`}>
                  {message}
                </td>
              </tr>
            ) : (
              rows?.map((row) => (
                <tr key={row.id}>
                  {COLUMNS.map((column) => (
                    <td key={column.key} className={column.className}>
                      {column.cell(row)}
                    </td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      <div className="list-footer">
        <div className="list-counts">
          <span className="count">
            Total: <strong>{results.data?.total ?? '–'}</strong>
          </span>
        </div>
        <div className="list-paging">
          <ItemsPerPage
            size={size}
            onChange={(next) => {
              setSize(next);
              setPage(1);
            }}
          />
          <Paginator page={page} size={size} total={results.data?.total ?? 0} onPage={setPage} />
        </div>
      </div>
    </section>
  );
}

/** The Batch Results tab of a saved batch job. */
export function BatchResultsTab({ kind, job }: { kind: JobKind; job: Job }) {
  const granted = useGranted();
  if (!insightTabs(kind, job, granted).batchResults) return null;
  return <BatchResultsView kind={kind} id={job.id} />;
}

export default BatchResultsTab;
