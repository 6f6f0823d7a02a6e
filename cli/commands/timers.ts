import { InvalidArgumentError, Option, type Command } from 'commander';
import { unwrap, type Schemas } from '../../openapi/client/index.ts';
import { DAYS_OF_WEEK } from '../../openapi/schemas/timers.ts';
import { defined, readObjectFile } from '../body-file.ts';
import { contextOf } from '../context.ts';
import { CliError, printJson, printLine, terminalWidth } from '../output.ts';
import { positiveId } from '../parsers.ts';
import { Prompter } from '../prompt.ts';
import { renderToolView } from './tools.ts';

/**
 * `mediaplane timers list|get|create|update|enable|disable|delete|firings`: the timers of the
 * Tools area (listTimers, getTimer, createTimer, updateTimer, setTimerActived, deleteTimer,
 * listTimerFirings). Times are the server's; `--jobs` empty or `all` means every task of the type.
 */

type TimerWrite = Schemas['TimerWrite'];

interface TimerFlags {
  name?: string;
  action?: TimerWrite['action'];
  type?: TimerWrite['type'];
  time?: string;
  days?: Schemas['DayOfWeek'][];
  date?: string;
  taskType?: TimerWrite['taskType'];
  jobs?: number[];
  enabled?: boolean;
  disabled?: boolean;
  file?: string;
  json?: boolean;
}

const upper = (allowed: readonly string[], what: string) => (value: string) => {
  const v = value.trim().toUpperCase();
  if (!allowed.includes(v)) throw new InvalidArgumentError(`${what} must be one of ${allowed.join(', ')}.`);
  return v;
};

function days(value: string): Schemas['DayOfWeek'][] {
  const list = value.split(',').map((d) => d.trim().toUpperCase()).filter(Boolean);
  for (const day of list) if (!(DAYS_OF_WEEK as readonly string[]).includes(day)) throw new InvalidArgumentError(`Days are ${DAYS_OF_WEEK.join(', ')} (comma separated).`);
  return list as Schemas['DayOfWeek'][];
}

function jobs(value: string): number[] {
  if (value.trim() === '' || value.trim().toLowerCase() === 'all') return [];
  return value.split(',').map((id) => positiveId(id));
}

function taskType(value: string): TimerWrite['taskType'] {
  const v = value.trim().toLowerCase();
  if (v !== 'relay' && v !== 'encoding') throw new InvalidArgumentError('Tasks type is relay or encoding.');
  return v;
}

function timerOptions(command: Command): Command {
  return command
    .option('--name <name>', 'the timer\'s name (max 100 characters)')
    .option('--action <action>', 'START, STOP or RESTART', upper(['START', 'STOP', 'RESTART'], 'Action'))
    .option('--type <type>', 'HOURLY, DAILY, WEEKLY or ONCE', upper(['HOURLY', 'DAILY', 'WEEKLY', 'ONCE'], 'Timer type'))
    .option('--time <time>', 'server time: HH:mm, or the minute mm for HOURLY')
    .option('--days <days>', 'WEEKLY: days, e.g. MON,FRI', days)
    .option('--date <date>', 'ONCE: the day, YYYY-MM-DD')
    .option('--task-type <type>', 'relay or encoding', taskType)
    .option('--jobs <ids>', 'ids of the tasks, comma separated; "all" (or "") for every task of the type', jobs)
    .addOption(new Option('--enabled', 'the timer fires').conflicts('disabled'))
    .addOption(new Option('--disabled', 'the timer does not fire').conflicts('enabled'))
    .option('--file <path>', 'a JSON or YAML file with the timer (the API\'s field names); - reads stdin; flags override it')
    .option('--json', 'print the API\'s JSON of the result');
}

/** The body from the file (or the stored timer), with the flags given on top. */
function bodyOf(base: Record<string, unknown>, flags: TimerFlags): TimerWrite {
  return {
    ...base,
    ...defined({
      name: flags.name,
      action: flags.action,
      type: flags.type,
      time: flags.time,
      daysOfWeek: flags.days,
      date: flags.date,
      taskType: flags.taskType,
      jobs: flags.jobs,
      actived: flags.enabled ? true : flags.disabled ? false : undefined,
    }),
  } as TimerWrite;
}

/** A stored timer as the body of its update. */
export function writeOf(timer: Schemas['Timer']): TimerWrite {
  return {
    name: timer.name,
    action: timer.action.value,
    type: timer.type.value,
    time: timer.time,
    daysOfWeek: timer.daysOfWeek,
    date: timer.date,
    taskType: timer.taskType.value,
    jobs: timer.allJobs ? [] : timer.jobs.map((job) => job.id),
    actived: timer.actived,
  };
}

