import type { StatisticsRepository } from '../repositories/statistics.repository.ts';
import { deriveUptimes, type UptimeEvent } from './job-uptime.ts';

const HOUR = 3600;
export const STATISTICS_HOURS = 24;

interface Span {
  from: number;
  until: number;
  state: 'up' | 'down';
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/** The seconds of `spans` in state `state` that fall inside [from, until). */
function covered(spans: readonly Span[], state: Span['state'], from: number, until: number): number {
  let total = 0;
  for (const span of spans) if (span.state === state) total += Math.max(0, Math.min(span.until, until) - Math.max(span.from, from));
  return total;
}

/**
 * The last 24 hours of one job, per hour, from its events: uptimes and downtimes as
 * job-uptime.ts derives them, clipped to the window. `nowMs`: the end of the window.
 */
export function lastDay(events: readonly UptimeEvent[], nowMs: number) {
  const now = Math.floor(nowMs / 1000);
  const start = Math.floor(now / HOUR) * HOUR - (STATISTICS_HOURS - 1) * HOUR;
  const { uptimes, downtimes } = deriveUptimes(events, nowMs);
  const clip = (list: readonly { from: number; until?: number }[], state: Span['state']): Span[] =>
    list
      .map((i) => ({ from: Math.max(i.from, start), until: Math.min(i.until ?? now, now), state }))
      .filter((s) => s.until > s.from);
  const timeline = [...clip(uptimes, 'up'), ...clip(downtimes, 'down')].sort((a, b) => a.from - b.from);
  const data = Array.from({ length: STATISTICS_HOURS }, (_, i) => {
    const from = start + i * HOUR;
    const until = Math.min(from + HOUR, now);
    const length = Math.max(1, until - from);
    return { from, upPercent: round1((covered(timeline, 'up', from, until) / length) * 100), downPercent: round1((covered(timeline, 'down', from, until) / length) * 100) };
  });
  const upPercent = round1((covered(timeline, 'up', start, now) / Math.max(1, now - start)) * 100);
  return { from: start, until: now, data, timeline, upPercent };
}

/** The cards of /my/statistics: every job with statistics on and its last 24 hours. */
export class StatisticsService {
  constructor(private readonly repository: StatisticsRepository) {}

  async summary(nowMs = Date.now()) {
    const now = Math.floor(nowMs / 1000);
    const since = new Date((Math.floor(now / HOUR) * HOUR - (STATISTICS_HOURS - 1) * HOUR) * 1000);
    const rows = await this.repository.jobsWithEvents(since);
    let from = Math.floor(since.getTime() / 1000);
    const items = rows.map((row) => {
      const events: UptimeEvent[] = [...(row.before ? [row.before] : []), ...row.events];
      const day = lastDay(events, nowMs);
      from = day.from;
      return { id: row.id, type: row.kind, name: row.name, enabled: row.active, statisticsDays: row.statistics_days ?? 7, data: day.data, upPercent: day.upPercent, timeline: day.timeline };
    });
    return { items, from, until: now };
  }
}
