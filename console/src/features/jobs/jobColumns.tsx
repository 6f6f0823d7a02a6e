import { Link } from 'react-router-dom';
import { formatDateTime } from '../../components/format.ts';
import type { Column } from '../../components/list/ListTable.tsx';
import type { JobSummary } from '../../data/jobs/queries.ts';
import { CommentIcon } from './CommentIcon.tsx';
import { JobRowControls } from './JobRowControls.tsx';
import { NONE, formatBytes, formatCpu, formatDuration, jobPaths, type JobGrants, type JobKindConfig } from './jobLabels.ts';
import { InputCell, OutputCell } from './OutputCell.tsx';

const muted = <span className="muted">{NONE}</span>;

/** A figure of a running job; "--" while the job is off (spec 01 §2.5). */
const whileOn = (job: JobSummary, value: React.ReactNode) => (job.status.on ? value : muted);

/** "yyyy-MM-dd HH:mm:ss" on two lines (date, time), to keep the wide table narrow. */
function DateTime({ iso, title }: { iso: string; title?: string }) {
  const [date, time] = formatDateTime(iso).split(' ');
  return (
    <span className="date-time" title={title}>
      <span>{date}</span> <span>{time}</span>
    </span>
  );
}

/** The name linking to the edit screen, with the comment icon. */
export function NameCell({ job }: { job: JobSummary }) {
  return (
    <span className="job-name">
      <Link to={jobPaths.edit(job.kind, job.id)} className="cell-link">
        {job.name}
      </Link>
      <CommentIcon level={job.worstComment} count={job.commentCount} />
    </span>
  );
}

export function PresetCell({ job }: { job: JobSummary }) {
  if (!job.preset) return muted;
  return (
    <Link to={jobPaths.preset(job.preset.id)} className="cell-link">
      {job.preset.name}
    </Link>
  );
}

/** The columns of the relay and encoding lists (spec 01 §2.3, §2.5), in the spec's order. */
export function jobColumns(config: JobKindConfig, grants: JobGrants): Column<JobSummary>[] {
  const columns: (Column<JobSummary> | false)[] = [
    { key: 'id', header: 'ID', sortKey: 'id', width: '64px', className: 'cell-mono', cell: (job) => job.id },
    { key: 'name', header: 'Name', sortKey: 'name', className: 'cell-name', cell: (job) => <NameCell job={job} /> },
    { key: 'node', header: 'Node', cell: (job) => job.nodeName ?? (job.node === null ? 'Auto' : muted) },
    config.hasPreset && { key: 'preset', header: 'Preset', cell: (job) => <PresetCell job={job} /> },
    { key: 'output', header: 'Output', className: 'cell-output', cell: (job) => <OutputCell job={job} /> },
    { key: 'input', header: 'Input', cell: (job) => <InputCell job={job} /> },
    {
      key: 'started',
      header: 'Started',
      className: 'cell-time',
      cell: (job) =>
        whileOn(
          job,
          job.status.startedAt ? <DateTime iso={job.status.startedAt} title={`Up ${formatDuration(job.status.uptimeSeconds)}`} /> : NONE,
        ),
    },
    { key: 'lastReset', header: 'Last Reset', className: 'cell-time', cell: (job) => whileOn(job, job.status.lastResetAt ? <DateTime iso={job.status.lastResetAt} /> : NONE) },
    { key: 'restarts', header: 'Restarts', align: 'right', cell: (job) => whileOn(job, job.status.restarts) },
    { key: 'cpu', header: 'CPU', align: 'right', className: 'cell-figure', cell: (job) => formatCpu(job.status) },
    { key: 'rss', header: 'RSS', align: 'right', className: 'cell-figure', cell: (job) => whileOn(job, formatBytes(job.status.rss)) },
    { key: 'createdBy', header: 'Created By', cell: (job) => job.createdBy ?? muted },
    { key: 'controls', header: 'Controls', align: 'right', cell: (job) => <JobRowControls job={job} grants={grants} /> },
  ];
  return columns.filter((c): c is Column<JobSummary> => Boolean(c));
}
