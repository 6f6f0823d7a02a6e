import { DAY_NAMES, DAYS_OF_WEEK, TIMER_ACTIONS, TIMER_TASK_TYPES, TIMER_TYPES, TimerWrite } from '../../../../openapi/schemas/timers.ts';
import { useErrorAlert } from '../../components/dialogs.tsx';
import { Field } from '../../components/form/Field.tsx';
import { FormFooter, SubmitButton } from '../../components/form/FormFooter.tsx';
import { FieldErrorsError, useZodForm } from '../../components/form/useZodForm.ts';
import { Card } from '../../components/Page.tsx';
import { Switch } from '../../components/Switch.tsx';
import { fieldErrorsOf, messageOf, type Schemas } from '../../data/client.ts';
import { TaskPicker } from './TaskPicker.tsx';
import { clockText, localTimeOf, to12Hour, to24Hour, toPayload, type Period, type TimerFormValues } from './timerFormModel.ts';
import { useHour12 } from './useHour12.ts';

const HOURS = Array.from({ length: 24 }, (_, i) => String(i).padStart(2, '0'));
/** The 12-hour clock's hours, as a clock reads them from midnight (or noon). */
const HOURS_12 = ['12', ...HOURS.slice(1, 12)];
const MINUTES = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));
const options = (record: Record<string, string>) => Object.entries(record);

export interface TimerFormProps {
  initial: TimerFormValues;
  isNew: boolean;
  readOnly: boolean;
  /** The server's zone, as the list tells it. */
  zone?: { timeZone: string; utcOffset: string };
  save: (payload: Schemas['TimerWrite']) => Promise<TimerFormValues | void>;
}

