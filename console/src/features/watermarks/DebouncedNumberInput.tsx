import { forwardRef, useEffect, useRef, useState, type InputHTMLAttributes } from 'react';

/** Spec 03 §5: the watermark's number inputs take effect 800 ms after the last keystroke. */
export const INPUT_DEBOUNCE_MS = 800;

export interface DebouncedNumberInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'type'> {
  value: string;
  /** Called 800 ms after typing stops, or at once on Enter or when the input is left. */
  onCommit: (value: string) => void;
}

/**
 * A number input that holds what is typed and hands it on once typing has settled, so the preview
 * and the fields that follow from it (the other side of the size, the position's maximum) do not
 * jump at every keystroke. A value set from outside (a slider, the other side) shows at once.
 */
export const DebouncedNumberInput = forwardRef<HTMLInputElement, DebouncedNumberInputProps>(function DebouncedNumberInput({ value, onCommit, onBlur, onKeyDown, ...rest }, ref) {
  const [text, setText] = useState(value);
  const timer = useRef<number | undefined>(undefined);
  const latest = useRef(onCommit);
  latest.current = onCommit;
  const pending = useRef(false);

  useEffect(() => {
    if (!pending.current) setText(value);
  }, [value]);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const commit = (next: string) => {
    window.clearTimeout(timer.current);
    pending.current = false;
    if (next !== value) latest.current(next);
  };

  return (
    <input
      ref={ref}
      {...rest}
      type="number"
      inputMode="numeric"
      value={text}
      onChange={(e) => {
        const next = e.target.value;
        setText(next);
        pending.current = true;
        window.clearTimeout(timer.current);
        timer.current = window.setTimeout(() => commit(next), INPUT_DEBOUNCE_MS);
      }}
      onBlur={(e) => {
        if (pending.current) commit(text);
        onBlur?.(e);
      }}
      onKeyDown={(e) => {
        if (e.key === 'Enter' && pending.current) commit(text);
        onKeyDown?.(e);
      }}
    />
  );
});
