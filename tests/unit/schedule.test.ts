import { describe, expect, it } from 'vitest';
import { dueBetween, gmtOffsetLabel, isDueAt, nextDue, wallToInstant, type Schedule } from '../../api/services/timer-schedule.ts';
import { TimerWrite } from '../../openapi/schemas/timers.ts';

const at = (iso: string) => Date.parse(iso);
const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
const schedule = (s: Partial<Schedule> & Pick<Schedule, 'type'>): Schedule => ({ hour: null, minute: 0, daysOfWeek: [], date: null, timeZone: 'UTC', ...s });

describe('when a timer is due', () => {
  it('HOURLY fires at minute M of every hour, and not again in the same minute', () => {
    const hourly = schedule({ type: 'HOURLY', minute: 30 });
    expect(iso(nextDue(hourly, at('2026-11-25T10:29:59Z')))).toBe('2026-11-25T10:30:00.000Z');
    expect(iso(nextDue(hourly, at('2026-11-25T10:30:00Z')))).toBe('2026-11-25T11:30:00.000Z');
    expect(dueBetween(hourly, at('2026-11-25T10:00:00Z'), at('2026-11-25T13:00:00Z')).map(iso)).toEqual(['2026-11-25T10:30:00.000Z', '2026-11-25T11:30:00.000Z', '2026-11-25T12:30:00.000Z']);
  });

  it('HOURLY reads the minute in the timer\'s zone (half and quarter hour offsets)', () => {
    expect(iso(nextDue(schedule({ type: 'HOURLY', minute: 30, timeZone: 'Asia/Kolkata' }), at('2026-11-25T10:29:59Z')))).toBe('2026-11-25T11:00:00.000Z');
    expect(iso(nextDue(schedule({ type: 'HOURLY', minute: 30, timeZone: 'Asia/Kathmandu' }), at('2026-11-25T10:29:59Z')))).toBe('2026-11-25T10:45:00.000Z');
  });

  it('HOURLY fires every real hour through the night the clocks go back', () => {
    const due = dueBetween(schedule({ type: 'HOURLY', minute: 30, timeZone: 'Europe/Berlin' }), at('2026-10-24T22:00:00Z'), at('2026-10-25T04:00:00Z'));
    expect(due.map(iso)).toEqual(['22:30', '23:30', '00:30', '01:30', '02:30', '03:30'].map((t, i) => `2026-10-${i < 2 ? 24 : 25}T${t}:00.000Z`));
  });

  it('DAILY fires at HH:mm of the zone; a time the clocks skip moves on by the gap, one they repeat fires once', () => {
    const daily = schedule({ type: 'DAILY', hour: 2, minute: 30, timeZone: 'Europe/Berlin' });
    expect(iso(nextDue(daily, at('2026-11-25T12:00:00Z')))).toBe('2026-11-26T01:30:00.000Z');
    // 2026-03-29 02:30 does not exist in Berlin: 03:30 CEST.
    expect(iso(nextDue(daily, at('2026-03-28T12:00:00Z')))).toBe('2026-03-29T01:30:00.000Z');
    // 2026-10-25 02:30 happens twice: the first (CEST), and not again an hour later.
    expect(iso(nextDue(daily, at('2026-10-24T12:00:00Z')))).toBe('2026-10-25T00:30:00.000Z');
    expect(iso(nextDue(daily, at('2026-10-25T00:30:00Z')))).toBe('2026-10-26T01:30:00.000Z');
  });

  it('WEEKLY fires only on the days chosen', () => {
    // 2026-11-25 is a Wednesday.
    const weekly = schedule({ type: 'WEEKLY', hour: 9, minute: 30, daysOfWeek: ['MON', 'FRI'], timeZone: 'America/New_York' });
    expect(iso(nextDue(weekly, at('2026-11-25T12:00:00Z')))).toBe('2026-11-27T14:30:00.000Z');
    expect(iso(nextDue(weekly, at('2026-11-27T14:30:00Z')))).toBe('2026-11-30T14:30:00.000Z');
    expect(nextDue(schedule({ type: 'WEEKLY', hour: 9, minute: 30 }), 0)).toBeNull();
  });

  it('ONCE fires at its date and time, then never again', () => {
    const once = schedule({ type: 'ONCE', hour: 9, minute: 30, date: '2026-12-01', timeZone: 'America/New_York' });
    expect(iso(nextDue(once, at('2026-11-25T12:00:00Z')))).toBe('2026-12-01T14:30:00.000Z');
    expect(nextDue(once, at('2026-12-01T14:30:00Z'))).toBeNull();
    expect(isDueAt(once, at('2026-12-01T14:30:00Z'))).toBe(true);
    expect(isDueAt(once, at('2026-12-01T14:31:00Z'))).toBe(false);
  });

  it('names the offset as GMT+hh:mm', () => {
    expect(gmtOffsetLabel('UTC', at('2026-11-25T12:00:00Z'))).toBe('GMT+00:00');
    expect(gmtOffsetLabel('Asia/Kolkata', at('2026-11-25T12:00:00Z'))).toBe('GMT+05:30');
    expect(gmtOffsetLabel('America/St_Johns', at('2026-11-25T12:00:00Z'))).toBe('GMT-03:30');
    expect(gmtOffsetLabel('Europe/Berlin', at('2026-07-01T12:00:00Z'))).toBe('GMT+02:00');
    expect(wallToInstant('Europe/Berlin', 2026, 7, 1, 14, 0)).toBe(at('2026-07-01T12:00:00Z'));
  });
});

describe('the timer form\'s rules', () => {
  const valid = { name: 'Night stop', action: 'STOP', type: 'DAILY', time: '23:30', taskType: 'relay' };
  const messages = (body: object) => {
    const result = TimerWrite.safeParse(body);
    return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
  };

  it('accepts a valid timer and defaults to all tasks, enabled', () => {
    expect(TimerWrite.parse(valid)).toMatchObject({ jobs: [], actived: true, daysOfWeek: [] });
  });

  it('names the field and the rule', () => {
    expect(messages({ ...valid, name: '' })).toEqual({ name: 'Name is required' });
    expect(messages({ ...valid, name: 'x'.repeat(101) })).toEqual({ name: 'Name must be at most 100 characters' });
    expect(messages({ ...valid, time: '24:00' })).toEqual({ time: 'Time must be HH:mm, 00:00 to 23:59' });
    expect(messages({ ...valid, type: 'HOURLY', time: '61' })).toEqual({ time: 'Time must be the minute, 00 to 59' });
    expect(messages({ ...valid, type: 'HOURLY', time: '15' })).toEqual({});
    expect(messages({ ...valid, type: 'WEEKLY' })).toEqual({ daysOfWeek: 'Choose at least one day of the week' });
    expect(messages({ ...valid, type: 'ONCE' })).toEqual({ date: 'Date is required' });
    expect(messages({ ...valid, type: 'ONCE', date: '2026-02-30' })).toEqual({ date: 'Date must be a day as YYYY-MM-DD' });
    expect(messages({ ...valid, jobs: [3, 3] })).toEqual({ jobs: 'A task is listed twice' });
  });
});
