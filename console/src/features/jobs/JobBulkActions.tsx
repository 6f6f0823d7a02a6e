import { useState } from 'react';
import { useConfirm, useConfirmDelete, useErrorAlert } from '../../components/dialogs.tsx';
import { Icon } from '../../components/icons.tsx';
import { useToast } from '../../components/toasts.tsx';
import type { BulkAction } from '../../../../openapi/schemas/job-api.ts';
import { messageOf } from '../../data/client.ts';
import { useBulkJobs } from '../../data/jobs/mutations.ts';
import type { JobSummary } from '../../data/jobs/queries.ts';
import { JobIcon } from './jobIcons.tsx';
import { JOB_KINDS, type JobGrants, type JobKindConfig } from './jobLabels.ts';


const ACTIONS: readonly { action: BulkAction; label: string; verb: string; done: string; grant: 'onOff' | 'restart' | 'delete' }[] = [
  { action: 'start', label: 'Start', verb: 'Start', done: 'started', grant: 'onOff' },
  { action: 'stop', label: 'Stop', verb: 'Stop', done: 'stopped', grant: 'onOff' },
  { action: 'hard_restart', label: 'Hard restart', verb: 'Hard restart', done: 'restarted', grant: 'restart' },
  { action: 'soft_restart', label: 'Soft restart', verb: 'Soft restart', done: 'restarted', grant: 'restart' },
  { action: 'delete', label: 'Delete', verb: 'Delete', done: 'deleted', grant: 'delete' },
];

const ICONS: Record<BulkAction, React.ReactNode> = {
  start: <JobIcon name="play" size={14} />,
  stop: <JobIcon name="stop" size={14} />,
  hard_restart: <JobIcon name="hardRestart" size={14} />,
  soft_restart: <JobIcon name="softRestart" size={14} />,
  delete: <Icon name="trash" size={14} />,
};

const many = (config: JobKindConfig, n: number) => `${n} ${n === 1 ? config.noun : `${config.noun}s`}`;

/** May the user do any bulk action? Without one, the list has no check boxes and no bulk bar. */
export function hasBulkActions(grants: JobGrants): boolean {
  return grants.onOff || grants.restart || grants.delete;
}

/**
 * The bulk bar's buttons (spec 01 §2.3, §4): start, stop, hard restart, soft restart and delete
 * over the selected rows, each after a confirmation; only those the user may do. The server acts
 * on each job alone; the ones it refused are listed with their reasons.
 */
export function JobBulkActions({ config, grants, selected, clearSelection }: { config: JobKindConfig; grants: JobGrants; selected: JobSummary[]; clearSelection: () => void }) {
  const bulk = useBulkJobs(config.kind);
  const confirm = useConfirm();
  const confirmDelete = useConfirmDelete();
  const showError = useErrorAlert();
  const toast = useToast();
  const [running, setRunning] = useState<BulkAction | null>(null);

  async function run(entry: (typeof ACTIONS)[number]) {
    const question = `${entry.verb} ${many(config, selected.length)}?`;
    const ok = entry.action === 'delete' ? await confirmDelete(question) : await confirm(question);
    if (!ok) return;
    setRunning(entry.action);
    try {
      const { results } = await bulk.mutateAsync({ action: entry.action, ids: selected.map((job) => job.id) });
      const failed = results.filter((r) => !r.ok);
      const succeeded = results.length - failed.length;
      if (succeeded > 0) toast.success(`${many(config, succeeded)} ${entry.done}.`);
      clearSelection();
      if (failed.length > 0) {
        const names = new Map(selected.map((job) => [job.id, job.name]));
        await showError(
          <>
            {many(config, failed.length)} of {selected.length} could not be {entry.done}:
            <ul className="bulk-failures">
              {failed.map((r) => (
                <li key={r.id}>
                  {names.get(r.id) ?? JOB_KINDS[config.kind].Noun} (id:{r.id}): {r.message ?? r.code ?? 'refused'}
                </li>
              ))}
            </ul>
          </>,
        );
      }
    } catch (error) {
      await showError(messageOf(error));
    } finally {
      setRunning(null);
    }
  }

  return (
    <>
      {ACTIONS.filter((entry) => grants[entry.grant]).map((entry) => (
        <button
          key={entry.action}
          type="button"
          className={`button button-small ${entry.action === 'delete' ? 'button-danger' : 'button-secondary'}`}
          disabled={running !== null}
          aria-busy={running === entry.action || undefined}
          onClick={() => void run(entry)}
        >
          {ICONS[entry.action]}
          {entry.label}
        </button>
      ))}
    </>
  );
}
