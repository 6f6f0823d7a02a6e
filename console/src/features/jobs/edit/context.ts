import { createContext, useContext } from 'react';
import type { JobKind } from '../../../data/jobs/keys.ts';
import type { JobFormValues } from './jobFormModel.ts';
import type { JobForm } from './useJobForm.ts';

/** What every part of the job form needs to know: the form, the kind, and what the user may do. */
export interface JobEditContextValue {
  form: JobForm<JobFormValues>;
  kind: JobKind;
  isTemplate: boolean;
  isNew: boolean;
  /** The fields are disabled: read-only, locked by the saved flag, or saving. */
  disabled: boolean;
  /** The full EDIT permission of the kind: adding outputs needs it. */
  canFullEdit: boolean;
  /** The user may change the job at all (EDIT or VIEW_EDIT). */
  canEdit: boolean;
}

export const JobEditContext = createContext<JobEditContextValue | null>(null);

export function useJobEdit(): JobEditContextValue {
  const value = useContext(JobEditContext);
  if (!value) throw new Error('useJobEdit() outside the job form');
  return value;
}
