import type { JobKind } from '../../data/jobs/keys.ts';
import { JobPageFrame } from './logs/JobPageFrame.tsx';
import { BatchResultsView } from './tabs/BatchResultsTab.tsx';

/** /my/{kind}s/batch_logs/{id} (spec 01 §2.9): the batch results of a job, one row per source file. */
export default function BatchLogsPage({ kind }: { kind: JobKind }) {
  return (
    <JobPageFrame kind={kind} current="batch" pageLabel="Batch Results">
      {(job) => <BatchResultsView kind={kind} id={job.id} />}
    </JobPageFrame>
  );
}
