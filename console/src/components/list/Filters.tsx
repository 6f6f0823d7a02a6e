import { useEffect, useId, useRef, useState } from 'react';
import { Icon } from '../icons.tsx';

export interface FilterOption {
  value: string;
  label: string;
}

export interface FilterDefinition {
  key: string;
  label: string;
  options: readonly FilterOption[];
  /** Several values at once (a multi-select); otherwise one or none. */
  multiple?: boolean;
}

/** A single-select filter: one value, or all. */
export function SelectFilter({ filter, value, onChange }: { filter: FilterDefinition; value: string | undefined; onChange: (values: string[]) => void }) {
  const id = useId();
  return (
    <div className="filter">
      <label htmlFor={id} className="filter-label">
        {filter.label}
      </label>
      <select id={id} value={value ?? ''} onChange={(e) => onChange(e.target.value ? [e.target.value] : [])}>
        <option value="">All</option>
        {filter.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A multi-select filter: a button that opens a list of check boxes. */
export function MultiSelectFilter({ filter, values, onChange }: { filter: FilterDefinition; values: string[]; onChange: (values: string[]) => void }) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: MouseEvent) => root.current && !root.current.contains(event.target as Node) && setOpen(false);
    document.addEventListener('mousedown', onPointer);
    return () => document.removeEventListener('mousedown', onPointer);
  }, [open]);

  const summary =
    values.length === 0 ? 'All' : values.length === 1 ? (filter.options.find((o) => o.value === values[0])?.label ?? values[0]) : `${values.length} selected`;
  const toggle = (value: string, on: boolean) => onChange(on ? [...values, value] : values.filter((v) => v !== value));

  return (
    <div
      className="filter multi-filter"
      ref={root}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          e.stopPropagation();
          setOpen(false);
          button.current?.focus();
        }
      }}
    >
      <span className="filter-label" aria-hidden="true">
        {filter.label}
      </span>
      <button
        ref={button}
        type="button"
        className={`multi-filter-button${values.length ? ' is-active' : ''}`}
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={`${filter.label}: ${summary}`}
        onClick={() => setOpen((o) => !o)}
      >
        <span>{summary}</span>
        <Icon name="chevronDown" size={14} />
      </button>
      {open && (
        <div className="multi-filter-panel" id={panelId} role="group" aria-label={filter.label}>
          {filter.options.map((option) => {
            const optionId = `${panelId}-${option.value}`;
            return (
              <div key={option.value} className="check-row">
                <input id={optionId} type="checkbox" checked={values.includes(option.value)} onChange={(e) => toggle(option.value, e.target.checked)} />
                <label htmlFor={optionId}>{option.label}</label>
              </div>
            );
          })}
          <div className="multi-filter-actions">
            <button type="button" className="link-button" disabled={values.length === 0} onClick={() => onChange([])}>
              Clear
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