/** The timer form: name, action, type and time (hours hidden for HOURLY), days or date, the tasks. */
export function TimerForm({ initial, isNew, readOnly, zone, save }: TimerFormProps) {
  const showError = useErrorAlert();
  const form = useZodForm<TimerFormValues>({ initial, schema: TimerWrite, toPayload, saved: !isNew });
  const { values, set, touch, errorOf } = form;
  const submit = form.formProps(async (payload) => {
    try {
      return await save(payload as Schemas['TimerWrite']);
    } catch (error) {
      const fields = fieldErrorsOf(error);
      const mapped = Object.fromEntries(Object.entries(fields).map(([path, message]) => [path.replace(/^jobs\.\d+$/, 'jobs'), message]));
      if (Object.keys(mapped).length > 0) throw new FieldErrorsError(messageOf(error), mapped);
      void showError(messageOf(error));
      throw error;
    }
  });
  const [hour12, setHour12] = useHour12();
  const hourly = values.type === 'HOURLY';
  const time = hourly ? values.minute : `${values.hour}:${values.minute}`;
  const shown = to12Hour(values.hour);

  return (
    <form className="form" {...submit} aria-label={isNew ? 'Add timer' : `Timer ${initial.name}`}>
      <fieldset className="form-fieldset" disabled={readOnly}>
        <Card title="Timer">
          <div className="form-grid">
            <Field label="Name" required error={errorOf('name')}>
              <input name="name" value={values.name} autoComplete="off" maxLength={200} onChange={(e) => set('name', e.target.value)} onBlur={() => touch('name')} />
            </Field>
            <Field label="Action" required error={errorOf('action')}>
              <select name="action" value={values.action} onChange={(e) => set('action', e.target.value as TimerFormValues['action'])}>
                {options(TIMER_ACTIONS).map(([value, name]) => (
                  <option key={value} value={value}>
                    {name}
                  </option>
                ))}
              </select>
            </Field>
            <Field label="Timer Type" required error={errorOf('type')}>
              <select name="type" value={values.type} onChange={(e) => set('type', e.target.value as TimerFormValues['type'])}>
                {options(TIMER_TYPES).map(([value, name]) => (
                  <option key={value} value={value}>
                    {name}
                  </option>
                ))}
              </select>
            </Field>
            <div className={`field timer-time-field${errorOf('time') ? ' has-error' : ''}`}>
              <div className="field-label-row">
                <span className="field-label" id="timer-time-label">
                  Time
                </span>
                <span className="required-mark" aria-hidden="true">
                  *
                </span>
              </div>
              <div className="timer-time-inputs" role="group" aria-labelledby="timer-time-label">
                {!hourly && (
                  <select
                    name="hour"
                    aria-label="Hours"
                    value={hour12 ? shown.hour : values.hour}
                    onChange={(e) => set('hour', hour12 ? to24Hour(e.target.value, shown.period) : e.target.value)}
                    onBlur={() => touch('time')}
                  >
                    {(hour12 ? HOURS_12 : HOURS).map((h) => (
                      <option key={h} value={h}>
                        {h}
                      </option>
                    ))}
                  </select>
                )}
                {!hourly && <span aria-hidden="true">:</span>}
                <select name="minute" aria-label="Minutes" value={values.minute} onChange={(e) => set('minute', e.target.value)} onBlur={() => touch('time')}>
                  {MINUTES.map((m) => (
                    <option key={m} value={m}>
                      {m}
                    </option>
                  ))}
                </select>
                {!hourly && hour12 && (
                  <select name="period" aria-label="AM/PM" className="timer-period" value={shown.period} onChange={(e) => set('hour', to24Hour(shown.hour, e.target.value as Period))} onBlur={() => touch('time')}>
                    <option value="AM">AM</option>
                    <option value="PM">PM</option>
                  </select>
                )}
                {zone && <span className="timer-offset">{zone.utcOffset}</span>}
                <label className="check-label timer-hour12">
                  <input type="checkbox" checked={hour12} onChange={(e) => setHour12(e.target.checked)} />
                  12-hour clock
                </label>
              </div>
              <div className="field-hint">
                {hourly ? 'Every hour at this minute.' : null} Server time{zone ? ` (${zone.timeZone})` : ''}; your local time: {clockText(localTimeOf(time, zone?.utcOffset ?? 'GMT+00:00'), hour12)}.
              </div>
              {errorOf('time') && (
                <div className="field-error" role="alert">
                  {errorOf('time')}
                </div>
              )}
            </div>
            {values.type === 'WEEKLY' && (
              <div className={`field timer-days${errorOf('daysOfWeek') ? ' has-error' : ''}`} role="group" aria-label="Days of week">
                <span className="field-label">Days of week</span>
                <div className="check-row">
                  {DAYS_OF_WEEK.map((day) => (
                    <label key={day} className="check-label">
                      <input
                        type="checkbox"
                        checked={values.daysOfWeek.includes(day)}
                        onChange={(e) => {
                          set('daysOfWeek', e.target.checked ? [...values.daysOfWeek, day] : values.daysOfWeek.filter((d) => d !== day));
                          touch('daysOfWeek');
                        }}
                      />
                      {DAY_NAMES[day]}
                    </label>
                  ))}
                </div>
                {errorOf('daysOfWeek') && (
                  <div className="field-error" role="alert">
                    {errorOf('daysOfWeek')}
                  </div>
                )}
              </div>
            )}
            {values.type === 'ONCE' && (
              <Field label="Date" required error={errorOf('date')}>
                <input name="date" type="date" value={values.date} onChange={(e) => set('date', e.target.value)} onBlur={() => touch('date')} />
              </Field>
            )}
            <Field label="Tasks Type" required error={errorOf('taskType')}>
              <select
                name="taskType"
                value={values.taskType}
                onChange={(e) => form.setValues((v) => ({ ...v, taskType: e.target.value as TimerFormValues['taskType'], jobs: [] }))}
              >
                {options(TIMER_TASK_TYPES).map(([value, name]) => (
                  <option key={value} value={value}>
                    {name}
                  </option>
                ))}
              </select>
            </Field>
            <div className="field field-switch">
              <span className="field-label">Enabled</span>
              <Switch checked={values.actived} onChange={(on) => set('actived', on)} label="Enabled" />
            </div>
          </div>
        </Card>
        <Card title="Tasks">
          <p className="field-hint">The {values.taskType === 'relay' ? 'relays' : 'encodings'} this timer acts on. None chosen: ALL of them, those added later too.</p>
          <TaskPicker kind={values.taskType} value={values.jobs} onChange={(jobs) => set('jobs', jobs)} disabled={readOnly} />
          {errorOf('jobs') && (
            <div className="field-error" role="alert">
              {errorOf('jobs')}
            </div>
          )}
        </Card>
      </fieldset>
      <FormFooter
        backTo="/my/tools/timers"
        status={readOnly ? 'Read only: you may view timers but not change them.' : form.saving ? 'Saving ...' : !isNew && !form.isDirty ? 'All changes saved.' : form.isDirty && !isNew ? 'Unsaved changes.' : undefined}
      >
        {!readOnly && <SubmitButton isNew={isNew} saving={form.saving} disabled={!form.canSubmit} />}
      </FormFooter>
    </form>
  );
}
