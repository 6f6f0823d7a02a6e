import { useState } from 'react';
import { useErrorAlert } from '../../components/dialogs.tsx';
import { Card } from '../../components/Page.tsx';
import { Switch } from '../../components/Switch.tsx';
import { useToast } from '../../components/toasts.tsx';
import { messageOf } from '../../data/client.ts';
import { useUpdateFeatureSettings } from '../../data/settings/mutations.ts';
import type { FeatureSetting } from '../../data/settings/queries.ts';

/** Rixjob Features (ADMIN only): system features that gate areas (ads) and the global values of the job features. */
export function FeaturesTab({ initial }: { initial: FeatureSetting[] }) {
  const update = useUpdateFeatureSettings();
  const toast = useToast();
  const showError = useErrorAlert();
  const [rows, setRows] = useState(initial);
  const [saved, setSaved] = useState(initial);
  const dirty = JSON.stringify(rows) !== JSON.stringify(saved);
  const invalid = rows.find((f) => f.valueType === 'number' && f.status && (f.value === null || f.value.trim() === '' || !Number.isFinite(Number(f.value))));
  const change = (name: string, patch: Partial<FeatureSetting>) => setRows((current) => current.map((f) => (f.name === name ? { ...f, ...patch } : f)));

  async function save() {
    try {
      const result = await update.mutateAsync({ features: rows.map((f) => ({ name: f.name, status: f.status, value: f.valueType === 'none' ? null : f.value })) });
      setRows(result.features);
      setSaved(result.features);
      toast.success('Rixjob features updated.');
    } catch (error) {
      void showError(messageOf(error));
    }
  }

  return (
    <div className="settings-form">
      <Card title="Rixjob Features">
        <table className="table settings-table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Scope</th>
              <th>Description</th>
              <th>Status</th>
              <th>Value</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((f) => (
              <tr key={f.name}>
                <td className="cell-strong">{f.name}</td>
                <td>{f.scope === 'system' ? 'System' : 'Job'}</td>
                <td className="cell-muted">{f.description}</td>
                <td>
                  <Switch checked={f.status} label={`${f.name} enabled`} onChange={(on) => change(f.name, { status: on })} />
                </td>
                <td>
                  {f.valueType === 'none' ? (
                    <span className="cell-muted">-</span>
                  ) : (
                    <input
                      className="settings-value-input"
                      aria-label={`${f.name} value`}
                      inputMode={f.valueType === 'number' ? 'numeric' : undefined}
                      aria-invalid={invalid?.name === f.name || undefined}
                      value={f.value ?? ''}
                      onChange={(e) => change(f.name, { value: e.target.value === '' ? null : e.target.value })}
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {invalid && <p className="field-error">{invalid.name} needs a number</p>}
      </Card>
      <div className="settings-actions">
        <span className="settings-dirty" aria-live="polite">{dirty ? 'Unsaved changes.' : ''}</span>
        <button type="button" className="button" disabled={!dirty || Boolean(invalid) || update.isPending} onClick={() => void save()}>
          Update
        </button>
      </div>
    </div>
  );
}
