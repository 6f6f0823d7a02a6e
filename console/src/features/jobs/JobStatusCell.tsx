import type { Schemas } from '../../data/client.ts';
import type { JobKind } from '../../data/jobs/keys.ts';
import { statusTone, workStatusLabel } from './jobLabels.ts';

type JobStatus = Schemas['JobStatus'];

/** The work status of a job as a coloured label ("Streaming" reads "Transcoding" for encodings). */
export function JobStatusCell({ kind, status }: { kind: JobKind; status: JobStatus }) {
  const label = workStatusLabel(kind, status.workStatus);
  const tone = statusTone(status);
  const reason = status.reason && tone === 'failed' ? `${label}: ${status.reasonDetail ?? status.reason}` : undefined;
  return (
    <span className={`job-status job-status-${tone}`} title={reason} data-testid="job-status">
      <span className="job-status-dot" aria-hidden="true" />
      {label}
    </span>
  );
}
