import { useEffect, useState } from 'react';
import { useParams } from 'react-router-dom';
import { Card, PageHeader } from '../../components/Page.tsx';
import { useToast } from '../../components/toasts.tsx';
import { useCan } from '../../data/auth/queries.ts';
import { useUpdateJobAlarmSettings } from '../../data/alarms/mutations.ts';
import { useJobAlarmSettings } from '../../data/alarms/queries.ts';
import { messageOf, type Schemas } from '../../data/client.ts';
import { usePageTitle } from '../../shell/breadcrumbs.tsx';
import { AlarmsNav } from './AlarmsNav.tsx';
import { LabeledSwitch, SWITCHES } from './AlarmSwitches.tsx';
import { RecipientsEditor } from './RecipientsEditor.tsx';
import '../../styles/alarms.css';

type Settings = Schemas['JobAlarmSettingsUpdate'];

/** /my/alarms/jobs/{id}: the alarm settings of one job, its own or the defaults. */
export default function JobAlarmPage() {
  const jobId = Number(useParams().id);
  usePageTitle(`Job alarm (id:${jobId})`);
  const current = useJobAlarmSettings(jobId);
  const update = useUpdateJobAlarmSettings(jobId);
  const canEdit = useCan('ALARMS_EDIT');
  const toast = useToast();
  const [form, setForm] = useState<Settings>();
  useEffect(() => {
    if (current.data) {
      const { jobId: _id, ...rest } = current.data;
      setForm(rest);
    }
  }, [current.data]);
  if (current.error) return <p className="alert alert-danger">{messageOf(current.error)}</p>;
  if (!form) return <p className="muted">Loading ...</p>;
  const own = form.useNotDefaultAlarmSettingOptions;
  return (
    <div className="page">
      <PageHeader title={`Job alarm (id:${jobId})`} subtitle="What this job alarms on and who hears of it. A failure (restart attempts ran out) always alarms." />
      <AlarmsNav />
      <div className="alarm-settings">
        <Card title="Events and channels">
          <LabeledSwitch label="Use settings of this job" checked={own} disabled={!canEdit} onChange={(v) => setForm({ ...form, useNotDefaultAlarmSettingOptions: v })} />
          <div className="alarm-switches">
            {SWITCHES.map(([key, label]) => (
              <LabeledSwitch key={key} label={label} checked={form[key] as boolean} disabled={!canEdit || !own} onChange={(v) => setForm({ ...form, [key]: v })} />
            ))}
            <LabeledSwitch label="E-mail" checked={form.email} disabled={!canEdit || !own} onChange={(v) => setForm({ ...form, email: v })} />
            <LabeledSwitch label="SMS" checked={form.smsEnabled} disabled={!canEdit || !own} onChange={(v) => setForm({ ...form, smsEnabled: v })} />
          </div>
        </Card>
        <Card title="Recipients">
          <LabeledSwitch label="Use recipients of this job" checked={form.useNotDefaultRecipients} disabled={!canEdit} onChange={(v) => setForm({ ...form, useNotDefaultRecipients: v })} />
          <RecipientsEditor value={form} disabled={!canEdit || !form.useNotDefaultRecipients} onChange={(r) => setForm({ ...form, ...r })} />
        </Card>
      </div>
      {canEdit && (
        <div className="alarm-actions">
          <button type="button" className="button" disabled={update.isPending} onClick={() => update.mutate(form, { onSuccess: () => toast.success('Job alarm settings updated.'), onError: (e) => toast.error(messageOf(e)) })}>
            Save
          </button>
        </div>
      )}
    </div>
  );
}
