import { useState } from 'react';
import { useConfirm, useErrorAlert } from './dialogs.tsx';

export interface SwitchProps {
  checked: boolean;
  onChange: (next: boolean) => void;
  /** The accessible name, e.g. "Enabled" or "Enable user bob". */
  label: string;
  disabled?: boolean;
  busy?: boolean;
  id?: string;
}

/** An on/off switch (role="switch"); Space or Enter toggles it. */
export function Switch({ checked, onChange, label, disabled, busy, id }: SwitchProps) {
  return (
    <button
      id={id}
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={label}
      aria-busy={busy || undefined}
      title={label}
      disabled={disabled || busy}
      className={`switch${checked ? ' switch-on' : ''}${busy ? ' switch-busy' : ''}`}
      onClick={() => onChange(!checked)}
    >
      <span className="switch-thumb" />
    </button>
  );
}

export interface ConfirmSwitchProps {
  checked: boolean;
  /** The question for the change about to be made, e.g. next ? "Enable user bob?" : "Disable user bob?". */
  confirmText: (next: boolean) => string;
  onConfirmed: (next: boolean) => Promise<unknown> | void;
  label: string;
  disabled?: boolean;
}

/** A switch that asks first, shows itself busy while the change is made, and shows a failure in the Error alert. */
export function ConfirmSwitch({ checked, confirmText, onConfirmed, label, disabled }: ConfirmSwitchProps) {
  const confirm = useConfirm();
  const showError = useErrorAlert();
  const [busy, setBusy] = useState(false);
  async function change(next: boolean) {
    if (!(await confirm(confirmText(next)))) return;
    setBusy(true);
    try {
      await onConfirmed(next);
    } catch (error) {
      void showError(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  }
  return <Switch checked={checked} onChange={(next) => void change(next)} label={label} disabled={disabled} busy={busy} />;
}
