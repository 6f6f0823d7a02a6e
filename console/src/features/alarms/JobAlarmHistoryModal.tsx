import { Modal } from '../../components/Modal.tsx';
import { ListTable } from '../../components/list/ListTable.tsx';
import { useLocalListState } from '../../components/list/useListState.ts';
import { useSentAlarms } from '../../data/alarms/queries.ts';
import { NO_ALARMS_SENT, NO_ENTRIES_FOR_PAGE, sentAlarmColumns } from './sentAlarmColumns.tsx';
import '../../styles/alarms.css';

const columns = sentAlarmColumns({ withJob: false });

export interface JobAlarmHistoryModalProps {
  job: { id: number; name: string; kind: string };
  onClose: () => void;
}

/**
 * The alarm history of one job (spec 03 Alarms: the alarm history modal): its sent alarms with
 * their deliveries, newest first and sortable by date, with a per-page selector and a paginator,
 * in a panel at most 800 px high. Opened from the job's row menu and from its alarm card.
 */
export function JobAlarmHistoryModal({ job, onClose }: JobAlarmHistoryModalProps) {
  const list = useLocalListState({ defaultSort: 'time', defaultOrder: 'desc', defaultSize: 10 });
  const history = useSentAlarms({ page: list.page, size: list.size, order: list.order, jobId: job.id });
  const total = history.data?.total ?? 0;
  return (
    <Modal
      title={`Alarm history: ${job.name} (id:${job.id})`}
      size="large"
      onClose={onClose}
      footer={
        <button type="button" className="button button-secondary" onClick={onClose}>
          Close
        </button>
      }
    >
      <div className="alarm-history-panel">
        <ListTable
          label={`Alarm history of ${job.kind} ${job.name}`}
          list={list}
          columns={columns}
          rows={history.data?.items}
          total={history.data?.total}
          rowKey={(a) => a.id}
          loading={history.isPending}
          fetching={history.isFetching}
          error={history.error}
          emptyText={total === 0 ? NO_ALARMS_SENT : NO_ENTRIES_FOR_PAGE}
          clearAll={false}
          footer={<span className="count">Total: <strong>{history.data?.total ?? '–'}</strong></span>}
        />
      </div>
    </Modal>
  );
}
