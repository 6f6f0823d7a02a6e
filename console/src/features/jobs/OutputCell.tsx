import type { JobSummary } from '../../data/jobs/queries.ts';
import { JobStatusCell } from './JobStatusCell.tsx';
import { INPUT_TYPE_LABELS, NONE, OUTPUT_TYPE_LABELS, formatBitrate, totalBps } from './jobLabels.ts';

/**
 * The Output column (spec 01 §2.5): the status, the output type labels, "M" for a multi-profile
 * HLS, DASH or CMAF output, "E" for an encrypted or DRM output, and the AD marker label.
 */
export function OutputCell({ job }: { job: JobSummary }) {
  const { multiProfile, encrypted, ad } = job.outputMarkers;
  return (
    <div className="output-cell">
      <JobStatusCell kind={job.kind} status={job.status} />
      <span className="output-types">
        {job.outputTypes.length === 0 && <span className="muted">{NONE}</span>}
        {job.outputTypes.map((type, i) => (
          <span key={`${type}-${i}`} className="output-label">
            {OUTPUT_TYPE_LABELS[type] ?? type}
          </span>
        ))}
        {multiProfile && (
          <span className="output-marker marker-m" title="Multi-profile HLS, DASH or CMAF">
            M
          </span>
        )}
        {encrypted && (
          <span className="output-marker marker-e" title="Encrypted or DRM">
            E
          </span>
        )}
        {ad && (
          <span className="output-marker marker-ad" title="Ad markers">
            AD
          </span>
        )}
      </span>
    </div>
  );
}

/** The Input column: its type, and its bitrate while the job is on. */
export function InputCell({ job }: { job: JobSummary }) {
  const bps = totalBps(job.status.inputs);
  return (
    <div className="input-cell" title={job.inputUri ?? undefined}>
      <span className="input-type">{INPUT_TYPE_LABELS[job.inputType] ?? job.inputType}</span>
      <span className="input-bitrate">{job.status.on ? formatBitrate(bps) : NONE}</span>
    </div>
  );
}
