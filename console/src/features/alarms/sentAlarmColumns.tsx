import { formatDateTime } from '../../components/format.ts';
import type { Column } from '../../components/list/ListTable.tsx';
import type { SentAlarm } from '../../data/alarms/queries.ts';

const STATUS_TONE: Record<string, string> = { SENT: 'badge-success', QUEUED: 'badge-warning', FAILED: 'badge-danger' };

/** Spec 03 Alarms: the empty texts of an alarm history, with none at all and past the last page. */
export const NO_ALARMS_SENT = 'No alarms sent';
export const NO_ENTRIES_FOR_PAGE = 'No entries for the page';

/** The e-mails and SMS of an alarm, each with its state. */
function Deliveries({ alarm }: { alarm: SentAlarm }) {
  if (alarm.deliveries.length === 0) return <span className="muted">no recipients</span>;
  return (
    <ul className="alarm-deliveries">
      {alarm.deliveries.map((d) => (
        <li key={d.id} title={d.lastError ?? undefined}>
          <span className="alarm-channel">{d.channel === 'EMAIL' ? 'E-mail' : 'SMS'}</span> {d.recipient}{' '}
          <span className={`badge ${STATUS_TONE[d.status] ?? ''}`}>{d.status}</span>
          {d.status !== 'SENT' && d.attempts > 0 && <span className="muted"> ({d.attempts} attempts)</span>}
        </li>
      ))}
    </ul>
  );
}

/**
 * The columns of an alarm history (spec 03 §3 Sent alarm): time (yyyy-MM-dd HH:mm:ss, sortable by
 * date), type, the job or resource (left out where the history is one job's), alarm, cause,
 * deliveries and their count.
 */
export function sentAlarmColumns({ withJob }: { withJob: boolean }): Column<SentAlarm>[] {
  const columns: (Column<SentAlarm> | false)[] = [
    { key: 'time', header: 'Time', width: '170px', sortKey: 'time', className: 'cell-mono', cell: (a) => formatDateTime(a.time) },
    { key: 'type', header: 'Type', width: '90px', cell: (a) => a.type },
    withJob && { key: 'job', header: 'Job / Resource', cell: (a) => (a.jobId ? <span>{a.jobName} <span className="muted">(id:{a.jobId}, {a.jobType})</span></span> : (a.resource ?? '--')) },
    { key: 'alarm', header: 'Alarm', cell: (a) => <strong>{a.alarm}</strong> },
    { key: 'cause', header: 'Cause', cell: (a) => <span className="alarm-cause" title={a.cause ?? ''}>{a.cause ?? '--'}</span> },
    { key: 'deliveries', header: 'Deliveries', cell: (a) => <Deliveries alarm={a} /> },
    { key: 'count', header: 'Count', width: '70px', align: 'right', cell: (a) => a.count },
  ];
  return columns.filter((c): c is Column<SentAlarm> => Boolean(c));
}
