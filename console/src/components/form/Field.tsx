import { cloneElement, isValidElement, useId, type ReactElement, type ReactNode } from 'react';

interface FieldProps {
  label: ReactNode;
  /** The message under the field (zod or server). */
  error?: string;
  hint?: ReactNode;
  required?: boolean;
  /** One input/select/textarea: it gets the id, aria-invalid and aria-describedby. */
  children: ReactElement<Record<string, unknown>>;
  className?: string;
}

/** A labelled form field with its message underneath; the label is bound to the input (htmlFor). */
export function Field({ label, error, hint, required, children, className }: FieldProps) {
  const generated = useId();
  const id = (isValidElement(children) && (children.props.id as string | undefined)) || generated;
  const messageId = `${id}-message`;
  const input = cloneElement(children, {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error || hint ? messageId : undefined,
    'aria-required': required || undefined,
  });
  return (
    <div className={`field${error ? ' has-error' : ''}${className ? ` ${className}` : ''}`}>
      <div className="field-label-row">
        <label htmlFor={id} className="field-label">
          {label}
        </label>
        {required && (
          <span className="required-mark" aria-hidden="true">
            *
          </span>
        )}
      </div>
      {input}
      {error ? (
        <div id={messageId} className="field-error" role="alert">
          {error}
        </div>
      ) : hint ? (
        <div id={messageId} className="field-hint">
          {hint}
        </div>
      ) : null}
    </div>
  );
}
