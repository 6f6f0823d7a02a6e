import { useId, useState } from 'react';
import { Icon } from '../../../components/icons.tsx';
import type { Schemas } from '../../../data/client.ts';
import { useJobFeatures } from '../../../data/jobs/queries.ts';
import { useJobEdit } from './context.ts';

type JobFeature = Schemas['JobFeature'];
type Definition = Schemas['FeatureDefinition'];

interface Row {
  definition: Definition | undefined;
  name: string;
  /** The job's own entry (an override of a global feature, or a feature added to the job). */
  own: JobFeature | undefined;
  global: boolean;
}

/** Global features always show; the job's own entries show beside them. */
function rowsOf(catalogue: readonly Definition[], features: readonly JobFeature[]): Row[] {
  const rows: Row[] = catalogue.filter((d) => d.global).map((d) => ({ definition: d, name: d.name, own: features.find((f) => f.name === d.name), global: true }));
  for (const feature of features) {
    if (rows.some((r) => r.name === feature.name)) continue;
    rows.push({ definition: catalogue.find((d) => d.name === feature.name), name: feature.name, own: feature, global: false });
  }
  return rows;
}

/** The admin-only features table of a job (spec 01 §2.4): feature, status, value. */
export function FeaturesTable() {
  const { form, disabled } = useJobEdit();
  const [open, setOpen] = useState(false);
  const bodyId = useId();
  const catalogue = useJobFeatures(true);
  const features = form.values.features;
  const rows = rowsOf(catalogue.data?.items ?? [], features);
  const addable = (catalogue.data?.items ?? []).filter((d) => !d.global && !features.some((f) => f.name === d.name));

  /** Write the job's entry for a feature (a global feature gets an override). */
  const put = (row: Row, change: Partial<JobFeature>) => {
    const base: JobFeature = row.own ?? { name: row.name, status: true, value: row.definition?.globalValue ?? undefined, global: row.global };
    const next = { ...base, ...change };
    form.set('features', row.own ? features.map((f) => (f.name === row.name ? next : f)) : [...features, next]);
  };
  const drop = (name: string) => form.set('features', features.filter((f) => f.name !== name));

  return (
    <section className="job-section features">
      <button type="button" className="collapse-toggle" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen(!open)}>
        <Icon name={open ? 'chevronDown' : 'chevronRight'} size={14} />
        Features
        <span className="badge">{features.length}</span>
      </button>
      {open && (
        <div id={bodyId} className="features-body">
          {catalogue.isError && <p className="field-error">{catalogue.error.message}</p>}
          <table className="features-table">
            <thead>
              <tr>
                <th scope="col">Feature</th>
                <th scope="col">Status</th>
                <th scope="col">Value</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 && (
                <tr>
                  <td colSpan={4} className="muted">
                    {catalogue.isPending ? 'Loading ...' : 'No features.'}
                  </td>
                </tr>
              )}
              {rows.map((row) => {
                const status = row.own?.status ?? true;
                const value = row.own ? (row.own.value ?? '') : (row.definition?.globalValue ?? '');
                const valueType = row.definition?.valueType ?? 'string';
                return (
                  <tr key={row.name} className={row.global && !row.own ? 'is-inherited' : undefined}>
                    <th scope="row" title={row.definition?.description}>
                      {row.name} {row.global && <span className="badge badge-primary">Global</span>}
                    </th>
                    <td>
                      <input type="checkbox" aria-label={`${row.name} status`} checked={status} disabled={disabled} onChange={(e) => put(row, { status: e.target.checked })} />
                    </td>
                    <td>
                      {valueType === 'none' ? (
                        <span className="muted">--</span>
                      ) : (
                        <input
                          type={valueType === 'number' ? 'number' : 'text'}
                          aria-label={`${row.name} value`}
                          value={value}
                          disabled={disabled}
                          onChange={(e) => put(row, { value: e.target.value === '' ? undefined : e.target.value })}
                        />
                      )}
                    </td>
                    <td className="align-right">
                      {row.global ? (
                        row.own && (
                          <button type="button" className="icon-button" aria-label={`Clear the value of ${row.name}`} title="Clear value (use the global value)" disabled={disabled} onClick={() => drop(row.name)}>
                            <Icon name="x" />
                          </button>
                        )
                      ) : (
                        <button type="button" className="icon-button icon-button-danger" aria-label={`Delete feature ${row.name}`} title="Delete feature" disabled={disabled} onClick={() => drop(row.name)}>
                          <Icon name="trash" />
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {addable.length > 0 && (
            <div className="features-add">
              <label htmlFor={`${bodyId}-add`} className="field-label">
                Add feature
              </label>
              <select
                id={`${bodyId}-add`}
                value=""
                disabled={disabled}
                onChange={(e) => e.target.value && form.set('features', [...features, { name: e.target.value, status: true, global: false }])}
              >
                <option value="">Select feature</option>
                {addable.map((d) => (
                  <option key={d.name} value={d.name}>
                    {d.name}
                  </option>
                ))}
              </select>
            </div>
          )}
        </div>
      )}
    </section>
  );
}
