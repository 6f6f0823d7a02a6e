import { Link, useNavigate, useParams } from 'react-router-dom';
import { PageHeader } from '../../components/Page.tsx';
import { useToast } from '../../components/toasts.tsx';
import { useCan } from '../../data/auth/queries.ts';
import { useCreateTimer, useUpdateTimer } from '../../data/timers/mutations.ts';
import { useTimer, useTimers } from '../../data/timers/queries.ts';
import { usePageTitle } from '../../shell/breadcrumbs.tsx';
import { TimerForm } from './TimerForm.tsx';
import { newTimerValues, valuesOf } from './timerFormModel.ts';

function useZone() {
  const list = useTimers();
  return list.data ? { timeZone: list.data.timeZone, utcOffset: list.data.utcOffset } : undefined;
}

function NewTimer() {
  usePageTitle('Add timer');
  const create = useCreateTimer();
  const navigate = useNavigate();
  const toast = useToast();
  const zone = useZone();
  return (
    <div className="page">
      <PageHeader title="Add timer" />
      <TimerForm
        initial={newTimerValues()}
        isNew
        readOnly={false}
        zone={zone}
        save={async (payload) => {
          const timer = await create.mutateAsync(payload);
          toast.success(`Timer ${timer.name} created.`);
          navigate(`/my/tools/timers/edit/${timer.id}`, { replace: true });
        }}
      />
    </div>
  );
}

function ExistingTimer({ id }: { id: number }) {
  const timer = useTimer(id);
  const update = useUpdateTimer(id);
  const canEdit = useCan('TOOLS_EDIT');
  const toast = useToast();
  const zone = useZone();
  usePageTitle(timer.data ? `Timer ${timer.data.name}` : 'Timer');

  if (timer.isPending) return <div className="page-loading">Loading ...</div>;
  if (timer.isError)
    return (
      <div className="page">
        <PageHeader title="Timer" />
        <div className="notice notice-error" role="alert">
          {timer.error.message} <Link to="/my/tools/timers">Back to timers</Link>
        </div>
      </div>
    );
  const last = timer.data.lastFiredAt ? `Last fired ${new Date(timer.data.lastFiredAt).toLocaleString()}.` : 'Not fired yet.';
  const next = timer.data.nextRunAt ? ` Next: ${new Date(timer.data.nextRunAt).toLocaleString()} (your time).` : '';
  return (
    <div className="page">
      <PageHeader title={`Timer ${timer.data.name}`} subtitle={`${last}${next}`} />
      <TimerForm
        key={timer.data.id}
        initial={valuesOf(timer.data)}
        isNew={false}
        readOnly={!canEdit}
        zone={zone ?? { timeZone: timer.data.timeZone, utcOffset: timer.data.utcOffset }}
        save={async (payload) => {
          const saved = await update.mutateAsync(payload);
          toast.success(`Timer ${saved.name} updated.`);
          return valuesOf(saved);
        }}
      />
    </div>
  );
}

/** /my/tools/timers/edit (Add timer) and /my/tools/timers/edit/{id} (Timer {name}). */
export default function TimerEditPage() {
  const { id } = useParams();
  if (id === undefined) return <NewTimer />;
  const numeric = Number(id);
  if (!Number.isInteger(numeric) || numeric <= 0) return <div className="notice notice-error">No such timer.</div>;
  return <ExistingTimer key={numeric} id={numeric} />;
}
