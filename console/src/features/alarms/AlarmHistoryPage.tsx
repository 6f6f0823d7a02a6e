import { useConfirm } from '../../components/dialogs.tsx';
import { formatDateTime } from '../../components/format.ts';
import { ListTable, type Column } from '../../components/list/ListTable.tsx';
import { useListState } from '../../components/list/useListState.ts';
import { PageHeader } from '../../components/Page.tsx';
import { useToast } from '../../components/toasts.tsx';
import { messageOf } from '../../data/client.ts';
import { useCan } from '../../data/auth/queries.ts';
import { useDeleteSentAlarms } from '../../data/alarms/mutations.ts';
import { useSentAlarms, type SentAlarm } from '../../data/alarms/queries.ts';
import { usePageTitle } from '../../shell/breadcrumbs.tsx';
import { AlarmsNav } from './AlarmsNav.tsx';
import '../../styles/alarms.css';

const STATUS_TONE: Record<string, string> = { SENT: 'badge-success', QUEUED: 'badge-warning', FAILED: 'badge-danger' };

const columns: Column<SentAlarm>[] = [
  { key: 'time', header: 'Time', width: '170px', sortKey: 'time', className: 'cell-mono', cell: (a) => formatDateTime(a.time) },
  { key: 'type', header: 'Type', width: '90px', cell: (a) => a.type },
  { key: 'job', header: 'Job / Resource', cell: (a) => (a.jobId ? <span>{a.jobName} <span className="muted">(id:{a.jobId}, {a.jobType})</span></span> : (a.resource ?? '--')) },
  { key: 'alarm', header: 'Alarm', cell: (a) => <strong>{a.alarm}</strong> },
  { key: 'cause', header: 'Cause', cell: (a) => <span className="alarm-cause" title={a.cause ?? ''}>{a.cause ?? '--'}</span> },
  {
    key: 'deliveries',
    header: 'Deliveries',
    cell: (a) =>
      a.deliveries.length === 0 ? (
        <span className="muted">no recipients</span>
      ) : (
        <ul className="alarm-deliveries">
          {a.deliveries.map((d) => (
            <li key={d.id} title={d.lastError ?? undefined}>
              <span className="alarm-channel">{d.channel === 'EMAIL' ? 'E-mail' : 'SMS'}</span> {d.recipient}{' '}
              <span className={`badge ${STATUS_TONE[d.status] ?? ''}`}>{d.status}</span>
              {d.status !== 'SENT' && d.attempts > 0 && <span className="muted"> ({d.attempts} attempts)</span>}
            </li>
          ))}
        </ul>
      ),
  },
  { key: 'count', header: 'Count', width: '70px', align: 'right', cell: (a) => a.count },
];

/** /my/alarms/history (Sent Alarms): newest first by default; sortable by date. */
export default function AlarmHistoryPage() {
  usePageTitle('Sent Alarms');
  const list = useListState({ defaultSort: 'time', defaultOrder: 'desc' });
  const history = useSentAlarms({ page: list.page, size: list.size, order: list.order });
  const canEdit = useCan('ALARMS_EDIT');
  const remove = useDeleteSentAlarms();
  const confirm = useConfirm();
  const toast = useToast();
  const total = history.data?.total ?? 0;
  return (
    <div className="page">
      <PageHeader title="Sent Alarms" subtitle="Every alarm raised, with its e-mails and SMS. Queued ones are retried until the server takes them." />
      <AlarmsNav />
      <div className="alarm-history-panel">
        <ListTable
          label="Sent alarms"
          list={list}
          columns={columns}
          rows={history.data?.items}
          total={history.data?.total}
          rowKey={(a) => a.id}
          loading={history.isPending}
          fetching={history.isFetching}
          error={history.error}
          emptyText={total === 0 ? 'No alarms sent' : 'No entries for the page'}
          actions={
            canEdit && total > 0 ? (
              <button
                type="button"
                className="button button-danger"
                disabled={remove.isPending}
                onClick={async () => {
                  if (!(await confirm({ title: 'Delete history', message: 'Delete all sent alarms?', confirmLabel: 'Delete' }))) return;
                  remove.mutate(undefined, { onSuccess: () => toast.success('Alarm history deleted.'), onError: (e) => toast.error(messageOf(e)) });
                }}
              >
                Delete history
              </button>
            ) : undefined
          }
          footer={<span className="count">Total: <strong>{history.data?.total ?? '–'}</strong></span>}
        />
      </div>
    </div>
  );
}
