import { useGranted } from '../../../data/auth/queries.ts';
import type { JobKind } from '../../../data/jobs/keys.ts';
import type { Job } from '../../../data/jobs/queries.ts';
import { insightTabs } from '../logs/insightTabs.ts';
import { LogViewer } from '../logs/LogViewer.tsx';

/** The Logs tab of the relay and encoding screens (#logs): the job's log with its controls and filters. */
export function LogsTab({ kind, job }: { kind: JobKind; job: Job }) {
  const granted = useGranted();
  if (!insightTabs(kind, job, granted).logs) return null;
  return <LogViewer kind={kind} id={job.id} />;
}

export default LogsTab;
