import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useConfirmDelete, useErrorAlert } from '../../components/dialogs.tsx';
import { Icon } from '../../components/icons.tsx';
import { PageHeader } from '../../components/Page.tsx';
import { ConfirmSwitch } from '../../components/Switch.tsx';
import { useToast } from '../../components/toasts.tsx';
import { useCan } from '../../data/auth/queries.ts';
import { messageOf } from '../../data/client.ts';
import { useLiveUpdates } from '../../data/live.ts';
import { useDeleteTimer, useSetTimerActived } from '../../data/timers/mutations.ts';
import { useTimers, type Timer } from '../../data/timers/queries.ts';
import { usePageTitle } from '../../shell/breadcrumbs.tsx';
import { clockText, localTimeOf, scheduleText } from './timerFormModel.ts';
import { useHour12 } from './useHour12.ts';

const LIVE_TOPICS = ['timers'];

/** The Tasks column: a badge with the number of tasks, or ALL; hovering (or focusing) it lists them. */
function TasksBadge({ timer }: { timer: Timer }) {
  const [at, setAt] = useState<{ top: number; left: number } | null>(null);
  if (timer.allJobs) {
    return (
      <span className="badge badge-primary" title={`All ${timer.taskType.name.toLowerCase()}s`}>
        ALL
      </span>
    );
  }
  const names = timer.jobs.map((job) => `${job.name} (${job.id})`);
  const show = (event: { currentTarget: HTMLElement }) => {
    const box = event.currentTarget.getBoundingClientRect();
    setAt({ top: box.bottom + 4, left: box.left + box.width / 2 });
  };
  return (
    <span
      className="badge timer-tasks"
      aria-label={`${timer.jobs.length} tasks: ${names.join(', ') || 'none left'}`}
      tabIndex={0}
      onMouseEnter={show}
      onFocus={show}
      onMouseLeave={() => setAt(null)}
      onBlur={() => setAt(null)}
    >
      {timer.jobs.length}
      {at && names.length > 0 && (
        <span className="timer-tasks-list" role="tooltip" style={{ top: at.top, left: at.left }}>
          {names.map((name) => (
            <span key={name}>{name}</span>
          ))}
        </span>
      )}
    </span>
  );
}

/** /my/tools/timers: every timer, sorted by id; enable, disable and delete with confirmation. */
export default function TimersPage() {
  usePageTitle('Timers');
  const canEdit = useCan('TOOLS_EDIT');
  const [hour12, setHour12] = useHour12();
  const timers = useTimers();
  useLiveUpdates(LIVE_TOPICS);
  const setActived = useSetTimerActived();
  const remove = useDeleteTimer();
  const confirmDelete = useConfirmDelete();
  const showError = useErrorAlert();
  const toast = useToast();

  async function deleteTimer(timer: Timer) {
    if (!(await confirmDelete(`Delete timer ${timer.name}?`))) return;
    try {
      await remove.mutateAsync(timer.id);
      toast.success(`Timer ${timer.name} deleted.`);
    } catch (error) {
      await showError(messageOf(error));
    }
  }

  const items = timers.data?.items;
  return (
    <div className="page">
      <PageHeader
        title="Timers"
        subtitle={timers.data ? `Times are the server's: ${timers.data.timeZone} (${timers.data.utcOffset}).` : undefined}
        actions={
          <>
            <label className="check-label timer-hour12">
              <input type="checkbox" checked={hour12} onChange={(e) => setHour12(e.target.checked)} />
              12-hour clock
            </label>
            {canEdit && (
              <Link to="/my/tools/timers/edit" className="button">
                <Icon name="plus" />
                Add New
              </Link>
            )}
          </>
        }
      />
      <section className="list-table">
        {timers.isPending ? (
          <div className="timers-loading" role="status">
            <span className="spinner" aria-hidden="true" />
            Loading ...
          </div>
        ) : (
          <div className="table-wrap">
            <table className="table" aria-label="Timers" aria-busy={timers.isFetching || undefined}>
              <thead>
                <tr>
                  <th scope="col" className="align-right" style={{ width: '56px' }}>ID</th>
                  <th scope="col">Name</th>
                  <th scope="col">Action</th>
                  <th scope="col">Timer Type</th>
                  <th scope="col">Time</th>
                  <th scope="col">Tasks Type</th>
                  <th scope="col" className="align-center">Tasks</th>
                  <th scope="col" className="align-right" style={{ width: '150px' }}>Controls</th>
                </tr>
              </thead>
              <tbody>
                {timers.isError && (
                  <tr>
                    <td colSpan={8} className="table-message table-error" role="alert">
                      {messageOf(timers.error)}
                    </td>
                  </tr>
                )}
                {items?.length === 0 && (
                  <tr>
                    <td colSpan={8} className="table-message">
                      No timers
                    </td>
                  </tr>
                )}
                {items?.map((timer) => (
                  <tr key={timer.id} className={timer.actived ? undefined : 'is-muted'}>
                    <td className="align-right">{timer.id}</td>
                    <td>
                      <Link to={`/my/tools/timers/edit/${timer.id}`} className="cell-link">
                        {timer.name}
                      </Link>
                    </td>
                    <td>{timer.action.name}</td>
                    <td>{timer.type.name}</td>
                    <td className="timer-time">
                      <span>
                        {scheduleText(timer, hour12)} <span className="timer-offset">{timer.utcOffset}</span>
                      </span>
                      <span className="timer-local" title="Your local time">
                        {clockText(localTimeOf(timer.time, timer.utcOffset), hour12)} local
                      </span>
                    </td>
                    <td>{timer.taskType.name}</td>
                    <td className="align-center">
                      <TasksBadge timer={timer} />
                    </td>
                    <td className="align-right">
                      <div className="row-controls">
                        <Link to={`/my/tools/timers/edit/${timer.id}`} className="icon-button" aria-label={`${canEdit ? 'Edit' : 'View'} timer ${timer.name}`} title={canEdit ? 'Edit' : 'View'}>
                          <Icon name={canEdit ? 'pencil' : 'eye'} />
                        </Link>
                        <ConfirmSwitch
                          checked={timer.actived}
                          label={`Timer ${timer.name} enabled`}
                          disabled={!canEdit}
                          confirmText={(next) => (next ? `Enable timer ${timer.name}?` : `Disable timer ${timer.name}?`)}
                          onConfirmed={async (next) => {
                            await setActived.mutateAsync({ id: timer.id, actived: next });
                            toast.success(`Timer ${timer.name} ${next ? 'enabled' : 'disabled'}.`);
                          }}
                        />
                        {canEdit && (
                          <button type="button" className="icon-button icon-button-danger" aria-label={`Delete timer ${timer.name}`} title="Delete" onClick={() => void deleteTimer(timer)}>
                            <Icon name="trash" />
                          </button>
                        )}
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {items && (
          <div className="list-footer">
            <div className="list-counts">
              <span className="count">Total timers: {items.length}</span>
            </div>
          </div>
        )}
      </section>
    </div>
  );
}
