import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { PageHeader } from '../../components/Page.tsx';
import type { JobKind } from '../../data/jobs/keys.ts';
import { useStatisticsSummary } from '../../data/statistics/queries.ts';
import { usePageTitle } from '../../shell/breadcrumbs.tsx';
import { DowntimesTable, EventsTable, UptimesTable } from './history-tables.tsx';
import '../../styles/dashboard.css';

const DATE_FORMAT = /^(\d{4})\/(\d{2})\/(\d{2})$/;

/** yyyy/MM/dd (the picker's format) to the API's yyyy-MM-dd; undefined when empty or not a real day. */
export function dayOf(text: string): string | undefined | null {
  if (text.trim() === '') return undefined;
  const match = DATE_FORMAT.exec(text.trim());
  if (!match) return null;
  const [, y, m, d] = match;
  const date = new Date(Number(y), Number(m) - 1, Number(d));
  return date.getMonth() === Number(m) - 1 && date.getDate() === Number(d) ? `${y}-${m}-${d}` : null;
}

/** /my/statistics/view/{type}/{id}: a date picker (yyyy/MM/dd) and the events, uptimes and downtimes of a job. */
export default function StatisticsViewPage() {
  const params = useParams();
  const kind: JobKind = params.type === 'encoding' ? 'encoding' : 'relay';
  const id = Number(params.id);
  const { data: summary } = useStatisticsSummary();
  const job = summary?.items.find((j) => j.type === kind && j.id === id);
  const title = job?.name ?? `${kind === 'relay' ? 'Relay' : 'Encoding'} #${id}`;
  usePageTitle(title);
  const [text, setText] = useState('');
  const day = dayOf(text);
  const [sizes, setSizes] = useState({ events: 30, uptimes: 30, downtimes: 30 });
  const common = { kind, id, day: day ?? undefined };
  return (
    <div className="page">
      <PageHeader title={title} subtitle={`${kind === 'relay' ? 'Relay' : 'Encoding'} #${id} statistics`} />
      <div className="statistics-toolbar">
        <label>
          Date{' '}
          <input className="input" aria-label="Date" placeholder="yyyy/MM/dd" value={text} onChange={(e) => setText(e.target.value)} aria-invalid={day === null} />
        </label>
        <input
          type="date"
          aria-label="Pick a date"
          value={day ?? ''}
          onChange={(e) => setText(e.target.value ? e.target.value.replaceAll('-', '/') : '')}
        />
        {day === null && <span className="field-error">Date must be yyyy/MM/dd</span>}
        {text && (
          <button type="button" className="button" onClick={() => setText('')}>
            Latest
          </button>
        )}
      </div>
      <div className="statistics-tables">
        <EventsTable {...common} size={sizes.events} onSize={(events) => setSizes((s) => ({ ...s, events }))} />
        <UptimesTable {...common} size={sizes.uptimes} onSize={(uptimes) => setSizes((s) => ({ ...s, uptimes }))} />
        <DowntimesTable {...common} size={sizes.downtimes} onSize={(downtimes) => setSizes((s) => ({ ...s, downtimes }))} />
      </div>
    </div>
  );
}
