import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Icon } from '../icons.tsx';

/** "Create" for a new item, "Update" for an existing one; disabled per the form conventions. */
export function SubmitButton({ isNew, disabled, saving }: { isNew: boolean; disabled: boolean; saving: boolean }) {
  return (
    <button type="submit" className="button" disabled={disabled} aria-busy={saving || undefined}>
      {saving && <span className="spinner" aria-hidden="true" />}
      {isNew ? 'Create' : 'Update'}
    </button>
  );
}

/** The bar under a form: a back link, a status line, and the buttons. */
export function FormFooter({ backTo, status, children }: { backTo: string; status?: ReactNode; children: ReactNode }) {
  return (
    <div className="form-footer">
      <Link to={backTo} className="button button-secondary">
        <Icon name="chevronLeft" size={14} />
        Back
      </Link>
      <div className="form-footer-status" aria-live="polite">
        {status}
      </div>
      <div className="form-footer-buttons">{children}</div>
    </div>
  );
}