function activedCommand(timers: Command, actived: boolean): void {
  const verb = actived ? 'enable' : 'disable';
  timers
    .command(verb)
    .description(`${actived ? 'Enable' : 'Disable'} a timer (setTimerActived)`)
    .argument('<id>', 'the timer id', positiveId)
    .option('--json', 'print the API\'s JSON of the result')
    .action(async (id: number, options: { json?: boolean }, command: Command) => {
      const timer = await unwrap(contextOf(command).client.PUT('/api/timers/{id}/actived', { params: { path: { id } }, body: { actived } }));
      if (options.json) return printJson(timer);
      printLine(`Timer ${timer.id} ${verb}d.`);
    });
}

export function registerTimerCommands(program: Command): void {
  const timers = program.command('timers').description('Timers: start, stop or restart relays or encodings at a time of the server (Tools)');

  timers
    .command('list')
    .description('List the timers (listTimers), sorted by id')
    .option('--json', 'print the API\'s JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const list = await unwrap(contextOf(command).client.GET('/api/timers'));
      if (options.json) return printJson(list);
      process.stdout.write(await renderToolView('TimerListView', { list, maxWidth: terminalWidth() }));
    });

  timers
    .command('get')
    .description('Show a timer (getTimer)')
    .argument('<id>', 'the timer id', positiveId)
    .option('--json', 'print the API\'s JSON')
    .action(async (id: number, options: { json?: boolean }, command: Command) => {
      const timer = await unwrap(contextOf(command).client.GET('/api/timers/{id}', { params: { path: { id } } }));
      if (options.json) return printJson(timer);
      process.stdout.write(await renderToolView('TimerView', { timer }));
    });

  timerOptions(timers.command('create').description('Create a timer (createTimer) from flags and/or --file')).action(async (flags: TimerFlags, command: Command) => {
    const file = flags.file ? await readObjectFile(flags.file, 'timer') : {};
    const timer = await unwrap(contextOf(command).client.POST('/api/timers', { body: bodyOf(file, flags) }));
    if (flags.json) return printJson(timer);
    printLine(`Timer ${timer.id} created; next run ${timer.nextRunAt ?? 'never'}.`);
  });

  timerOptions(timers.command('update').description('Change a timer (updateTimer): only the fields given change').argument('<id>', 'the timer id', positiveId)).action(
    async (id: number, flags: TimerFlags, command: Command) => {
      const { client } = contextOf(command);
      const file = flags.file ? await readObjectFile(flags.file, 'timer') : {};
      const current = await unwrap(client.GET('/api/timers/{id}', { params: { path: { id } } }));
      const timer = await unwrap(client.PUT('/api/timers/{id}', { params: { path: { id } }, body: bodyOf({ ...writeOf(current), ...file }, flags) }));
      if (flags.json) return printJson(timer);
      printLine(`Timer ${timer.id} updated.`);
    },
  );

  activedCommand(timers, true);
  activedCommand(timers, false);

  timers
    .command('delete')
    .description('Delete a timer (deleteTimer); asks first unless --yes')
    .argument('<id>', 'the timer id', positiveId)
    .option('-y, --yes', 'do not ask for confirmation')
    .option('--json', 'print the API\'s JSON of the result')
    .action(async (id: number, options: { json?: boolean; yes?: boolean }, command: Command) => {
      const { client } = contextOf(command);
      if (!options.yes) {
        const prompter = new Prompter();
        if (!prompter.interactive) throw new CliError('CONFIRMATION_REQUIRED', `not deleting timer ${id} without confirmation: stdin is not a terminal, pass --yes`);
        const timer = await unwrap(client.GET('/api/timers/{id}', { params: { path: { id } } }));
        const confirmed = await prompter.confirm(`Delete timer ${timer.name}?`);
        prompter.close();
        if (!confirmed) return printLine('Nothing deleted.');
      }
      const result = await unwrap(client.DELETE('/api/timers/{id}', { params: { path: { id } } }));
      if (options.json) return printJson(result);
      printLine(`Timer ${id} deleted.`);
    });

  timers
    .command('firings')
    .description('The latest firings of a timer (listTimerFirings): each due moment once, with the API process that carried it out')
    .argument('<id>', 'the timer id', positiveId)
    .option('--json', 'print the API\'s JSON')
    .action(async (id: number, options: { json?: boolean }, command: Command) => {
      const { items } = await unwrap(contextOf(command).client.GET('/api/timers/{id}/firings', { params: { path: { id } } }));
      if (options.json) return printJson({ items });
      process.stdout.write(await renderToolView('TimerFiringsView', { firings: items, maxWidth: terminalWidth() }));
    });
}
