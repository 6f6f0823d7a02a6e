import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useConfirm, useConfirmDelete, useErrorAlert } from '../../components/dialogs.tsx';
import { Icon } from '../../components/icons.tsx';
import { ConfirmSwitch } from '../../components/Switch.tsx';
import { useToast } from '../../components/toasts.tsx';
import { messageOf } from '../../data/client.ts';
import type { JobSummary } from '../../data/jobs/queries.ts';
import { JobIcon } from './jobIcons.tsx';
import { JOB_KINDS, jobPaths, type JobGrants } from './jobLabels.ts';
import { useJobRowActions } from './jobRowActions.tsx';
import { RowMenu, type RowMenuItem } from './RowMenu.tsx';
import { SaveAsTemplateModal } from './SaveAsTemplateModal.tsx';
import { JobAlarmHistoryModal } from '../alarms/JobAlarmHistoryModal.tsx';

type RestartMode = 'hard' | 'soft' | 'reload';

const RESTART_WORDS: Record<RestartMode, string> = { hard: 'Hard restart', soft: 'Soft restart', reload: 'Reload' };

/**
 * The Controls of a job row (spec 01 §2.3, §4, §6): edit (pencil) or view (eye), the on/off switch
 * with its confirmation, hard and soft restart (the hard one becomes a warning button that reloads
 * when the configuration changed since the start), the log link, and the menu.
 */
export function JobRowControls({ job, grants }: { job: JobSummary; grants: JobGrants }) {
  const config = JOB_KINDS[job.kind];
  const label = `${config.Noun} ${job.name}`;
  const actions = useJobRowActions();
  const confirm = useConfirm();
  const confirmDelete = useConfirmDelete();
  const showError = useErrorAlert();
  const toast = useToast();
  const [savingTemplate, setSavingTemplate] = useState(false);
  const [alarmHistory, setAlarmHistory] = useState(false);
  const [restarting, setRestarting] = useState(false);

  const inRestart = restarting || job.status.state === 'restarting';
  const editPath = jobPaths.edit(job.kind, job.id);

  async function doRestart(mode: RestartMode) {
    if (!(await confirm(`${RESTART_WORDS[mode]} ${config.noun} ${job.name}?`))) return;
    setRestarting(true);
    try {
      await actions.restart(job.id, mode);
      toast.success(`${RESTART_WORDS[mode]} of ${config.noun} ${job.name} asked.`);
    } catch (error) {
      await showError(messageOf(error));
    } finally {
      setRestarting(false);
    }
  }

  async function doDelete() {
    if (!(await confirmDelete(`Delete ${config.noun} ${job.name}?`))) return;
    try {
      await actions.remove(job.id);
      toast.success(`${config.Noun} ${job.name} deleted.`);
    } catch (error) {
      await showError(messageOf(error));
    }
  }

  const menu: RowMenuItem[] = [{ kind: 'link', label: 'View', to: editPath, icon: <Icon name="eye" size={14} /> }];
  if (grants.templateEdit) menu.push({ kind: 'action', label: 'Save as template', onSelect: () => setSavingTemplate(true), icon: <JobIcon name="template" size={14} /> });
  if (grants.alarmHistory) menu.push({ kind: 'action', label: 'Alarm history', onSelect: () => setAlarmHistory(true), icon: <Icon name="history" size={14} /> });
  if (grants.delete) menu.push({ kind: 'action', label: 'Delete', danger: true, onSelect: () => void doDelete(), icon: <Icon name="trash" size={14} /> });

  return (
    <div className="row-controls job-controls">
      {grants.edit ? (
        <Link to={editPath} className="icon-button" aria-label={`Edit ${config.noun} ${job.name}`} title="Edit">
          <Icon name="pencil" />
        </Link>
      ) : (
        <Link to={editPath} className="icon-button" aria-label={`View ${config.noun} ${job.name}`} title="View">
          <Icon name="eye" />
        </Link>
      )}
      <ConfirmSwitch
        checked={job.active}
        label={`${label} on`}
        disabled={!grants.onOff || job.isTemplate}
        confirmText={(next) => (next ? `Start ${config.noun} ${job.name}?` : `Stop ${config.noun} ${job.name}?`)}
        onConfirmed={async (next) => {
          await actions.switchJob(job.id, next);
          toast.success(`${label} ${next ? 'started' : 'stopped'}.`);
        }}
      />
      {grants.restart && (
        <>
          {job.changedConfigSinceLastStart ? (
            <button
              type="button"
              className="icon-button icon-button-warning"
              aria-label={`Reload ${config.noun} ${job.name}`}
              title="The configuration changed since the start: reload"
              disabled={!job.active || inRestart}
              onClick={() => void doRestart('reload')}
            >
              <JobIcon name="reload" />
            </button>
          ) : (
            <button
              type="button"
              className="icon-button"
              aria-label={`Hard restart ${config.noun} ${job.name}`}
              title="Hard restart"
              disabled={!job.active || inRestart}
              onClick={() => void doRestart('hard')}
            >
              <JobIcon name="hardRestart" />
            </button>
          )}
          <button
            type="button"
            className="icon-button"
            aria-label={`Soft restart ${config.noun} ${job.name}`}
            title="Soft restart"
            disabled={!job.active || inRestart}
            onClick={() => void doRestart('soft')}
          >
            <JobIcon name="softRestart" />
          </button>
        </>
      )}
      {grants.log && (
        <Link to={jobPaths.logs(job.kind, job.id)} className="icon-button" aria-label={`Logs of ${config.noun} ${job.name}`} title="Logs">
          <JobIcon name="logs" />
        </Link>
      )}
      <RowMenu label={`Actions for ${config.noun} ${job.name}`} items={menu} />
      {savingTemplate && <SaveAsTemplateModal job={job} canCreate={grants.fullEdit} onClose={() => setSavingTemplate(false)} />}
      {alarmHistory && <JobAlarmHistoryModal job={job} onClose={() => setAlarmHistory(false)} />}
    </div>
  );
}
