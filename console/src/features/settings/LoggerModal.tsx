import { useState } from 'react';
import { LOG_LEVEL_NAMES } from '../../../../openapi/schemas/jobs.ts';
import { Field } from '../../components/form/Field.tsx';
import { Modal } from '../../components/Modal.tsx';

export type LoggerValue = { id?: number; loggerName: string; logLevel: (typeof LOG_LEVEL_NAMES)[number] };

/** The add-logger and edit-logger modal: a name and a level. Taken names are refused here, as the server does. */
export function LoggerModal({ logger, taken, onSave, onClose }: { logger?: LoggerValue; taken: string[]; onSave: (value: LoggerValue) => void; onClose: () => void }) {
  const [loggerName, setName] = useState(logger?.loggerName ?? '');
  const [logLevel, setLevel] = useState<LoggerValue['logLevel']>(logger?.logLevel ?? 'INFO');
  const [touched, setTouched] = useState(false);
  const name = loggerName.trim();
  const error = !name ? 'Logger name is required' : name.length > 200 ? 'Logger name must be at most 200 characters' : taken.includes(name) ? 'Each logger name may appear once' : undefined;
  const save = () => {
    setTouched(true);
    if (!error) onSave({ ...(logger?.id ? { id: logger.id } : {}), loggerName: name, logLevel });
  };
  return (
    <Modal
      title={logger ? 'Edit logger' : 'Add logger'}
      onClose={onClose}
      onEnter={save}
      footer={
        <>
          <button type="button" className="button button-secondary" onClick={onClose}>
            Close
          </button>
          <button type="button" className="button" onClick={save} disabled={touched && Boolean(error)}>
            {logger ? 'Update' : 'Create'}
          </button>
        </>
      }
    >
      <div className="form-grid form-grid-single">
        <Field label="Logger name" required error={touched ? error : undefined}>
          <input name="loggerName" autoComplete="off" spellCheck={false} value={loggerName} onChange={(e) => setName(e.target.value)} onBlur={() => setTouched(true)} />
        </Field>
        <Field label="Log level">
          <select name="logLevel" value={logLevel} onChange={(e) => setLevel(e.target.value as LoggerValue['logLevel'])}>
            {LOG_LEVEL_NAMES.map((level) => (
              <option key={level}>{level}</option>
            ))}
          </select>
        </Field>
      </div>
    </Modal>
  );
}
