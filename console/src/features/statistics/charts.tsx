import type { StatisticsJob } from '../../data/statistics/queries.ts';

const WIDTH = 480;
const HEIGHT = 90;
const TIMELINE = 10;
const BARS_TOP = 4;
const BARS_BOTTOM = HEIGHT - TIMELINE - 18;

const hourLabel = (seconds: number) => String(new Date(seconds * 1000).getHours()).padStart(2, '0');

/**
 * The Last 24 hours chart of a statistics card, inline SVG: a bar per hour (green up, red down,
 * share of the hour), and below it the up/down timeline of the day.
 */
export function LastDayChart({ job, from, until }: { job: StatisticsJob; from: number; until: number }) {
  const span = Math.max(1, until - from);
  const slot = WIDTH / job.data.length;
  const x = (t: number) => ((t - from) / span) * WIDTH;
  const barHeight = BARS_BOTTOM - BARS_TOP;
  return (
    <svg className="statistics-chart" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={`Last 24 hours of ${job.name}: ${job.upPercent}% up`}>
      {job.data.map((hour, i) => {
        const up = (hour.upPercent / 100) * barHeight;
        const down = (hour.downPercent / 100) * barHeight;
        return (
          <g key={hour.from}>
            <title>{`${hourLabel(hour.from)}:00 up ${hour.upPercent}% down ${hour.downPercent}%`}</title>
            <rect className="chart-up" x={i * slot + 1} y={BARS_BOTTOM - up} width={slot - 2} height={up} />
            <rect className="chart-down" x={i * slot + 1} y={BARS_BOTTOM - up - down} width={slot - 2} height={down} />
            {i % 3 === 0 && (
              <text className="chart-label" x={i * slot + 1} y={BARS_BOTTOM + 11}>
                {hourLabel(hour.from)}
              </text>
            )}
          </g>
        );
      })}
      <line className="chart-axis" x1="0" x2={WIDTH} y1={BARS_BOTTOM} y2={BARS_BOTTOM} />
      <rect className="chart-timeline-none" x="0" y={HEIGHT - TIMELINE} width={WIDTH} height={TIMELINE} />
      {job.timeline.map((s) => (
        <rect key={`${s.from}-${s.state}`} className={s.state === 'up' ? 'chart-timeline-up' : 'chart-timeline-down'} x={x(s.from)} y={HEIGHT - TIMELINE} width={Math.max(0.5, x(s.until) - x(s.from))} height={TIMELINE} />
      ))}
    </svg>
  );
}
