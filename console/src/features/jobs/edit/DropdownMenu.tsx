import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Icon } from '../../../components/icons.tsx';

export type MenuItem = { label: string; onSelect: () => void; disabled?: boolean; hint?: string } | { label: string; href: string; external: true };

/**
 * A labelled button with a menu of actions, opening upwards (it sits in the footer bar). Escape,
 * Tab, a click outside or a choice closes it; the arrows move between the items.
 */
export function DropdownMenu({ label, items, disabled }: { label: ReactNode; items: readonly MenuItem[]; disabled?: boolean }) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menuId = useId();

  useEffect(() => {
    if (!open) return;
    root.current?.querySelector<HTMLElement>('[role="menuitem"]:not([aria-disabled="true"])')?.focus();
    const onPointer = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onPointer);
    return () => document.removeEventListener('mousedown', onPointer);
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  function onKeyDown(event: KeyboardEvent) {
    if (event.key === 'Escape' || event.key === 'Tab') {
      if (event.key === 'Escape') event.preventDefault();
      close();
      return;
    }
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    const entries = [...(root.current?.querySelectorAll<HTMLElement>('[role="menuitem"]:not([aria-disabled="true"])') ?? [])];
    const at = entries.indexOf(document.activeElement as HTMLElement);
    entries[event.key === 'ArrowDown' ? (at + 1) % entries.length : (at - 1 + entries.length) % entries.length]?.focus();
  }

  return (
    <div className="dropdown" ref={root} onKeyDown={open ? onKeyDown : undefined}>
      <button
        ref={button}
        type="button"
        className="button button-secondary"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        disabled={disabled}
        onClick={() => setOpen((o) => !o)}
      >
        {label}
        <Icon name="chevronDown" size={14} />
      </button>
      {open && (
        <div className="dropdown-menu" role="menu" id={menuId}>
          {items.map((item) =>
            'href' in item ? (
              <a key={item.label} role="menuitem" className="dropdown-item" href={item.href} target="_blank" rel="noreferrer" onClick={() => setOpen(false)}>
                {item.label}
              </a>
            ) : (
              <button
                key={item.label}
                type="button"
                role="menuitem"
                className="dropdown-item"
                aria-disabled={item.disabled || undefined}
                title={item.disabled ? item.hint : undefined}
                onClick={() => {
                  if (item.disabled) return;
                  setOpen(false);
                  item.onSelect();
                }}
              >
                {item.label}
              </button>
            ),
          )}
        </div>
      )}
    </div>
  );
}
