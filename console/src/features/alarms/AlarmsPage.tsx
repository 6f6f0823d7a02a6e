import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Icon } from '../../components/icons.tsx';
import { PageHeader } from '../../components/Page.tsx';
import { useAlarmCards } from '../../data/alarms/queries.ts';
import { messageOf } from '../../data/client.ts';
import { usePageTitle } from '../../shell/breadcrumbs.tsx';
import { AlarmsNav } from './AlarmsNav.tsx';
import { JobAlarmHistoryModal, type JobAlarmHistoryModalProps } from './JobAlarmHistoryModal.tsx';
import '../../styles/alarms.css';

/** Two rows of four cards per page. */
const CARDS_PER_PAGE = 8;

/** /my/alarms: alarm cards, four per row, paged with previous and next arrows. */
export default function AlarmsPage() {
  usePageTitle('Alarms');
  const [page, setPage] = useState(1);
  const [historyOf, setHistoryOf] = useState<JobAlarmHistoryModalProps['job']>();
  const cards = useAlarmCards({ page, size: CARDS_PER_PAGE });
  const total = cards.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / CARDS_PER_PAGE));
  return (
    <div className="page">
      <PageHeader title="Alarms" subtitle="Alarmed jobs and the alarms sent for them." />
      <AlarmsNav />
      {cards.error ? (
        <p className="alert alert-danger">{messageOf(cards.error)}</p>
      ) : cards.isPending ? (
        <p className="muted">Loading ...</p>
      ) : total === 0 ? (
        <p className="alarm-empty">Alarms were not</p>
      ) : (
        <div className="alarm-cards-pager">
          <button type="button" className="icon-button" aria-label="Previous" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            <Icon name="chevronLeft" />
          </button>
          <ul className="alarm-cards">
            {cards.data.items.map((card) => (
              <li key={card.jobId} className="alarm-card">
                <Link to={`/my/${card.jobType}s/edit/${card.jobId}`} className="alarm-card-name">
                  {card.jobName}
                </Link>
                <div className="muted">
                  id:{card.jobId} · {card.jobType}
                  {!card.alarmed && ' · alarm off'}
                </div>
                <div className="alarm-card-counts">
                  <span title="Sent e-mail alarms">E-mail <strong>{card.sentEmailAlarmCount}</strong></span>
                  <span title="Sent SMS alarms">SMS <strong>{card.sentSmsAlarmCount}</strong></span>
                </div>
                <div className="alarm-card-links">
                  <button type="button" className="link-button" onClick={() => setHistoryOf({ id: card.jobId, name: card.jobName, kind: card.jobType })}>
                    Alarm history
                  </button>
                  <Link to={`/my/alarms/jobs/${card.jobId}`} className="alarm-card-settings">
                    Alarm settings
                  </Link>
                </div>
              </li>
            ))}
          </ul>
          <button type="button" className="icon-button" aria-label="Next" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            <Icon name="chevronRight" />
          </button>
        </div>
      )}
      {historyOf && <JobAlarmHistoryModal job={historyOf} onClose={() => setHistoryOf(undefined)} />}
    </div>
  );
}
