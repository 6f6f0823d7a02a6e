import { useConfirm } from '../../components/dialogs.tsx';
import { ListTable } from '../../components/list/ListTable.tsx';
import { useListState } from '../../components/list/useListState.ts';
import { PageHeader } from '../../components/Page.tsx';
import { useToast } from '../../components/toasts.tsx';
import { messageOf } from '../../data/client.ts';
import { useCan } from '../../data/auth/queries.ts';
import { useDeleteSentAlarms } from '../../data/alarms/mutations.ts';
import { useSentAlarms } from '../../data/alarms/queries.ts';
import { usePageTitle } from '../../shell/breadcrumbs.tsx';
import { AlarmsNav } from './AlarmsNav.tsx';
import { NO_ALARMS_SENT, NO_ENTRIES_FOR_PAGE, sentAlarmColumns } from './sentAlarmColumns.tsx';
import '../../styles/alarms.css';

const columns = sentAlarmColumns({ withJob: true });

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
          emptyText={total === 0 ? NO_ALARMS_SENT : NO_ENTRIES_FOR_PAGE}
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
