import { jobPermissions } from '../../openapi/permissions.ts';
import { TIMER_ACTIONS, TIMER_TASK_TYPES, TIMER_TYPES, type TimerDto, type TimerWriteValue } from '../../openapi/schemas/timers.ts';
import { can, type Principal } from '../auth/principal.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../errors.ts';
import type { EventBus } from '../events/event-bus.ts';
import type { TimerColumns, TimerRow, TimersRepository } from '../repositories/timers.repository.ts';
import { gmtOffsetLabel, nextDue, type Schedule, type ScheduleType } from './timer-schedule.ts';

export interface TimersServiceOptions {
  /** The zone timers are entered in: the server's (TZ, else the system's). */
  timeZone?: string;
  now?: () => number;
}

export function serverTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

export function scheduleOf(row: Pick<TimerRow, 'type' | 'hour' | 'minute' | 'days_of_week' | 'date' | 'time_zone'>): Schedule {
  return { type: row.type as ScheduleType, hour: row.hour, minute: row.minute, daysOfWeek: row.days_of_week, date: row.date, timeZone: row.time_zone };
}

const two = (n: number) => String(n).padStart(2, '0');

/** The permission an action on tasks of a kind needs (spec 01 §6): start/stop VIEW_ON_OFF, restart VIEW_RESTART, or EDIT. */
function taskPermission(action: TimerWriteValue['action'], kind: TimerWriteValue['taskType']): readonly string[] {
  const sets = jobPermissions(kind);
  return action === 'RESTART' ? sets.restart.anyOf : sets.onOff.anyOf;
}

/**
 * Timers: the rules of spec 03 (name, time by type, the tasks of a task type) and their firing
 * history. A timer acts on tasks on its creator's behalf, so saving one needs, besides TOOLS_EDIT,
 * the permission its action needs on its task type. Every change is published on the `timers`
 * topic, which also tells the schedulers of every API process to read the timers again.
 */
export class TimersService {
  private readonly timeZone: string;
  private readonly now: () => number;

  constructor(
    private readonly timers: TimersRepository,
    private readonly events: EventBus,
    options: TimersServiceOptions = {},
  ) {
    this.timeZone = options.timeZone ?? serverTimeZone();
    this.now = options.now ?? Date.now;
  }

  async list(): Promise<{ items: TimerDto[]; total: number; timeZone: string; utcOffset: string }> {
    const rows = await this.timers.list();
    const items = await this.toDtos(rows);
    return { items, total: items.length, timeZone: this.timeZone, utcOffset: gmtOffsetLabel(this.timeZone, this.now()) };
  }

  async get(id: number): Promise<TimerDto> {
    const row = await this.timers.findById(id);
    if (!row) throw new NotFoundError('Timer', id);
    return (await this.toDtos([row]))[0];
  }

  async create(principal: Principal, body: TimerWriteValue): Promise<TimerDto> {
    const columns = await this.check(principal, body);
    const once = columns.type === 'ONCE' ? nextDue(scheduleOf(columns), this.now()) : 0;
    if (once === null) throw ValidationError.field('body.date', 'The date and time of a ONCE timer must be in the future');
    const row = await this.timers.insert(columns, principal.userId);
    await this.publish('created', row.id);
    return this.get(row.id);
  }

  async update(principal: Principal, id: number, body: TimerWriteValue): Promise<TimerDto> {
    if (!(await this.timers.findById(id))) throw new NotFoundError('Timer', id);
    const columns = await this.check(principal, body);
    if (!(await this.timers.update(id, columns))) throw new NotFoundError('Timer', id);
    await this.publish('updated', id);
    return this.get(id);
  }

  async setActived(id: number, actived: boolean): Promise<TimerDto> {
    if (!(await this.timers.setActived(id, actived))) throw new NotFoundError('Timer', id);
    await this.publish('updated', id);
    return this.get(id);
  }

  async delete(id: number): Promise<void> {
    if (!(await this.timers.delete(id))) throw new NotFoundError('Timer', id);
    await this.publish('deleted', id);
  }

