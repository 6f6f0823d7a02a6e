import { useEffect, useState } from 'react';
import type { Schemas } from '../../data/client.ts';
import { useTaskChoices } from '../../data/timers/queries.ts';
import { Icon } from '../../components/icons.tsx';

/** The tasks a timer acts on: the chosen ones as chips, a search over the relays or encodings to add more. None chosen: ALL. */
export function TaskPicker({ kind, value, onChange, disabled }: { kind: 'relay' | 'encoding'; value: Schemas['TimerJob'][]; onChange: (jobs: Schemas['TimerJob'][]) => void; disabled?: boolean }) {
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = window.setTimeout(() => setSearch(text.trim()), 800);
    return () => window.clearTimeout(timer);
  }, [text]);
  const choices = useTaskChoices(kind, search);
  const chosen = new Set(value.map((job) => job.id));
  const noun = kind === 'relay' ? 'relays' : 'encodings';

  return (
    <div className="task-picker">
      <div className="task-chips" aria-label="Chosen tasks">
        {value.length === 0 ? (
          <span className="badge badge-primary">ALL</span>
        ) : (
          value.map((job) => (
            <span key={job.id} className="task-chip">
              {job.name} <span className="muted">({job.id})</span>
              {!disabled && (
                <button type="button" className="icon-button" aria-label={`Remove ${job.name}`} onClick={() => onChange(value.filter((j) => j.id !== job.id))}>
                  <Icon name="x" size={12} />
                </button>
              )}
            </span>
          ))
        )}
      </div>
      {!disabled && (
        <>
          <input type="search" className="task-search" aria-label={`Search ${noun}`} placeholder={`Search ${noun} by name or ID`} value={text} onChange={(e) => setText(e.target.value)} />
          <ul className="task-choices" aria-label={`${kind === 'relay' ? 'Relays' : 'Encodings'} to choose`}>
            {choices.data?.items.map((job) => (
              <li key={job.id}>
                <label className="check-label">
                  <input
                    type="checkbox"
                    checked={chosen.has(job.id)}
                    onChange={(e) => onChange(e.target.checked ? [...value, { id: job.id, name: job.name }] : value.filter((j) => j.id !== job.id))}
                  />
                  {job.name} <span className="muted">({job.id})</span>
                </label>
              </li>
            ))}
            {choices.data?.items.length === 0 && <li className="muted">No {noun}</li>}
            {choices.isError && <li className="field-error">The {noun} could not be listed.</li>}
          </ul>
        </>
      )}
    </div>
  );
}
