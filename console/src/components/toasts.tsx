import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { Icon } from './icons.tsx';

type Tone = 'success' | 'error' | 'info';
interface Toast {
  id: number;
  tone: Tone;
  message: ReactNode;
}

interface Toaster {
  success(message: ReactNode): void;
  error(message: ReactNode): void;
  info(message: ReactNode): void;
}

const ToastContext = createContext<Toaster | null>(null);
const LIFETIME_MS = 4000;

/** Short notices in the corner, read out by screen readers, gone after a few seconds. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((t) => t.id !== id)), []);
  const show = useCallback(
    (tone: Tone, message: ReactNode) => {
      const id = next.current++;
      setToasts((list) => [...list.slice(-3), { id, tone, message }]);
      window.setTimeout(() => dismiss(id), tone === 'error' ? LIFETIME_MS * 2 : LIFETIME_MS);
    },
    [dismiss],
  );
  const toaster = useMemo<Toaster>(() => ({ success: (m) => show('success', m), error: (m) => show('error', m), info: (m) => show('info', m) }), [show]);

  return (
    <ToastContext.Provider value={toaster}>
      {children}
      <div className="toasts" role="status" aria-live="polite">
        {toasts.map((toast) => (
          <div key={toast.id} className={`toast toast-${toast.tone}`}>
            <Icon name={toast.tone === 'success' ? 'check' : toast.tone === 'error' ? 'alert' : 'info'} />
            <span>{toast.message}</span>
            <button type="button" className="icon-button" aria-label="Dismiss notice" onClick={() => dismiss(toast.id)}>
              <Icon name="x" size={14} />
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export function useToast(): Toaster {
  const toaster = useContext(ToastContext);
  if (!toaster) throw new Error('ToastProvider is missing');
  return toaster;
}
