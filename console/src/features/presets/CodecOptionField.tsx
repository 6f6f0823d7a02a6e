import { Field } from '../../components/form/Field.tsx';
import { Icon } from '../../components/icons.tsx';
import type { CodecOption } from '../../data/presets/queries.ts';

export interface CodecOptionFieldProps {
  option: CodecOption;
  /** As the input holds it; undefined: not set (the encoder's default). */
  value: string | boolean | undefined;
  onChange: (value: string | boolean | undefined) => void;
  onBlur: () => void;
  error?: string;
  disabled?: boolean;
}

/** A slider only where the span is one a hand can pick from; otherwise the number alone. */
const SLIDER_SPAN = 100_000;

const formatLimit = (n: number | undefined) => (n === undefined ? '' : Math.abs(n) >= 1e9 ? n.toExponential(2) : String(n));

/** ffmpeg's -1 (and INT_MIN) defaults mean "the encoder decides". */
const shownDefault = (value: string | undefined) => (value === undefined ? undefined : value === '-1' || value === 'INT_MIN' ? 'auto' : value);

/**
 * One codec option as ffmpeg describes it: a select of its values, a range (slider and number
 * between the codec's minimum and maximum), a checkbox, or free text. An option left alone is not
 * sent, so the encoder's default applies; "Default" names it.
 */
export function CodecOptionField({ option, value, onChange, onBlur, error, disabled }: CodecOptionFieldProps) {
  const isSet = value !== undefined && value !== '';
  const fallbackText = shownDefault(option.default);
  const defaultHint = fallbackText !== undefined ? `Default: ${fallbackText}` : 'Encoder default';
  const hint = (
    <span className="codec-option-hint">
      {option.type === 'range' ? `${formatLimit(option.min)} to ${formatLimit(option.max)}. ` : ''}
      {defaultHint}
      {isSet && !disabled && (
        <button type="button" className="link-button" onClick={() => onChange(undefined)} aria-label={`Reset ${option.label} to the default`}>
          Reset
        </button>
      )}
    </span>
  );
  const label = (
    <span title={option.description}>
      {option.label} <span className="muted codec-option-name">-{option.name}</span>
    </span>
  );

  switch (option.type) {
    case 'select':
      return (
        <Field label={label} error={error} hint={hint}>
          <select value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value || undefined)} onBlur={onBlur} aria-label={option.label}>
            <option value="">{fallbackText !== undefined ? `Default (${fallbackText})` : 'Default'}</option>
            {(option.values ?? []).map((v) => (
              <option key={v.value} value={v.value}>
                {v.label}
              </option>
            ))}
          </select>
        </Field>
      );
    case 'range': {
      const min = option.min ?? 0;
      const max = option.max ?? 0;
      const slider = Number.isFinite(max - min) && max - min <= SLIDER_SPAN;
      const current = typeof value === 'string' && value !== '' ? value : '';
      const fallback = option.default !== undefined && Number.isFinite(Number(option.default)) && Number(option.default) >= min ? option.default : String(min);
      return (
        <Field label={label} error={error} hint={hint}>
          <div className="range-input">
            {slider && (
              <input
                type="range"
                min={min}
                max={max}
                step={option.step ?? 1}
                value={current || fallback}
                disabled={disabled}
                aria-label={`${option.label} slider`}
                className={isSet ? undefined : 'is-unset'}
                onChange={(e) => onChange(e.target.value)}
                onBlur={onBlur}
              />
            )}
            <input
              type="number"
              inputMode="decimal"
              min={min}
              max={max}
              step={option.step ?? 1}
              value={current}
              placeholder={fallbackText ?? ''}
              aria-label={option.label}
              onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
              onBlur={onBlur}
            />
          </div>
        </Field>
      );
    }
    case 'checkbox': {
      const checked = typeof value === 'boolean' ? value : option.default === 'true' || option.default === '1';
      return (
        <div className={`field codec-option-checkbox${error ? ' has-error' : ''}`}>
          <label className="check-row">
            <input type="checkbox" checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} onBlur={onBlur} />
            {label}
          </label>
          {error ? (
            <div className="field-error" role="alert">
              {error}
            </div>
          ) : (
            <div className="field-hint">
              {isSet ? (
                hint
              ) : (
                <span className="codec-option-hint">
                  <Icon name="info" size={12} /> {defaultHint}
                </span>
              )}
            </div>
          )}
        </div>
      );
    }
    default:
      return (
        <Field label={label} error={error} hint={hint}>
          <input type="text" value={typeof value === 'string' ? value : ''} placeholder={option.name.endsWith('-params') ? 'key=value:key=value' : ''} aria-label={option.label} onChange={(e) => onChange(e.target.value || undefined)} onBlur={onBlur} />
        </Field>
      );
  }
}
