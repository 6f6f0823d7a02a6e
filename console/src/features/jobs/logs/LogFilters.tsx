import { useEffect, useId, useRef, useState } from 'react';
import { DEFAULT_LOG_VIEW, FILTER_TYPES, LOG_FILTER_DEBOUNCE_MS, PICKER_FORMAT, QUICK_RANGES, parsePickerText, toPickerText, type FilterType, type LogView } from './logQuery.ts';

export interface LogFiltersProps {
  id: string;
  view: LogView;
  onChange: (change: Partial<LogView>) => void;
  /** The API's message about the filter text (a regular expression that does not compile ...). */
  textError?: string;
}

/**
 * The filters of the log (spec 01 §2.9): the text (applied 800 ms after the last keystroke, or
 * at once on Enter) with its filter type, quick ranges, case-sensitive and regular-expression
 * toggles, and a start and an end date and time, each with its enable flag.
 */
export function LogFilters({ id, view, onChange, textError }: LogFiltersProps) {
  const textId = useId();
  const typeId = useId();
  const errorId = useId();
  const [text, setText] = useState(view.text);
  const timer = useRef<number | undefined>(undefined);
  const latest = useRef(onChange);
  latest.current = onChange;

  useEffect(() => setText((current) => (current === view.text ? current : view.text)), [view.text]);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  function changeText(next: string, delay = LOG_FILTER_DEBOUNCE_MS) {
    setText(next);
    window.clearTimeout(timer.current);
    if (delay === 0) latest.current({ text: next });
    else timer.current = window.setTimeout(() => latest.current({ text: next }), delay);
  }

  const now = () => Date.now();
  return (
    <div id={id} className="log-filters" role="region" aria-label="Log filters">
      <div className="log-filter-row">
        <div className="log-filter-text">
          <label htmlFor={textId}>Filter text</label>
          <input
            id={textId}
            type="search"
            value={text}
            autoComplete="off"
            spellCheck={false}
            placeholder={view.regex ? 'Regular expression' : 'Text the line contains'}
            aria-invalid={textError ? true : undefined}
            aria-describedby={textError ? errorId : undefined}
            onChange={(e) => changeText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                changeText(text, 0);
              }
            }}
          />
          {textError && (
            <span id={errorId} className="field-error" role="alert">
              {textError}
            </span>
          )}
        </div>
        <div className="log-control">
          <label htmlFor={typeId}>Filter type</label>
          <select id={typeId} value={view.filterType} onChange={(e) => onChange({ filterType: e.target.value as FilterType })}>
            {FILTER_TYPES.map((type) => (
              <option key={type.value} value={type.value}>
                {type.label}
              </option>
            ))}
          </select>
        </div>
        <label className="log-check">
          <input type="checkbox" checked={view.caseSensitive} onChange={(e) => onChange({ caseSensitive: e.target.checked })} />
          Case sensitive
        </label>
        <label className="log-check">
          <input type="checkbox" checked={view.regex} onChange={(e) => onChange({ regex: e.target.checked })} />
          Regular expression
        </label>
      </div>

      <div className="log-filter-row">
        <div className="log-quick-ranges" role="group" aria-label="Quick ranges">
          {QUICK_RANGES.map((range) => (
            <button
              key={range.label}
              type="button"
              className="button button-secondary"
              onClick={() => onChange({ fromEnabled: true, from: toPickerText(now() - range.minutes * 60_000), toEnabled: false })}
            >
              {range.label}
            </button>
          ))}
        </div>
        <TimeEdge
          label="Start"
          enabled={view.fromEnabled}
          value={view.from}
          onEnabled={(on) => onChange({ fromEnabled: on, from: view.from || toPickerText(now() - 3_600_000) })}
          onValue={(from) => onChange({ from })}
        />
        <TimeEdge
          label="End"
          enabled={view.toEnabled}
          value={view.to}
          onEnabled={(on) => onChange({ toEnabled: on, to: view.to || toPickerText(now()) })}
          onValue={(to) => onChange({ to })}
        />
        <button
          type="button"
          className="link-button"
          onClick={() => {
            changeText('', 0);
            const { text: _text, filterType, caseSensitive, regex, fromEnabled, from, toEnabled, to } = DEFAULT_LOG_VIEW;
            onChange({ filterType, caseSensitive, regex, fromEnabled, from, toEnabled, to });
          }}
        >
          Clear filters
        </button>
      </div>
    </div>
  );
}

function TimeEdge({ label, enabled, value, onEnabled, onValue }: { label: string; enabled: boolean; value: string; onEnabled: (on: boolean) => void; onValue: (value: string) => void }) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  const invalid = enabled && text !== '' && parsePickerText(text) === undefined;
  return (
    <div className="log-time-edge">
      <label className="log-check">
        <input type="checkbox" checked={enabled} onChange={(e) => onEnabled(e.target.checked)} />
        {label}
      </label>
      <input
        type="text"
        inputMode="numeric"
        className="log-time-input"
        aria-label={`${label} date and time`}
        placeholder={PICKER_FORMAT}
        title={`${label} (${PICKER_FORMAT})`}
        value={text}
        disabled={!enabled}
        aria-invalid={invalid || undefined}
        onChange={(e) => {
          setText(e.target.value);
          // Applied once it reads as a date: a half-typed one does not empty the log.
          if (parsePickerText(e.target.value) !== undefined) onValue(e.target.value);
        }}
      />
    </div>
  );
}
