import type { JobKind } from '../../data/jobs/keys.ts';
import { JobPageFrame } from './logs/JobPageFrame.tsx';
import { LogViewer } from './logs/LogViewer.tsx';

/** /my/{kind}s/logs/{id} (spec 01 §2.9): the tabs Details, Logs and Batch Results, on Logs. */
export default function LogsPage({ kind }: { kind: JobKind }) {
  return (
    <JobPageFrame kind={kind} current="logs" pageLabel="Logs">
      {(job) => <LogViewer kind={kind} id={job.id} />}
    </JobPageFrame>
  );
}
