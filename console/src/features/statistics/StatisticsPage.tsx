import { Link } from 'react-router-dom';
import { Card, PageHeader } from '../../components/Page.tsx';
import { useStatisticsSummary } from '../../data/statistics/queries.ts';
import { usePageTitle } from '../../shell/breadcrumbs.tsx';
import { LastDayChart } from './charts.tsx';
import '../../styles/dashboard.css';

/** /my/statistics: a card per job with statistics on, with its Last 24 hours chart and a link to the detail view. */
export default function StatisticsPage() {
  usePageTitle('Statistics');
  const { data, isPending } = useStatisticsSummary();
  return (
    <div className="page">
      <PageHeader title="Statistics" />
      {isPending && <div className="empty">Loading ...</div>}
      {data && data.items.length === 0 && <div className="empty">No jobs with statistics</div>}
      <div className="statistics-grid">
        {data?.items.map((job) => (
          <Card
            key={`${job.type}-${job.id}`}
            title={
              <span className="statistics-card-head">
                <Link to={`/my/statistics/view/${job.type}/${job.id}`}>{job.name}</Link>
                <small>
                  {job.type === 'relay' ? 'Relay' : 'Encoding'} #{job.id}
                </small>
              </span>
            }
            actions={<span className={job.enabled ? 'pill pill-on' : 'pill pill-off'}>{job.enabled ? 'On' : 'Off'}</span>}
          >
            <div className="statistics-card-head">
              <span>Last 24 hours</span>
              <strong>{job.upPercent}% up</strong>
            </div>
            <LastDayChart job={job} from={data.from} until={data.until} />
          </Card>
        ))}
      </div>
    </div>
  );
}
