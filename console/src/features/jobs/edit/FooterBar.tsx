import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Icon } from '../../../components/icons.tsx';
import type { JobKind } from '../../../data/jobs/keys.ts';
import { DropdownMenu, type MenuItem } from './DropdownMenu.tsx';

/** The footer bar's title (spec 01 §2.4, §2.6). */
export function jobTitle(kind: JobKind, isTemplate: boolean, job: { id: number; name: string } | undefined): string {
  if (!job) return isTemplate ? 'New template' : kind === 'relay' ? 'New relay' : 'New encoding';
  const noun = isTemplate ? 'Template' : kind === 'relay' ? 'Relay' : 'Encoding';
  // Relays write "(id:5)", encodings "(ID:5)", as the spec spells them.
  return `${noun} ${job.name} (${kind === 'relay' ? 'id' : 'ID'}:${job.id})`;
}

/** The Dev dropdown's links: the job as the API holds it, and the API's reference. */
export function devLinks(kind: JobKind, id: number | undefined): MenuItem[] {
  const base = `/api/${kind}s/${id}`;
  const links: MenuItem[] = id === undefined ? [] : [
    { label: 'Job as JSON', href: base, external: true },
    { label: 'Media info', href: `${base}/media-info`, external: true },
    { label: 'Last log lines', href: `${base}/logs?lines=100`, external: true },
    { label: 'Monitor', href: `${base}/monitor`, external: true },
  ];
  return [...links, { label: 'API reference', href: '/api/docs', external: true }];
}

export interface FooterBarProps {
  backTo: string;
  title: string;
  status: ReactNode;
  readOnly: boolean;
  isNew: boolean;
  /** Create/Update may be pressed. */
  canSubmit: boolean;
  saving: boolean;
  /** "Update & Restart": saved, active, not a template, and the user may restart. */
  showUpdateRestart: boolean;
  onUpdateRestart: () => void;
  /** The Template dropdown (absent for templates). */
  templateMenu?: ReactNode;
  /** The Dev dropdown's links (absent unless dev mode, and for templates). */
  devMenu?: MenuItem[];
  formId: string;
}

/** The bar under the job form: back, the title, and the actions. */
export function FooterBar({ backTo, title, status, readOnly, isNew, canSubmit, saving, showUpdateRestart, onUpdateRestart, templateMenu, devMenu, formId }: FooterBarProps) {
  return (
    <div className="form-footer job-footer">
      <Link to={backTo} className="button button-secondary">
        <Icon name="chevronLeft" size={14} />
        Back
      </Link>
      <div className="job-footer-title">
        <h1>
          {readOnly && (
            <span className="read-only-mark" title="Read only: you may view but not change it" role="img" aria-label="Read only">
              <Icon name="eye" />
            </span>
          )}
          {title}
        </h1>
        <div className="form-footer-status" aria-live="polite">
          {status}
        </div>
      </div>
      <div className="form-footer-buttons">
        {devMenu && <DropdownMenu label="Dev" items={devMenu} />}
        {templateMenu}
        {!readOnly && showUpdateRestart && (
          <button type="button" className="button button-secondary" disabled={!canSubmit} onClick={onUpdateRestart}>
            Update &amp; Restart
          </button>
        )}
        {!readOnly && (
          <button type="submit" form={formId} className="button" disabled={!canSubmit} aria-busy={saving || undefined}>
            {saving && <span className="spinner" aria-hidden="true" />}
            {isNew ? 'Create' : 'Update'}
          </button>
        )}
      </div>
    </div>
  );
}
