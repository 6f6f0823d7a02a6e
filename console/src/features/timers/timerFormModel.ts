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

/** How the list shows when a timer fires, in the server's time. */
export function scheduleText(timer: Timer): string {
  switch (timer.type.value) {
    case 'HOURLY':
      return `Every hour at :${timer.time}`;
    case 'DAILY':
      return timer.time;
    case 'WEEKLY':
      return `${timer.daysOfWeek.map((d) => DAY_NAMES[d]).join(', ')} ${timer.time}`;
    case 'ONCE':
      return `${timer.date ?? ''} ${timer.time}`;
  }
}
