import { DAY_NAMES, DAYS_OF_WEEK } from '../../../../openapi/schemas/timers.ts';
import type { Schemas } from '../../data/client.ts';

type Timer = Schemas['Timer'];

/** The timer form as its inputs hold it. */
export interface TimerFormValues extends Record<string, unknown> {
  name: string;
  action: Schemas['TimerActionValue'];
  type: Schemas['TimerTypeValue'];
  hour: string;
  minute: string;
  daysOfWeek: Schemas['DayOfWeek'][];
  date: string;
  taskType: Schemas['TimerTaskTypeValue'];
  jobs: Schemas['TimerJob'][];
  actived: boolean;
}

export function newTimerValues(): TimerFormValues {
  return { name: '', action: 'START', type: 'DAILY', hour: '00', minute: '00', daysOfWeek: [], date: '', taskType: 'relay', jobs: [], actived: true };
}

export function valuesOf(timer: Timer): TimerFormValues {
  const [hour, minute] = timer.time.includes(':') ? timer.time.split(':') : ['00', timer.time];
  return {
    name: timer.name,
    action: timer.action.value,
    type: timer.type.value,
    hour,
    minute,
    daysOfWeek: timer.daysOfWeek,
    date: timer.date ?? '',
    taskType: timer.taskType.value,
    jobs: timer.jobs,
    actived: timer.actived,
  };
}

/** HOURLY hides the hours: its time is the minute alone. */
export function toPayload(values: TimerFormValues): Schemas['TimerWrite'] {
  return {
    name: values.name,
    action: values.action,
    type: values.type,
    time: values.type === 'HOURLY' ? values.minute : `${values.hour}:${values.minute}`,
    daysOfWeek: values.type === 'WEEKLY' ? DAYS_OF_WEEK.filter((d) => values.daysOfWeek.includes(d)) : [],
    date: values.type === 'ONCE' ? values.date || null : null,
    taskType: values.taskType,
    jobs: values.jobs.map((job) => job.id),
    actived: values.actived,
  };
}

/** Minutes east of UTC of "GMT+05:30". */
export function offsetOf(label: string): number {
  const match = /^GMT([+-])(\d{2}):(\d{2})$/.exec(label);
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

const two = (n: number) => String(n).padStart(2, '0');

/**
 * A server time ("HH:mm", or "mm" for HOURLY) as the user's clock reads it, from the server's
 * offset and the browser's: "HH:mm" (with "(+1 day)" / "(-1 day)" when the day changes), or ":mm".
 */
export function localTimeOf(time: string, serverOffset: string, browserOffsetMinutes = -new Date().getTimezoneOffset()): string {
  const shift = browserOffsetMinutes - offsetOf(serverOffset);
  if (!time.includes(':')) return `:${two((((Number(time) + shift) % 60) + 60) % 60)}`;
  const [h, m] = time.split(':').map(Number);
  const total = h * 60 + m + shift;
  const day = Math.floor(total / 1440);
  const within = ((total % 1440) + 1440) % 1440;
  return `${two(Math.floor(within / 60))}:${two(within % 60)}${day > 0 ? ' (+1 day)' : day < 0 ? ' (-1 day)' : ''}`;
}

export type Period = 'AM' | 'PM';

/** A 24-hour clock's hour ("00" to "23") on the 12-hour clock: "12", "01" ... "11" with AM or PM. */
export function to12Hour(hour: string): { hour: string; period: Period } {
  const h = Number(hour);
  return { hour: two(h % 12 === 0 ? 12 : h % 12), period: h < 12 ? 'AM' : 'PM' };
}

/** Back to the 24-hour clock: 12 AM is "00", 12 PM is "12". */
export function to24Hour(hour12: string, period: Period): string {
  const h = Number(hour12) % 12;
  return two(period === 'PM' ? h + 12 : h);
}

/**
 * "HH:mm" (and what follows it, such as " (+1 day)") on the chosen clock: "23:30" reads
 * "11:30 PM" in 12-hour mode. A minute alone (":mm", HOURLY) has no hour to change.
 */
export function clockText(time: string, hour12: boolean): string {
  const match = /^(\d{2}):(\d{2})(.*)$/.exec(time);
  if (!hour12 || !match) return time;
  const { hour, period } = to12Hour(match[1]);
  return `${hour}:${match[2]} ${period}${match[3]}`;
}

/** How the list shows when a timer fires, in the server's time, on the 24-hour or the 12-hour clock. */
export function scheduleText(timer: Timer, hour12 = false): string {
  const time = clockText(timer.time, hour12);
  switch (timer.type.value) {
    case 'HOURLY':
      return `Every hour at :${timer.time}`;
    case 'DAILY':
      return time;
    case 'WEEKLY':
      return `${timer.daysOfWeek.map((d) => DAY_NAMES[d]).join(', ')} ${time}`;
    case 'ONCE':
      return `${timer.date ?? ''} ${time}`;
  }
}
