import { jobPermissions } from '../../../../../openapi/permissions.ts';
import type { JobKind } from '../../../data/jobs/keys.ts';
import type { Job } from '../../../data/jobs/queries.ts';

type JobLike = Pick<Job, 'isTemplate' | 'input'> & { id?: number };

/**
 * Which of a job's read-only tabs a user sees (spec 01 §2.4, §2.6, §6): Logs on a saved job that
 * is not a template, with the view-log or edit permission; Batch Results the same, and only when
 * batch logging is on for the input; Monitor on a saved job that is not a template, with view.
 */
export function insightTabs(kind: JobKind, job: JobLike | undefined, granted: ReadonlySet<string>) {
  const can = jobPermissions(kind);
  const any = (names: readonly string[]) => names.some((name) => granted.has(name));
  const saved = Boolean(job?.id) && !job?.isTemplate;
  const log = saved && any(can.log.anyOf);
  return {
    logs: log,
    batchResults: log && Boolean(job?.input.batchLogEnabled),
    monitor: saved && any(can.view.anyOf),
  };
}

/** The console routes of a job's logs, batch results and trace (spec 01 §2.8, §2.9; the trace route is ours). */
export const insightPaths = {
  edit: (kind: JobKind, id: number) => `/my/${kind}s/edit/${id}`,
  logs: (kind: JobKind, id: number) => `/my/${kind}s/logs/${id}`,
  batchLogs: (kind: JobKind, id: number) => `/my/${kind}s/batch_logs/${id}`,
  trace: (kind: JobKind, id: number) => `/my/${kind}s/trace/${id}`,
};
