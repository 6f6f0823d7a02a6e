import { useState } from 'react';
import { LOG_LEVEL_NAMES } from '../../../../openapi/schemas/jobs.ts';
import { LogSettings as LogSettingsSchema } from '../../../../openapi/schemas/settings.ts';
import { useErrorAlert } from '../../components/dialogs.tsx';
import { Field } from '../../components/form/Field.tsx';
import { SubmitButton } from '../../components/form/FormFooter.tsx';
import { useZodForm } from '../../components/form/useZodForm.ts';
import { Icon } from '../../components/icons.tsx';
import { Card } from '../../components/Page.tsx';
import { useToast } from '../../components/toasts.tsx';
import { useUpdateLogSettings } from '../../data/settings/mutations.ts';
import type { LogSettings } from '../../data/settings/queries.ts';
import { LoggerModal, type LoggerValue } from './LoggerModal.tsx';
import { saveWith } from './save.ts';

type Values = LogSettings & Record<string, unknown>;
const toPayload = (v: Values) => ({ logLevel: v.logLevel, logTarget: v.logTarget, logMaxSizeInMegaBytes: v.logMaxSizeInMegaBytes, loggers: v.loggers });

const INTRO = {
  rixui: 'How the API processes log. Changes apply to every running process at once, without a restart.',
  rixjob: 'Defaults of the job (engine) logs: a job\'s own log level wins when it sets one.',
};

/** RixUI Log Settings or Rixjob Log Settings: level, target, max size and the loggers, with the add-logger and edit-logger modal. */
export function LogSettingsTab({ target, title, initial, readOnly }: { target: 'rixui' | 'rixjob'; title: string; initial: LogSettings; readOnly: boolean }) {
  const update = useUpdateLogSettings(target);
  const toast = useToast();
  const showError = useErrorAlert();
  const form = useZodForm<Values>({ initial: initial as Values, schema: LogSettingsSchema, toPayload, saved: true });
  const [editing, setEditing] = useState<{ index: number; logger?: LoggerValue } | null>(null);
  const { values } = form;
  const submit = form.formProps((payload) =>
    saveWith(async () => {
      const saved = await update.mutateAsync(payload as LogSettings);
      toast.success(`${title} updated.`);
      return saved as Values;
    }, showError),
  );
  const putLogger = (index: number, logger: LoggerValue) =>
    form.setValues((current) => {
      const loggers = [...current.loggers];
      if (index < 0) loggers.push(logger);
      else loggers[index] = logger;
      return { ...current, loggers };
    });
  const removeLogger = (index: number) => form.setValues((current) => ({ ...current, loggers: current.loggers.filter((_, i) => i !== index) }));

  return (
    <>
    <form className="form settings-form" {...submit} aria-label={title}>
      <fieldset className="form-fieldset" disabled={readOnly}>
        <Card title={title}>
          <p className="settings-intro">{INTRO[target]}</p>
          <div className="form-grid">
            <Field label="Log level">
              <select name="logLevel" value={values.logLevel} onChange={(e) => form.set('logLevel', e.target.value as Values['logLevel'])}>
                {LOG_LEVEL_NAMES.map((level) => (
                  <option key={level}>{level}</option>
                ))}
              </select>
            </Field>
            <Field label="Log target">
              <select name="logTarget" value={values.logTarget} onChange={(e) => form.set('logTarget', e.target.value as Values['logTarget'])}>
                <option value="CONSOLE">CONSOLE</option>
                <option value="FILE">FILE</option>
              </select>
            </Field>
            <Field label="Log max size (MB)" error={form.errorOf('logMaxSizeInMegaBytes')}>
              <input
                name="logMaxSizeInMegaBytes"
                type="number"
                min={1}
                max={10240}
                step={1}
                value={Number.isNaN(values.logMaxSizeInMegaBytes) ? '' : values.logMaxSizeInMegaBytes}
                onChange={(e) => form.set('logMaxSizeInMegaBytes', e.target.value === '' ? Number.NaN : Number(e.target.value))}
                onBlur={() => form.touch('logMaxSizeInMegaBytes')}
              />
            </Field>
          </div>
        </Card>
        <Card
          title="Loggers"
          actions={
            !readOnly && (
              <button type="button" className="button button-secondary" onClick={() => setEditing({ index: -1 })}>
                <Icon name="plus" size={14} />
                Add logger
              </button>
            )
          }
        >
          <table className="table settings-table">
            <thead>
              <tr>
                <th>ID</th>
                <th>Logger name</th>
                <th>Log level</th>
                <th className="cell-controls">Controls</th>
              </tr>
            </thead>
            <tbody>
              {values.loggers.length === 0 ? (
                <tr>
                  <td colSpan={4} className="table-empty">
                    No loggers
                  </td>
                </tr>
              ) : (
                values.loggers.map((logger, index) => (
                  <tr key={`${logger.id ?? 'new'}-${logger.loggerName}`}>
                    <td>{logger.id ?? '-'}</td>
                    <td>{logger.loggerName}</td>
                    <td>{logger.logLevel}</td>
                    <td className="cell-controls">
                      {!readOnly && (
                        <>
                          <button type="button" className="icon-button" aria-label={`Edit logger ${logger.loggerName}`} onClick={() => setEditing({ index, logger: logger as LoggerValue })}>
                            <Icon name="pencil" size={15} />
                          </button>
                          <button type="button" className="icon-button" aria-label={`Delete logger ${logger.loggerName}`} onClick={() => removeLogger(index)}>
                            <Icon name="trash" size={15} />
                          </button>
                        </>
                      )}
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </Card>
      </fieldset>
      {!readOnly && (
        <div className="settings-actions">
          <span className="settings-dirty" aria-live="polite">{form.isDirty ? 'Unsaved changes.' : ''}</span>
          <SubmitButton isNew={false} saving={form.saving} disabled={!form.canSubmit} />
        </div>
      )}
    </form>
      {editing && (
        <LoggerModal
          logger={editing.logger}
          taken={values.loggers.filter((_, i) => i !== editing.index).map((l) => l.loggerName)}
          onClose={() => setEditing(null)}
          onSave={(logger) => {
            putLogger(editing.index, logger);
            setEditing(null);
          }}
        />
      )}
    </>
  );
}
