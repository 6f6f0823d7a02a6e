import { z } from 'zod';
import { MAX_ID, Timestamp } from './common.ts';

/**
 * Timers (spec 03 §2 Tools, §3 Timer, §4, §5): start, stop or restart the relays or encodings
 * of a list (all of them when the list is empty) at a time of the server's time zone: each hour
 * at a minute (HOURLY), each day (DAILY), on days of the week (WEEKLY) or once (ONCE).
 */

export const TIMER_ACTIONS = { START: 'Start', STOP: 'Stop', RESTART: 'Restart' } as const;
export const TIMER_TYPES = { HOURLY: 'Hourly', DAILY: 'Daily', WEEKLY: 'Weekly', ONCE: 'Once' } as const;
export const TIMER_TASK_TYPES = { relay: 'Relay', encoding: 'Encoding' } as const;
export const DAYS_OF_WEEK = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'] as const;
export const DAY_NAMES: Record<(typeof DAYS_OF_WEEK)[number], string> = { MON: 'Mon', TUE: 'Tue', WED: 'Wed', THU: 'Thu', FRI: 'Fri', SAT: 'Sat', SUN: 'Sun' };

const keys = <T extends Record<string, string>>(o: T) => Object.keys(o) as [keyof T & string, ...(keyof T & string)[]];

export const TimerActionValue = z.enum(keys(TIMER_ACTIONS)).meta({ id: 'TimerActionValue', description: 'START switches the jobs on, STOP off, RESTART hard-restarts the ones that are on.' });
export const TimerTypeValue = z.enum(keys(TIMER_TYPES)).meta({ id: 'TimerTypeValue', description: 'HOURLY: at minute M of every hour; DAILY: at HH:mm every day; WEEKLY: at HH:mm on the days chosen; ONCE: at a date and time.' });
export const TimerTaskTypeValue = z.enum(keys(TIMER_TASK_TYPES)).meta({ id: 'TimerTaskTypeValue', description: 'The kind of task the timer acts on.' });
export const DayOfWeek = z.enum(DAYS_OF_WEEK).meta({ id: 'DayOfWeek', description: 'A day of the week.' });

const choice = (value: z.ZodType, id: string, description: string) => z.object({ value, name: z.string().describe('Display name.') }).meta({ id, description });

export const TimerAction = choice(TimerActionValue, 'TimerAction', 'A timer action, with its value and display name.');
export const TimerType = choice(TimerTypeValue, 'TimerType', 'A timer type, with its value and display name.');
export const TimerTaskType = choice(TimerTaskTypeValue, 'TimerTaskType', 'A timer task type, with its value and display name.');

export const TimerJob = z.object({ id: z.number().int(), name: z.string() }).meta({ id: 'TimerJob', description: 'A task the timer acts on.' });

/** "HH:mm", or for HOURLY "mm" (the hours are hidden). */
const HOUR_MINUTE = /^([01]\d|2[0-3]):([0-5]\d)$/;
const MINUTE = /^[0-5]\d$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isCalendarDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= 2000 && year <= 2999 && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const timerFields = {
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(100, 'Name must be at most 100 characters')
    .describe('Max 100 characters.'),
  action: TimerActionValue,
  type: TimerTypeValue,
  time: z
    .string({ error: 'Time is required' })
    .describe('In the server\'s time zone: "HH:mm" (24-hour), or for HOURLY the minute "mm" ("HH:mm" is accepted and its hours ignored).'),
  daysOfWeek: z.array(DayOfWeek).max(7).default([]).describe('WEEKLY: the days it fires on (at least one). Ignored for the other types.'),
  date: z.string().nullable().optional().describe('ONCE: the day, YYYY-MM-DD. Ignored for the other types.'),
  taskType: TimerTaskTypeValue,
  jobs: z
    .array(z.number().int().positive().max(MAX_ID))
    .max(1000, 'A timer can list at most 1000 tasks')
    .default([])
    .describe('Ids of the relays or encodings (of taskType) it acts on; empty: ALL of them, those added later included.'),
  actived: z.boolean().default(true).describe('Enabled: only enabled timers fire.'),
};

export const TimerWrite = z
  .object(timerFields)
  .superRefine((timer, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (timer.type === 'HOURLY') {
      if (!MINUTE.test(timer.time) && !HOUR_MINUTE.test(timer.time)) issue('time', 'Time must be the minute, 00 to 59');
    } else if (!HOUR_MINUTE.test(timer.time)) issue('time', 'Time must be HH:mm, 00:00 to 23:59');
    if (timer.type === 'WEEKLY' && timer.daysOfWeek.length === 0) issue('daysOfWeek', 'Choose at least one day of the week');
    if (timer.type === 'ONCE') {
      if (!timer.date) issue('date', 'Date is required');
      else if (!isCalendarDate(timer.date)) issue('date', 'Date must be a day as YYYY-MM-DD');
    }
    if (new Set(timer.jobs).size !== timer.jobs.length) issue('jobs', 'A task is listed twice');
  })
  .meta({ id: 'TimerWrite', description: 'A timer as the form saves it (create and update).' });

export const Timer = z
  .object({
    id: z.number().int(),
    name: z.string(),
    action: TimerAction,
    type: TimerType,
    time: z.string().describe('"HH:mm", or "mm" for HOURLY, in the server\'s time zone.'),
    daysOfWeek: z.array(DayOfWeek),
    date: z.string().nullable(),
    timeZone: z.string().describe('The IANA time zone the time is read in (the server\'s when the timer was saved).'),
    utcOffset: z.string().describe('That zone\'s offset now, as "GMT+hh:mm".'),
    taskType: TimerTaskType,
    jobs: z.array(TimerJob).describe('The tasks it acts on (ones deleted since are left out).'),
    allJobs: z.boolean().describe('No task was listed: it acts on ALL tasks of its type.'),
    actived: z.boolean(),
    nextRunAt: Timestamp.nullable().describe('When it fires next (null: disabled, or a ONCE timer whose moment has passed).'),
    lastFiredAt: Timestamp.nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Timer', description: 'A timer.' });

export const TimerList = z
  .object({
    items: z.array(Timer).describe('Sorted by id.'),
    total: z.number().int(),
    timeZone: z.string().describe('The server\'s time zone.'),
    utcOffset: z.string().describe('Its offset now, "GMT+hh:mm".'),
  })
  .meta({ id: 'TimerList', description: 'Every timer, sorted by id.' });

export const TimerActived = z.object({ actived: z.boolean() }).meta({ id: 'TimerActived', description: 'Enable or disable a timer.' });

export const TimerFiring = z
  .object({
    dueAt: Timestamp.describe('The moment it was due.'),
    firedAt: Timestamp,
    firedBy: z.string().describe('The API process that carried it out.'),
    action: TimerActionValue,
    jobs: z.array(z.number().int()).describe('The tasks whose desired state it changed.'),
  })
  .meta({ id: 'TimerFiring', description: 'One firing of a timer: recorded exactly once, whichever API process carried it out.' });

export const TimerFiringList = z.object({ items: z.array(TimerFiring) }).meta({ id: 'TimerFiringList', description: 'The latest firings of a timer, newest first (at most 100).' });

export type TimerWriteValue = z.output<typeof TimerWrite>;
export type TimerDto = z.infer<typeof Timer>;
export type TimerActionName = z.infer<typeof TimerActionValue>;
export type TimerTypeName = z.infer<typeof TimerTypeValue>;
export type DayOfWeekName = z.infer<typeof DayOfWeek>;
