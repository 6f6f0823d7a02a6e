import type { SrtStats } from '../../../data/job-insights/queries.ts';

/** Every field of spec 01 §3 SRT statistics, in its order, with its label and how it reads. */
const FIELDS: readonly { key: keyof SrtStats; label: string; format: (value: number) => string }[] = [
  { key: 'packets', label: 'Packets', format: (v) => v.toLocaleString('en-US') },
  { key: 'bytes', label: 'Bytes', format: (v) => v.toLocaleString('en-US') },
  { key: 'packetsLost', label: 'Packets lost', format: (v) => v.toLocaleString('en-US') },
  { key: 'packetsRetransmitted', label: 'Packets retransmitted', format: (v) => v.toLocaleString('en-US') },
  { key: 'bytesRetransmitted', label: 'Bytes retransmitted', format: (v) => v.toLocaleString('en-US') },
  { key: 'packetsDropped', label: 'Packets dropped', format: (v) => v.toLocaleString('en-US') },
  { key: 'bytesDropped', label: 'Bytes dropped', format: (v) => v.toLocaleString('en-US') },
  { key: 'bandwidthMbps', label: 'Bandwidth (Mbps)', format: (v) => v.toFixed(2) },
  { key: 'rateMbps', label: 'Rate (Mbps)', format: (v) => v.toFixed(2) },
  { key: 'negotiatedLatencyMs', label: 'Negotiated latency (ms)', format: (v) => String(Math.round(v)) },
  { key: 'rttMs', label: 'RTT (ms)', format: (v) => v.toFixed(2) },
  { key: 'connections', label: 'Connections', format: (v) => String(v) },
];

export interface SrtLink {
  /** "Input", "Failover input", "Output 2 (SRT)" ... */
  label: string;
  stats: SrtStats;
}

/** The SRT statistics of a job's inputs or outputs: one column per SRT link, one row per figure. */
export function SrtStatsTable({ title, links, emptyText }: { title: string; links: readonly SrtLink[]; emptyText: string }) {
  return (
    <section className="srt-stats" aria-label={title}>
      <h3 className="srt-stats-title">{title}</h3>
      {links.length === 0 ? (
        <p className="muted srt-stats-empty">{emptyText}</p>
      ) : (
        <table className="table srt-stats-table" aria-label={title}>
          <thead>
            <tr>
              <th scope="col">Statistic</th>
              {links.map((link) => (
                <th key={link.label} scope="col" className="align-right">
                  {link.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {FIELDS.map((field) => (
              <tr key={field.key}>
                <th scope="row">{field.label}</th>
                {links.map((link) => (
                  <td key={link.label} className="align-right cell-mono" data-field={field.key}>
                    {Number.isFinite(link.stats[field.key]) ? field.format(link.stats[field.key]) : '--'}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
