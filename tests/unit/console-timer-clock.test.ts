import { describe, expect, it } from 'vitest';
import { clockText, localTimeOf, scheduleText, to12Hour, to24Hour, toPayload, valuesOf } from '../../console/src/features/timers/timerFormModel.ts';
import type { Schemas } from '../../console/src/data/client.ts';

/** Spec 03 Timers: the time picker's 12-hour mode (AM/PM), the server's time with its GMT offset and the local time beside it. */
const timer = (type: 'HOURLY' | 'DAILY' | 'WEEKLY' | 'ONCE', time: string, extra: Partial<Schemas['Timer']> = {}) =>
  ({ type: { value: type, name: type }, time, daysOfWeek: [], date: null, ...extra }) as unknown as Schemas['Timer'];

describe('the timers\' 12-hour clock', () => {
  it('reads each hour of the day on the 12-hour clock and back', () => {
    expect(to12Hour('00')).toEqual({ hour: '12', period: 'AM' });
    expect(to12Hour('01')).toEqual({ hour: '01', period: 'AM' });
    expect(to12Hour('11')).toEqual({ hour: '11', period: 'AM' });
    expect(to12Hour('12')).toEqual({ hour: '12', period: 'PM' });
    expect(to12Hour('13')).toEqual({ hour: '01', period: 'PM' });
    expect(to12Hour('23')).toEqual({ hour: '11', period: 'PM' });
    for (let h = 0; h < 24; h++) {
      const hour = String(h).padStart(2, '0');
      const { hour: h12, period } = to12Hour(hour);
      expect(to24Hour(h12, period)).toBe(hour);
    }
  });

  it('shows a time as AM/PM in 12-hour mode, unchanged in 24-hour mode, keeping a day change', () => {
    expect(clockText('23:30', true)).toBe('11:30 PM');
    expect(clockText('00:05', true)).toBe('12:05 AM');
    expect(clockText('12:00', true)).toBe('12:00 PM');
    expect(clockText('23:30', false)).toBe('23:30');
    expect(clockText('05:00 (+1 day)', true)).toBe('05:00 AM (+1 day)');
    // HOURLY has a minute alone.
    expect(clockText(':30', true)).toBe(':30');
  });

  it('writes the list\'s server time and the local time beside it on either clock', () => {
    expect(scheduleText(timer('DAILY', '23:30'), true)).toBe('11:30 PM');
    expect(scheduleText(timer('DAILY', '23:30'))).toBe('23:30');
    expect(scheduleText(timer('WEEKLY', '06:00', { daysOfWeek: ['MON', 'FRI'] }), true)).toBe('Mon, Fri 06:00 AM');
    expect(scheduleText(timer('ONCE', '18:15', { date: '2026-12-24' }), true)).toBe('2026-12-24 06:15 PM');
    expect(scheduleText(timer('HOURLY', '45'), true)).toBe('Every hour at :45');
    // A server at GMT+01:00 and a browser at GMT+05:30: 23:30 there is 04:00 the next day here.
    expect(clockText(localTimeOf('23:30', 'GMT+01:00', 330), true)).toBe('04:00 AM (+1 day)');
  });

  it('stores the 24-hour time whatever the clock shown', () => {
    const values = valuesOf({ ...timer('DAILY', '21:10'), name: 'n', action: { value: 'STOP', name: 'Stop' }, taskType: { value: 'relay', name: 'Relay' }, jobs: [], actived: true } as never);
    expect(values).toMatchObject({ hour: '21', minute: '10' });
    // The 12-hour picker's "09 PM" is hour 21; "12 AM" is 00.
    expect(toPayload({ ...values, hour: to24Hour('09', 'PM') }).time).toBe('21:10');
    expect(toPayload({ ...values, hour: to24Hour('12', 'AM') }).time).toBe('00:10');
  });
});
