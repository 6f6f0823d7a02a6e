import { useEffect, useState } from 'react';
import { Card, PageHeader } from '../../components/Page.tsx';
import { useToast } from '../../components/toasts.tsx';
import { useCan } from '../../data/auth/queries.ts';
import { useUpdateSystemAlarms } from '../../data/alarms/mutations.ts';
import { useSystemAlarms, type SystemAlarmSetting } from '../../data/alarms/queries.ts';
import { fieldErrorsOf, messageOf } from '../../data/client.ts';
import { usePageTitle } from '../../shell/breadcrumbs.tsx';
import { AlarmsNav } from './AlarmsNav.tsx';
import '../../styles/alarms.css';

type Row = Pick<SystemAlarmSetting, 'name' | 'email' | 'sms'> & { value: string };

/** Spec 03 §5: numeric, required, minimum 0, maximum 100 when the unit is percent, otherwise 1000000000. */
function check(row: Row, def: SystemAlarmSetting): string | undefined {
  if (row.value.trim() === '') return 'Value is required';
  const value = Number(row.value);
  if (!Number.isFinite(value)) return 'Value must be a number';
  if (value < 0) return 'Value must be at least 0';
  const max = def.unit === '%' ? 100 : 1_000_000_000;
  if (value > max) return `${def.label} must be at most ${max}`;
  return undefined;
}

/** /my/alarms/system (System Alarms): thresholds grouped into Resources and Services. */
export default function SystemAlarmsPage() {
  usePageTitle('System Alarms');
  const system = useSystemAlarms();
  const update = useUpdateSystemAlarms();
  const canEdit = useCan('ALARMS_EDIT');
  const toast = useToast();
  const [rows, setRows] = useState<Record<string, Row>>({});
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  useEffect(() => {
    if (system.data) setRows(Object.fromEntries(system.data.items.map((i) => [i.name, { name: i.name, value: String(i.value), email: i.email, sms: i.sms }])));
  }, [system.data]);
  const items = system.data?.items ?? [];
  const errors = Object.fromEntries(items.map((def) => [def.name, rows[def.name] ? check(rows[def.name], def) : undefined]));
  const invalid = Object.values(errors).some(Boolean);
  const set = (name: string, change: Partial<Row>) => setRows((r) => ({ ...r, [name]: { ...r[name], ...change } }));

  const save = () => {
    setServerErrors({});
    update.mutate(
      { items: Object.values(rows).map((r) => ({ name: r.name, value: Number(r.value), email: r.email, sms: r.sms })) },
      {
        onSuccess: () => toast.success('System alarms updated.'),
        onError: (e) => {
          setServerErrors(fieldErrorsOf(e));
          toast.error(messageOf(e));
        },
      },
    );
  };

  const group = (name: 'Resources' | 'Services') => (
    <Card title={name} className="alarm-system-group">
      <table className="alarm-system-table">
        <thead>
          <tr>
            <th>Name</th>
            <th>Value</th>
            <th>E-mail</th>
            <th>SMS</th>
            <th>Now</th>
          </tr>
        </thead>
        <tbody>
          {items
            .filter((i) => i.group === name)
            .map((def) => {
              const row = rows[def.name];
              if (!row) return null;
              const error = errors[def.name] ?? serverErrors[`items.${items.indexOf(def)}.value`];
              return (
                <tr key={def.name}>
                  <td>
                    <label htmlFor={`threshold-${def.name}`}>{def.label}</label>
                  </td>
                  <td>
                    <span className="alarm-threshold">
                      <input id={`threshold-${def.name}`} type="number" min={0} max={def.unit === '%' ? 100 : 1_000_000_000} value={row.value} disabled={!canEdit} aria-invalid={error ? true : undefined} onChange={(e) => set(def.name, { value: e.target.value })} />
                      <span className="muted">{def.unit}</span>
                    </span>
                    {error && <div className="field-error">{error}</div>}
                  </td>
                  <td>
                    <input type="checkbox" aria-label={`${def.label} by e-mail`} checked={row.email} disabled={!canEdit} onChange={(e) => set(def.name, { email: e.target.checked })} />
                  </td>
                  <td>
                    <input type="checkbox" aria-label={`${def.label} by SMS`} checked={row.sms} disabled={!canEdit} onChange={(e) => set(def.name, { sms: e.target.checked })} />
                  </td>
                  <td title={def.nodes.map((n) => `${n.nodeName}: ${n.current ?? '--'} ${def.unit}${n.raised ? ' (raised)' : ''}`).join('\n') || undefined}>
                    {def.current ?? '--'} {def.current !== null && def.unit}
                    {def.raised && <span className="badge badge-danger">raised on {def.nodes.filter((n) => n.raised).map((n) => n.nodeName).join(', ')}</span>}
                  </td>
                </tr>
              );
            })}
        </tbody>
      </table>
    </Card>
  );

  return (
    <div className="page">
      <PageHeader title="System Alarms" subtitle="An alarm is raised when a value reaches its threshold on a node and cleared when it is back below there. A threshold with neither E-mail nor SMS is off." />
      <AlarmsNav />
      {system.error ? (
        <p className="alert alert-danger">{messageOf(system.error)}</p>
      ) : (
        <>
          <div className="alarm-system-groups">
            {group('Resources')}
            {group('Services')}
          </div>
          {canEdit && (
            <div className="alarm-actions">
              <button type="button" className="button" disabled={invalid || update.isPending} onClick={save}>
                Save
              </button>
            </div>
          )}
        </>
      )}
    </div>
  );
}
