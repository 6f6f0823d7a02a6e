import type { ReactNode } from 'react';
import { Card } from '../../components/Page.tsx';
import type { JobKind } from '../../data/jobs/keys.ts';
import { downloadUrl, RECORD_COUNTS, useJobDowntimes, useJobEvents, useJobUptimes, type HistoryRange, type HistoryTable } from '../../data/statistics/queries.ts';
import { formatUptime } from '../dashboard/format.ts';

const pad = (n: number) => String(n).padStart(2, '0');

/** Seconds since the epoch as yyyy-MM-dd HH:mm:ss, local time. */
export function formatSeconds(seconds: number | undefined): string {
  if (seconds === undefined) return '--';
  const d = new Date(seconds * 1000);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

interface TableProps {
  kind: JobKind;
  id: number;
  day: string | undefined;
  size: number;
  onSize: (size: number) => void;
}

function HistoryCard({ title, table, kind, id, day, size, onSize, count, fetching, children }: TableProps & { title: string; table: HistoryTable; count: number | undefined; fetching: boolean; children: ReactNode }) {
  const range: HistoryRange = { size, day };
  return (
    <Card
      title={title}
      actions={
        <div className="statistics-table-tools">
          <label>
            Records{' '}
            <select aria-label={`${title} record count`} value={size} onChange={(e) => onSize(Number(e.target.value))}>
              {RECORD_COUNTS.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </label>
          <a href={downloadUrl(kind, id, table, range)} download>
            Download
          </a>
        </div>
      }
    >
      <div className={`table-wrap${fetching ? ' is-fetching' : ''}`}>{children}</div>
      {count === 0 && <div className="empty">No entries</div>}
    </Card>
  );
}

export function EventsTable(props: TableProps) {
  const { data, isFetching } = useJobEvents(props.kind, props.id, { size: props.size, day: props.day });
  return (
    <HistoryCard {...props} title="Events" table="events" count={data?.items.length} fetching={isFetching}>
      <table className="table" aria-label="Events">
        <thead>
          <tr>
            <th>Time</th>
            <th>Type</th>
            <th>Reason</th>
            <th>Actor</th>
          </tr>
        </thead>
        <tbody>
          {data?.items.map((e) => (
            <tr key={e.id} title={e.detail ?? undefined}>
              <td>{formatSeconds(e.time)}</td>
              <td>{e.type}</td>
              <td>{e.reason ?? ''}</td>
              <td>{e.actor ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </HistoryCard>
  );
}

export function UptimesTable(props: TableProps) {
  const { data, isFetching } = useJobUptimes(props.kind, props.id, { size: props.size, day: props.day });
  return (
    <HistoryCard {...props} title="Uptimes" table="uptimes" count={data?.items.length} fetching={isFetching}>
      <table className="table" aria-label="Uptimes">
        <thead>
          <tr>
            <th>From</th>
            <th>Until</th>
            <th>Duration</th>
          </tr>
        </thead>
        <tbody>
          {data?.items.map((u) => (
            <tr key={u.from}>
              <td>{formatSeconds(u.from)}</td>
              <td>{u.until === undefined ? 'now' : formatSeconds(u.until)}</td>
              <td>{formatUptime(u.durationSeconds)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </HistoryCard>
  );
}

export function DowntimesTable(props: TableProps) {
  const { data, isFetching } = useJobDowntimes(props.kind, props.id, { size: props.size, day: props.day });
  return (
    <HistoryCard {...props} title="Downtimes" table="downtimes" count={data?.items.length} fetching={isFetching}>
      <table className="table" aria-label="Downtimes">
        <thead>
          <tr>
            <th>From</th>
            <th>Until</th>
            <th>Duration</th>
            <th>Reason</th>
          </tr>
        </thead>
        <tbody>
          {data?.items.map((d) => (
            <tr key={d.from}>
              <td>{formatSeconds(d.from)}</td>
              <td>{d.until === undefined ? 'now' : formatSeconds(d.until)}</td>
              <td>{formatUptime(d.durationSeconds)}</td>
              <td>{d.reason ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </HistoryCard>
  );
}
