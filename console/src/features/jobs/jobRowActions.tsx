import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { Schemas } from '../../data/client.ts';
import type { JobKind } from '../../data/jobs/keys.ts';
import { useDeleteJob, useRestartJob, useSwitchJob } from '../../data/jobs/mutations.ts';

export interface JobRowActions {
  switchJob(id: number, on: boolean): Promise<unknown>;
  restart(id: number, mode: Schemas['RestartRequest']['mode']): Promise<unknown>;
  remove(id: number): Promise<unknown>;
}

const JobRowActionsContext = createContext<JobRowActions | null>(null);

/**
 * The row actions of a list, made once for the page rather than once per row: a page of 100 rows
 * would otherwise keep 300 mutation observers, and mount them again on every new page or sort.
 */
export function JobRowActionsProvider({ kind, children }: { kind: JobKind; children: ReactNode }) {
  const { mutateAsync: switchJob } = useSwitchJob(kind);
  const { mutateAsync: restart } = useRestartJob(kind);
  const { mutateAsync: remove } = useDeleteJob(kind);
  const value = useMemo<JobRowActions>(
    () => ({ switchJob: (id, on) => switchJob({ id, on }), restart: (id, mode) => restart({ id, mode }), remove: (id) => remove(id) }),
    [switchJob, restart, remove],
  );
  return <JobRowActionsContext.Provider value={value}>{children}</JobRowActionsContext.Provider>;
}

export function useJobRowActions(): JobRowActions {
  const actions = useContext(JobRowActionsContext);
  if (!actions) throw new Error('JobRowActionsProvider is missing');
  return actions;
}
