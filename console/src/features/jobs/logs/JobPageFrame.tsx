import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { PageHeader } from '../../../components/Page.tsx';
import { LOADING_TEXT } from '../../../components/list/ListTable.tsx';
import { messageOf } from '../../../data/client.ts';
import { jobKeys, jobTopic, type JobKind } from '../../../data/jobs/keys.ts';
import { useJob, type Job } from '../../../data/jobs/queries.ts';
import { useLiveUpdates } from '../../../data/live.ts';
import { usePageTitle } from '../../../shell/breadcrumbs.tsx';
import '../../../styles/job-insights.css';
import { JobStatusCell } from '../JobStatusCell.tsx';
import { insightPaths } from './insightTabs.ts';

/** The id of the route (…/{id}); undefined when it is not a positive whole number. */
export function useRouteJobId(): number | undefined {
  const { id } = useParams();
  const n = Number(id);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

/** "Relay {name} (id:{id})" / "Encoding {name} (ID:{id})", as the edit screens title a job (spec 01 §2.4, §2.6). */
export function jobTitle(kind: JobKind, job: Pick<Job, 'name' | 'id'>): string {
  return kind === 'relay' ? `Relay ${job.name} (id:${job.id})` : `Encoding ${job.name} (ID:${job.id})`;
}

export type JobPageTab = 'details' | 'logs' | 'batch';

/** The tabs of /my/{kind}s/logs/{id} and /my/{kind}s/batch_logs/{id} (spec 01 §2.9); Batch Results only for a batch job. */
function JobPageTabs({ kind, job, current }: { kind: JobKind; job: Job; current: JobPageTab }) {
  const tabs: { key: JobPageTab; label: string; to: string }[] = [
    { key: 'details', label: 'Details', to: insightPaths.edit(kind, job.id) },
    { key: 'logs', label: 'Logs', to: insightPaths.logs(kind, job.id) },
    ...(job.input.batchLogEnabled ? [{ key: 'batch' as const, label: 'Batch Results', to: insightPaths.batchLogs(kind, job.id) }] : []),
  ];
  return (
    <nav className="insight-tabs" aria-label="Job tabs">
      {tabs.map((tab) => (
        <Link key={tab.key} to={tab.to} className={`insight-tab${tab.key === current ? ' is-current' : ''}`} aria-current={tab.key === current ? 'page' : undefined}>
          {tab.label}
        </Link>
      ))}
    </nav>
  );
}

/**
 * A page about one job: its title and status, the tabs, and the content for the loaded job. The
 * job's status follows the kind's live topic.
 */
export function JobPageFrame({ kind, current, pageLabel, children }: { kind: JobKind; current: JobPageTab | null; pageLabel: string; children: (job: Job) => ReactNode }) {
  const id = useRouteJobId();
  const queryClient = useQueryClient();
  const job = useJob(kind, id);
  useLiveUpdates([jobTopic(kind)], (event) => {
    if (id !== undefined && (event.id === id || event.id === String(id))) void queryClient.invalidateQueries({ queryKey: jobKeys.detail(kind, id) });
  });
  usePageTitle(job.data ? `${pageLabel}: ${job.data.name}` : pageLabel);

  if (id === undefined) return <p className="page-message table-error">There is no {kind} with this id.</p>;
  if (job.isPending) return <div className="page-loading">{LOADING_TEXT}</div>;
  if (job.error || !job.data) return <p className="page-message table-error" role="alert">{messageOf(job.error)}</p>;
  return (
    <div className="page page-wide job-insight-page">
      <PageHeader title={jobTitle(kind, job.data)} actions={<JobStatusCell kind={kind} status={job.data.status} />} />
      {current && <JobPageTabs kind={kind} job={job.data} current={current} />}
      <div className="insight-panel">{children(job.data)}</div>
    </div>
  );
}
