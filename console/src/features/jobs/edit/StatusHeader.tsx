import type { Schemas } from '../../../data/client.ts';
import type { JobKind } from '../../../data/jobs/keys.ts';
import { formatBitrate, totalBps } from '../jobLabels.ts';
import { JobStatusCell } from '../JobStatusCell.tsx';

/**
 * The job's status in the screen's header (spec 01 §2.6): its work status ("Streaming" reads
 * "Transcoding" for encodings), and the In and Out bandwidth while it streams and is switched on.
 */
export function StatusHeader({ kind, job }: { kind: JobKind; job: Schemas['Job'] }) {
  const { status } = job;
  const streaming = status.workStatus === 'Streaming' && job.active;
  const inBps = totalBps(status.inputs);
  const outBps = totalBps(status.outputs);
  return (
    <div className="job-edit-status" aria-live="polite">
      <span className="job-edit-status-label">Status:</span>
      <JobStatusCell kind={kind} status={status} />
      {streaming && (
        <>
          <span className="job-edit-bw">
            In: <strong data-testid="job-bandwidth-in">{formatBitrate(inBps)}</strong>
          </span>
          <span className="job-edit-bw">
            Out: <strong data-testid="job-bandwidth-out">{formatBitrate(outBps)}</strong>
          </span>
        </>
      )}
    </div>
  );
}
