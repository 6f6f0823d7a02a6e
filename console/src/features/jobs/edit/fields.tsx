import { useId, type ReactNode } from 'react';
import { Field } from '../../../components/form/Field.tsx';
import { Icon } from '../../../components/icons.tsx';
import { Switch } from '../../../components/Switch.tsx';
import { useJobEdit } from './context.ts';
import { getAt, type Path } from './useJobForm.ts';

/** What an emptied input stores: absent (the schema's default applies) or null (none). */
type Empty = 'undefined' | 'null';
const emptyValue = (empty: Empty) => (empty === 'null' ? null : undefined);

interface BaseProps {
  path: Path;
  label: ReactNode;
  required?: boolean;
  hint?: ReactNode;
  disabled?: boolean;
  className?: string;
}

/** The value at a path, and its setter, for the form of the screen. */
export function useFieldValue<T>(path: Path): [T, (value: unknown) => void] {
  const { form } = useJobEdit();
  return [getAt(form.values, path) as T, (value) => form.set(path, value)];
}

export function TextField({
  path,
  label,
  required,
  hint,
  disabled,
  className,
  placeholder,
  type = 'text',
  empty = 'undefined',
  keepEmpty = false,
  eager = false,
}: BaseProps & { placeholder?: string; type?: string; empty?: Empty; keepEmpty?: boolean; /** A warning: shown while typing, not only once the field is left. */ eager?: boolean }) {
  const { form } = useJobEdit();
  const value = getAt(form.values, path) as string | null | undefined;
  return (
    <Field label={label} required={required} error={form.errorOf(path) ?? (eager ? form.errors[path] : undefined)} hint={hint} className={className}>
      <input
        type={type}
        name={path}
        value={value ?? ''}
        placeholder={placeholder}
        disabled={disabled}
        autoComplete={type === 'password' ? 'new-password' : 'off'}
        onChange={(e) => form.set(path, e.target.value === '' && !keepEmpty ? emptyValue(empty) : e.target.value)}
        onBlur={() => form.touch(path)}
      />
    </Field>
  );
}

export function NumberField({ path, label, required, hint, disabled, className, placeholder, min, max, step = 1, empty = 'undefined' }: BaseProps & { placeholder?: string; min?: number; max?: number; step?: number; empty?: Empty }) {
  const { form } = useJobEdit();
  const value = getAt(form.values, path) as number | null | undefined;
  return (
    <Field label={label} required={required} error={form.errorOf(path)} hint={hint} className={className}>
      <input
        type="number"
        inputMode={step < 1 ? 'decimal' : 'numeric'}
        name={path}
        value={value === null || value === undefined || Number.isNaN(value) ? '' : value}
        placeholder={placeholder}
        min={min}
        max={max}
        step={step}
        disabled={disabled}
        onChange={(e) => form.set(path, e.target.value === '' ? emptyValue(empty) : Number(e.target.value))}
        onBlur={() => form.touch(path)}
      />
    </Field>
  );
}

export interface Option {
  value: string | number;
  label: string;
}

