import { Icon } from '../../../components/icons.tsx';
import { Switch } from '../../../components/Switch.tsx';
import { OUTPUT_TYPE_LABELS } from '../jobLabels.ts';
import { useJobEdit } from './context.ts';
import { ListError, SelectField } from './fields.tsx';
import { newOutput, withOutputType, type OutputType, type OutputValue } from './jobFormModel.ts';
import { OutputFields } from './OutputFields.tsx';

const OUTPUT_TYPE_OPTIONS = (Object.entries(OUTPUT_TYPE_LABELS) as [OutputType, string][]).map(([value, label]) => ({ value, label }));
export const MAX_OUTPUTS = 32;

/** Details > Output: the outputs in order, each with its type's fields; each can be enabled or disabled. */
export function OutputTab() {
  const { form, canFullEdit, disabled } = useJobEdit();
  const outputs = form.values.outputs;
  const add = () => form.update<OutputValue[]>('outputs', (list) => [...list, newOutput('udp', list.length)]);
  const remove = (index: number) => form.update<OutputValue[]>('outputs', (list) => list.filter((_, i) => i !== index));

  return (
    <div className="job-tab-body">
      <ListError path="outputs" />
      {outputs.length === 0 && <p className="muted">No outputs yet.</p>}
      {outputs.map((output, index) => (
        <section key={index} className={`output-card${output.disabled ? ' is-disabled' : ''}`} aria-label={`Output ${index + 1}`}>
          <div className="output-card-head">
            <h3>Output {index + 1}</h3>
            <SelectField
              path={`outputs.${index}.type`}
              label="Type"
              options={OUTPUT_TYPE_OPTIONS}
              className="output-type-field"
              onChange={(type) => form.set(`outputs.${index}`, withOutputType(output, type as OutputType))}
            />
            <div className="item-controls">
              <span className="item-state">{output.disabled ? 'Disabled' : 'Enabled'}</span>
              <Switch checked={!output.disabled} onChange={(on) => form.set(`outputs.${index}.disabled`, !on)} label={`Output ${index + 1} enabled`} disabled={disabled} />
              <button
                type="button"
                className="icon-button icon-button-danger"
                aria-label={`Remove output ${index + 1}`}
                title="Remove output"
                disabled={disabled || outputs.length <= 1}
                onClick={() => remove(index)}
              >
                <Icon name="trash" />
              </button>
            </div>
          </div>
          <div className="output-card-body">
            <OutputFields index={index} />
          </div>
        </section>
      ))}
      <div className="tab-actions">
        <button
          type="button"
          className="button button-secondary"
          onClick={add}
          disabled={!canFullEdit || outputs.length >= MAX_OUTPUTS}
          title={canFullEdit ? undefined : 'Adding outputs needs the EDIT permission.'}
        >
          <Icon name="plus" size={14} /> Add output
        </button>
        {!canFullEdit && <span className="field-hint">Adding outputs needs the EDIT permission.</span>}
      </div>
    </div>
  );
}
