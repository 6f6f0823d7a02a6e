import { useEffect, useId, useRef, useState } from 'react';
import { Icon } from '../icons.tsx';

export const SEARCH_DEBOUNCE_MS = 800;

/** A search box that searches 800 ms after the last keystroke, or at once on Enter. */
export function SearchBox({ value, onSearch, placeholder, label = 'Search' }: { value: string; onSearch: (text: string) => void; placeholder?: string; label?: string }) {
  const id = useId();
  const [text, setText] = useState(value);
  const timer = useRef<number | undefined>(undefined);
  const latest = useRef(onSearch);
  latest.current = onSearch;

  // Follow changes from outside (clear all filters, Back button).
  useEffect(() => setText((current) => (current.trim() === value ? current : value)), [value]);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  function change(next: string, delay = SEARCH_DEBOUNCE_MS) {
    setText(next);
    window.clearTimeout(timer.current);
    if (delay === 0) latest.current(next);
    else timer.current = window.setTimeout(() => latest.current(next), delay);
  }

  return (
    <div className="search-box">
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <Icon name="search" />
      <input
        id={id}
        type="search"
        value={text}
        placeholder={placeholder}
        autoComplete="off"
        onChange={(e) => change(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            change(text, 0);
          }
        }}
      />
      {text && (
        <button type="button" className="icon-button" aria-label="Clear search" onClick={() => change('', 0)}>
          <Icon name="x" size={14} />
        </button>
      )}
    </div>
  );
}