  async firings(id: number) {
    if (!(await this.timers.findById(id))) throw new NotFoundError('Timer', id);
    const rows = await this.timers.firings(id);
    return {
      items: rows.map((r) => ({ dueAt: r.due_at.toISOString(), firedAt: r.fired_at.toISOString(), firedBy: r.fired_by, action: r.action as TimerWriteValue['action'], jobs: r.job_ids })),
    };
  }

  private publish(type: string, id: number): Promise<void> {
    return this.events.publish({ topic: 'timers', type, id });
  }

  /** The columns of a valid timer, or the 400/403 that says what is wrong. */
  private async check(principal: Principal, body: TimerWriteValue): Promise<TimerColumns> {
    const needed = taskPermission(body.action, body.taskType);
    if (!can(principal, ...needed)) {
      throw new ForbiddenError(`A timer that does ${TIMER_ACTIONS[body.action]} on ${body.taskType}s needs ${needed.join(' or ')}.`);
    }
    if (body.jobs.length > 0) {
      const found = new Set((await this.timers.jobNames(body.taskType, body.jobs)).map((job) => job.id));
      const issues = body.jobs.flatMap((id, index) => (found.has(id) ? [] : [{ path: `body.jobs.${index}`, message: `No ${body.taskType} with id ${id}` }]));
      if (issues.length) throw new ValidationError(issues.map((i) => `${i.path}: ${i.message}`).join('; '), issues);
    }
    const [hh, mm] = body.time.includes(':') ? body.time.split(':').map(Number) : [null, Number(body.time)];
    return {
      name: body.name,
      action: body.action,
      type: body.type,
      hour: body.type === 'HOURLY' ? null : hh,
      minute: mm as number,
      days_of_week: body.type === 'WEEKLY' ? [...new Set(body.daysOfWeek)] : [],
      date: body.type === 'ONCE' ? (body.date ?? null) : null,
      time_zone: this.timeZone,
      task_type: body.taskType,
      job_ids: body.jobs,
      all_jobs: body.jobs.length === 0,
      actived: body.actived,
    };
  }

  private async toDtos(rows: TimerRow[]): Promise<TimerDto[]> {
    const names = new Map<string, string>();
    for (const kind of ['relay', 'encoding'] as const) {
      const ids = [...new Set(rows.filter((r) => r.task_type === kind && !r.all_jobs).flatMap((r) => r.job_ids))];
      for (const job of await this.timers.jobNames(kind, ids)) names.set(`${kind}:${job.id}`, job.name);
    }
    const now = this.now();
    return rows.map((row) => {
      const next = row.actived ? nextDue(scheduleOf(row), now) : null;
      return {
        id: row.id,
        name: row.name,
        action: { value: row.action as TimerDto['action']['value'], name: TIMER_ACTIONS[row.action as keyof typeof TIMER_ACTIONS] },
        type: { value: row.type as TimerDto['type']['value'], name: TIMER_TYPES[row.type as keyof typeof TIMER_TYPES] },
        time: row.hour === null ? two(row.minute) : `${two(row.hour)}:${two(row.minute)}`,
        daysOfWeek: row.days_of_week as TimerDto['daysOfWeek'],
        date: row.date,
        timeZone: row.time_zone,
        utcOffset: gmtOffsetLabel(row.time_zone, next ?? now),
        taskType: { value: row.task_type, name: TIMER_TASK_TYPES[row.task_type] },
        jobs: row.all_jobs ? [] : row.job_ids.flatMap((id) => (names.has(`${row.task_type}:${id}`) ? [{ id, name: names.get(`${row.task_type}:${id}`) as string }] : [])),
        allJobs: row.all_jobs,
        actived: row.actived,
        nextRunAt: next === null ? null : new Date(next).toISOString(),
        lastFiredAt: row.last_fired_at ? row.last_fired_at.toISOString() : null,
        createdAt: row.created_at.toISOString(),
        updatedAt: row.updated_at.toISOString(),
      };
    });
  }
}
