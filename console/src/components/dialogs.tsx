import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { Modal } from './Modal.tsx';

/** The Error alert modal of spec 01 §8: title "Error", the message, a Close button. */
export function ErrorAlertModal({ message, onClose }: { message: ReactNode; onClose: () => void }) {
  const close = useRef<HTMLButtonElement>(null);
  return (
    <Modal
      title="Error"
      tone="danger"
      onClose={onClose}
      onEnter={onClose}
      initialFocus={close}
      footer={
        <button ref={close} type="button" className="button" onClick={onClose}>
          Close
        </button>
      }
    >
      <p className="modal-message">{message}</p>
    </Modal>
  );
}

export interface ConfirmOptions {
  message: ReactNode;
  title?: string;
  confirmLabel?: string;
  cancelLabel?: string;
}

/** A confirmation: Enter (or the confirm button, focused first) confirms, Escape or Cancel declines. */
export function ConfirmModal({ message, title = 'Confirm', confirmLabel = 'Yes', cancelLabel = 'Cancel', danger = false, onConfirm, onCancel }: ConfirmOptions & { danger?: boolean; onConfirm: () => void; onCancel: () => void }) {
  const confirm = useRef<HTMLButtonElement>(null);
  return (
    <Modal
      title={title}
      tone={danger ? 'danger' : 'default'}
      onClose={onCancel}
      onEnter={onConfirm}
      initialFocus={confirm}
      footer={
        <>
          <button type="button" className="button button-secondary" onClick={onCancel}>
            {cancelLabel}
          </button>
          <button ref={confirm} type="button" className={danger ? 'button button-danger' : 'button'} onClick={onConfirm}>
            {confirmLabel}
          </button>
        </>
      }
    >
      <p className="modal-message">{message}</p>
    </Modal>
  );
}

/** The Confirm-deleting modal: the same, worded and coloured for a deletion. */
export function ConfirmDeleteModal(props: ConfirmOptions & { onConfirm: () => void; onCancel: () => void }) {
  return <ConfirmModal title="Confirm deleting" confirmLabel="Delete" {...props} danger />;
}

type Dialog =
  | { kind: 'error'; message: ReactNode; resolve: () => void }
  | { kind: 'confirm' | 'delete'; options: ConfirmOptions; resolve: (ok: boolean) => void };

interface Dialogs {
  confirm(options: ConfirmOptions | string): Promise<boolean>;
  confirmDelete(options: ConfirmOptions | string): Promise<boolean>;
  showError(message: ReactNode): Promise<void>;
}

const DialogContext = createContext<Dialogs | null>(null);

/** Hosts the one open dialog; screens ask for it through useConfirm, useConfirmDelete and useErrorAlert. */
export function DialogProvider({ children }: { children: ReactNode }) {
  const [queue, setQueue] = useState<Dialog[]>([]);
  const push = useCallback((dialog: Dialog) => setQueue((q) => [...q, dialog]), []);
  const done = useCallback(() => setQueue((q) => q.slice(1)), []);

  const value = useMemo<Dialogs>(() => {
    const ask = (kind: 'confirm' | 'delete') => (options: ConfirmOptions | string) =>
      new Promise<boolean>((resolve) => push({ kind, options: typeof options === 'string' ? { message: options } : options, resolve }));
    return {
      confirm: ask('confirm'),
      confirmDelete: ask('delete'),
      showError: (message) => new Promise<void>((resolve) => push({ kind: 'error', message, resolve })),
    };
  }, [push]);

  const current = queue[0];
  let modal: ReactNode = null;
  if (current?.kind === 'error') {
    modal = <ErrorAlertModal message={current.message} onClose={() => (done(), current.resolve())} />;
  } else if (current) {
    const answer = (ok: boolean) => {
      done();
      current.resolve(ok);
    };
    const Component = current.kind === 'delete' ? ConfirmDeleteModal : ConfirmModal;
    modal = <Component {...current.options} onConfirm={() => answer(true)} onCancel={() => answer(false)} />;
  }

  return (
    <DialogContext.Provider value={value}>
      {children}
      {modal}
    </DialogContext.Provider>
  );
}

function useDialogs(): Dialogs {
  const dialogs = useContext(DialogContext);
  if (!dialogs) throw new Error('DialogProvider is missing');
  return dialogs;
}

export const useConfirm = () => useDialogs().confirm;
export const useConfirmDelete = () => useDialogs().confirmDelete;
export const useErrorAlert = () => useDialogs().showError;