export function SelectField({
  path,
  label,
  required,
  hint,
  disabled,
  className,
  options,
  placeholder,
  numeric = false,
  empty = 'undefined',
  clearable = false,
  clearButton = false,
  onChange,
}: BaseProps & {
  options: readonly Option[];
  placeholder?: string;
  numeric?: boolean;
  empty?: Empty;
  /** The placeholder is a choice of its own (e.g. "None"). */
  clearable?: boolean;
  /** A clear control beside the select empties it (its placeholder then shows). */
  clearButton?: boolean;
  onChange?: (value: unknown) => void;
}) {
  const { form } = useJobEdit();
  const value = getAt(form.values, path) as string | number | null | undefined;
  const isEmpty = value === null || value === undefined || value === '';
  const select = (
    <select
      name={path}
      value={isEmpty ? '' : String(value)}
      disabled={disabled}
      className={isEmpty && placeholder && !clearable ? 'is-placeholder' : undefined}
      onChange={(e) => {
        const next = e.target.value === '' ? emptyValue(empty) : numeric ? Number(e.target.value) : e.target.value;
        if (onChange) onChange(next);
        else form.set(path, next);
      }}
      onBlur={() => form.touch(path)}
    >
      {placeholder !== undefined && (
        <option value="" disabled={!clearable} hidden={!clearable}>
          {placeholder}
        </option>
      )}
      {options.map((option) => (
        <option key={option.value} value={String(option.value)}>
          {option.label}
        </option>
      ))}
    </select>
  );
  if (!clearButton || isEmpty || disabled)
    return (
      <Field label={label} required={required} error={form.errorOf(path)} hint={hint} className={className}>
        {select}
      </Field>
    );
  return (
    <div className={`field-with-clear${className ? ` ${className}` : ''}`}>
      <Field label={label} required={required} error={form.errorOf(path)} hint={hint}>
        {select}
      </Field>
      <button type="button" className="icon-button field-clear" aria-label={`Clear ${typeof label === 'string' ? label : ''}`.trim()} title="Clear" onClick={() => form.set(path, emptyValue(empty))}>
        <Icon name="x" size={14} />
      </button>
    </div>
  );
}

/** A checkbox with its label at its right, and its message under it. */
export function CheckField({ path, label, disabled, hint, onChange }: BaseProps & { onChange?: (checked: boolean) => void }) {
  const { form } = useJobEdit();
  const id = useId();
  const checked = Boolean(getAt(form.values, path));
  const error = form.errorOf(path);
  return (
    <div className={`field field-check${error ? ' has-error' : ''}`}>
      <span className="check-label">
        <input
          id={id}
          type="checkbox"
          name={path}
          checked={checked}
          disabled={disabled}
          aria-invalid={error ? true : undefined}
          onChange={(e) => (onChange ? onChange(e.target.checked) : form.set(path, e.target.checked))}
          onBlur={() => form.touch(path)}
        />
        <label htmlFor={id}>{label}</label>
      </span>
      {error ? (
        <div className="field-error" role="alert">
          {error}
        </div>
      ) : hint ? (
        <div className="field-hint">{hint}</div>
      ) : null}
    </div>
  );
}

/** An on/off switch with a visible label at its right. */
export function SwitchField({ path, label, disabled, hint, onChange }: BaseProps & { label: string; onChange?: (on: boolean) => void }) {
  const { form } = useJobEdit();
  const id = useId();
  const checked = Boolean(getAt(form.values, path));
  const error = form.errorOf(path);
  return (
    <div className={`field field-check${error ? ' has-error' : ''}`}>
      <span className="check-label">
        <Switch id={id} checked={checked} label={label} disabled={disabled} onChange={(on) => (onChange ? onChange(on) : form.set(path, on))} />
        <label htmlFor={id}>{label}</label>
      </span>
      {error ? (
        <div className="field-error" role="alert">
          {error}
        </div>
      ) : hint ? (
        <div className="field-hint">{hint}</div>
      ) : null}
    </div>
  );
}

/** A message of the schema on a whole list (e.g. "outputs", "subtitles"). */
export function ListError({ path }: { path: Path }) {
  const { form } = useJobEdit();
  // A list's rule follows from adding, removing or switching items: it shows at once.
  const error = form.errorOf(path) ?? form.errors[path];
  return error ? (
    <div className="notice notice-error" role="alert">
      {error}
    </div>
  ) : null;
}

/** A row of fields that wraps on narrow screens. */
export function FieldRow({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={`job-fields${className ? ` ${className}` : ''}`}>{children}</div>;
}

/** A titled group of fields inside a sub-tab. */
export function Section({ title, children, actions }: { title: ReactNode; children: ReactNode; actions?: ReactNode }) {
  return (
    <section className="job-section">
      <div className="job-section-header">
        <h3>{title}</h3>
        {actions}
      </div>
      {children}
    </section>
  );
}
