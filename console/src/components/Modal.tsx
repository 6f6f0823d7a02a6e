import { useEffect, useId, useRef, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { Icon } from './icons.tsx';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export interface ModalProps {
  title: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  onClose: () => void;
  /** Enter anywhere in the dialog (but on a button or in a text area) runs this. */
  onEnter?: () => void;
  /** Focused when the dialog opens; else its first focusable element. */
  initialFocus?: RefObject<HTMLElement | null>;
  tone?: 'default' | 'danger';
  /** small 420 px, medium 640 px, large 1040 px (a table). */
  size?: 'small' | 'medium' | 'large';
}

/**
 * A modal dialog: focus moves into it and stays there (Tab cycles), Escape closes it, and focus
 * returns to where it was when it closes.
 */
export function Modal({ title, children, footer, onClose, onEnter, initialFocus, tone = 'default', size = 'small' }: ModalProps) {
  const dialog = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const target = initialFocus?.current ?? dialog.current?.querySelector<HTMLElement>(FOCUSABLE) ?? dialog.current;
    target?.focus();
    return () => previous?.focus?.();
  }, []);

  function onKeyDown(event: React.KeyboardEvent) {
    if (event.key === 'Escape') {
      event.stopPropagation();
      close.current();
      return;
    }
    if (event.key === 'Enter' && onEnter) {
      const tag = (event.target as HTMLElement).tagName;
      if (tag !== 'BUTTON' && tag !== 'TEXTAREA' && tag !== 'A') {
        event.preventDefault();
        onEnter();
      }
      return;
    }
    if (event.key !== 'Tab' || !dialog.current) return;
    const items = [...dialog.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    if (items.length === 0) {
      event.preventDefault();
      return;
    }
    const first = items[0];
    const last = items[items.length - 1];
    if (event.shiftKey && (document.activeElement === first || document.activeElement === dialog.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }

  return createPortal(
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={dialog}
        className={`modal modal-${size} modal-${tone}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <div className="modal-header">
          <h2 id={titleId}>
            {tone === 'danger' && <Icon name="alert" size={18} />}
            {title}
          </h2>
          <button type="button" className="icon-button" aria-label="Dismiss" onClick={onClose}>
            <Icon name="x" />
          </button>
        </div>
        <div className="modal-body">{children}</div>
        {footer && <div className="modal-footer">{footer}</div>}
      </div>
    </div>,
    document.body,
  );
}
