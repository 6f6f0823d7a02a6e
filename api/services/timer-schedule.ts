/**
 * When a timer is due (pure: no clock, no database). A timer's time is a wall-clock time of its
 * IANA time zone; the moments it fires are computed in that zone, so every API process (whatever
 * its own TZ) finds the same instants, and daylight saving changes are followed:
 * - HOURLY fires at every real hour whose local minute is M (25 times on the day the clocks go back);
 * - DAILY / WEEKLY / ONCE fire at HH:mm local; a time the clocks skip (spring forward) is moved on by
 *   the length of the gap (02:30 becomes 03:30), a time that happens twice (fall back) fires the first time.
 */

export type ScheduleType = 'HOURLY' | 'DAILY' | 'WEEKLY' | 'ONCE';
export const WEEKDAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] as const;

export interface Schedule {
  type: ScheduleType;
  /** null for HOURLY. */
  hour: number | null;
  minute: number;
  /** WEEKLY: MON ... SUN. */
  daysOfWeek: readonly string[];
  /** ONCE: YYYY-MM-DD. */
  date: string | null;
  timeZone: string;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Whether Node knows this IANA zone. */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The zone's offset from UTC at an instant, in minutes (east positive). */
export function offsetMinutes(timeZone: string, at: number): number {
  const parts: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(at))) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  const wall = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour % 24, parts.minute, parts.second);
  const second = Math.floor(at / 1000) * 1000;
  return Math.round((wall - second) / MINUTE_MS);
}

/** "GMT+01:00", "GMT-03:30", "GMT+00:00". */
export function gmtOffsetLabel(timeZone: string, at: number): string {
  const offset = offsetMinutes(timeZone, at);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `GMT${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** The instant of a wall-clock time of a zone (the first one when it happens twice; moved on by the gap when it is skipped). */
export function wallToInstant(timeZone: string, year: number, month: number, day: number, hour: number, minute: number): number {
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  // The offsets in force a day either side: the wall time is read with whichever fits, the earlier first.
  const candidates = [...new Set([offsetMinutes(timeZone, wall - DAY_MS), offsetMinutes(timeZone, wall + DAY_MS), offsetMinutes(timeZone, wall)])]
    .map((offset) => wall - offset * MINUTE_MS)
    .filter((instant) => offsetMinutes(timeZone, instant) * MINUTE_MS === wall - instant)
    .sort((a, b) => a - b);
  if (candidates.length > 0) return candidates[0];
  // Skipped by a spring-forward: read with the offset before the gap, it lands the gap's length later.
  return wall - offsetMinutes(timeZone, wall - DAY_MS) * MINUTE_MS;
}

/** The local calendar date (and weekday) of an instant in a zone. */
export function localDate(timeZone: string, at: number): { year: number; month: number; day: number; weekday: string } {
  const local = new Date(at + offsetMinutes(timeZone, at) * MINUTE_MS);
  return { year: local.getUTCFullYear(), month: local.getUTCMonth() + 1, day: local.getUTCDate(), weekday: WEEKDAYS[local.getUTCDay()] };
}

const mod = (a: number, n: number) => ((a % n) + n) % n;

function nextHourly(schedule: Schedule, after: number): number {
  const { timeZone, minute } = schedule;
  const first = Math.floor(after / HOUR_MS) * HOUR_MS;
  // Walk real (UTC) hours; in each, the instant whose local minute is M with the offset(s) in force in it.
  for (let hour = first; ; hour += HOUR_MS) {
    const found = [...new Set([offsetMinutes(timeZone, hour), offsetMinutes(timeZone, hour + HOUR_MS - 1)])]
      .map((offset) => hour + mod(minute - offset, 60) * MINUTE_MS)
      .filter((t) => t > after && mod(Math.floor(t / MINUTE_MS) + offsetMinutes(timeZone, t), 60) === minute)
      .sort((a, b) => a - b);
    if (found.length > 0) return found[0];
  }
}

function nextByDay(schedule: Schedule, after: number, accept: (weekday: string, date: string) => boolean): number | null {
  const start = localDate(schedule.timeZone, after);
  const startDay = Date.UTC(start.year, start.month - 1, start.day);
  // A week and a day covers every weekday; a day back covers an early local date near midnight.
  for (let i = -1; i <= 8; i += 1) {
    const day = new Date(startDay + i * DAY_MS);
    const [y, m, d] = [day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate()];
    const date = `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
    if (!accept(WEEKDAYS[day.getUTCDay()], date)) continue;
    const instant = wallToInstant(schedule.timeZone, y, m, d, schedule.hour ?? 0, schedule.minute);
    if (instant > after) return instant;
  }
  return null;
}

/** The first moment after `after` (epoch ms) at which the timer is due; null when it never is again (a ONCE timer that has passed). */
export function nextDue(schedule: Schedule, after: number): number | null {
  switch (schedule.type) {
    case 'HOURLY':
      return nextHourly(schedule, after);
    case 'DAILY':
      return nextByDay(schedule, after, () => true);
    case 'WEEKLY':
      if (schedule.daysOfWeek.length === 0) return null;
      return nextByDay(schedule, after, (weekday) => schedule.daysOfWeek.includes(weekday));
    case 'ONCE': {
      if (!schedule.date) return null;
      const [y, m, d] = schedule.date.split('-').map(Number);
      const instant = wallToInstant(schedule.timeZone, y, m, d, schedule.hour ?? 0, schedule.minute);
      return instant > after ? instant : null;
    }
  }
}

/** Every moment in (from, to] at which the timer is due, oldest first (at most `limit`). */
export function dueBetween(schedule: Schedule, from: number, to: number, limit = 100): number[] {
  const due: number[] = [];
  let cursor = from;
  while (due.length < limit) {
    const next = nextDue(schedule, cursor);
    if (next === null || next > to) break;
    due.push(next);
    cursor = next;
  }
  return due;
}

/** Whether the timer is due at exactly this moment. */
export function isDueAt(schedule: Schedule, at: number): boolean {
  return nextDue(schedule, at - 1) === at;
}
