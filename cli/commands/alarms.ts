import { type Command } from 'commander';
import { unwrap, type Schemas } from '../../openapi/client/index.ts';
import { readObjectFile } from '../body-file.ts';
import { contextOf } from '../context.ts';
import { formatTime, printJson, printLine, printTable } from '../output.ts';
import { integer, positiveId } from '../parsers.ts';
import { confirmOrRefuse } from './jobs.ts';
import type { Column } from '../ui/table.tsx';

interface JsonOption {
  json?: boolean;
}

const cardColumns: Column<Schemas['AlarmCard']>[] = [
  { header: 'ID', value: (c) => String(c.jobId), align: 'right' },
  { header: 'JOB', value: (c) => c.jobName },
  { header: 'TYPE', value: (c) => c.jobType },
  { header: 'ALARM', value: (c) => (c.alarmed ? 'on' : 'off'), color: (c) => (c.alarmed ? 'green' : undefined) },
  { header: 'E-MAILS', value: (c) => String(c.sentEmailAlarmCount), align: 'right' },
  { header: 'SMS', value: (c) => String(c.sentSmsAlarmCount), align: 'right' },
];

const historyColumns: Column<Schemas['SentAlarm']>[] = [
  { header: 'TIME', value: (a) => formatTime(a.time) },
  { header: 'TYPE', value: (a) => a.type },
  { header: 'JOB / RESOURCE', value: (a) => (a.jobId ? `${a.jobName} (id:${a.jobId})` : (a.resource ?? '--')) },
  { header: 'ALARM', value: (a) => a.alarm },
  { header: 'DELIVERIES', value: (a) => a.deliveries.map((d) => `${d.channel} ${d.recipient} ${d.status}`).join(', ') || '--', color: (a) => (a.deliveries.some((d) => d.status !== 'SENT') ? 'yellow' : undefined) },
  { header: 'CAUSE', value: (a) => a.cause ?? '--' },
];

const systemColumns: Column<Schemas['SystemAlarmList']['items'][number]>[] = [
  { header: 'GROUP', value: (a) => a.group },
  { header: 'NAME', value: (a) => a.name },
  { header: 'THRESHOLD', value: (a) => `${a.value} ${a.unit}`, align: 'right' },
  { header: 'E-MAIL', value: (a) => (a.email ? 'on' : 'off') },
  { header: 'SMS', value: (a) => (a.sms ? 'on' : 'off') },
  { header: 'NOW', value: (a) => (a.current === null || a.current === undefined ? '--' : `${a.current} ${a.unit}`), align: 'right' },
  { header: 'STATE', value: (a) => (a.raised ? 'raised' : 'ok'), color: (a) => (a.raised ? 'red' : 'green') },
];

/**
 * `mediaplane alarms list|history [delete]|settings get|set|system get|set|job <id> get|set|test-email`
 * (spec 03 Alarms).
 */
export function registerAlarmCommands(program: Command): void {
  const alarms = program.command('alarms').description('Job and system alarms: cards, sent alarms, general settings');

  alarms
    .command('list')
    .description('Alarmed jobs with their sent e-mail and SMS counts (listAlarmCards)')
    .option('--page <n>', 'page number, from 1', integer)
    .option('--size <n>', 'cards per page (default 8)', integer)
    .option('--json', "print the API's JSON")
    .action(async (options: JsonOption & { page?: number; size?: number }, command: Command) => {
      const { client } = contextOf(command);
      const page = await unwrap(client.GET('/api/alarms', { params: { query: { page: options.page, size: options.size ?? 100 } } }));
      if (options.json) return printJson(page);
      await printTable(cardColumns, page.items, 'Alarms were not', `Total: ${page.total}`);
    });

  alarms
    .command('history')
    .description('Sent alarms with their deliveries, newest first (listSentAlarms)')
    .option('--page <n>', 'page number, from 1', integer)
    .option('--size <n>', 'alarms per page (default 25)', integer)
    .option('--order <order>', 'by date: asc or desc (default desc)')
    .option('--job <id>', 'only the alarms of this job', integer)
    .option('--json', "print the API's JSON")
    .action(async (options: JsonOption & { page?: number; size?: number; order?: 'asc' | 'desc'; job?: number }, command: Command) => {
      const { client } = contextOf(command);
      const page = await unwrap(client.GET('/api/alarms/history', { params: { query: { page: options.page, size: options.size, order: options.order, jobId: options.job } } }));
      if (options.json) return printJson(page);
      await printTable(historyColumns, page.items, page.total === 0 ? 'No alarms sent' : 'No entries for the page', `Total: ${page.total}`);
    });

  const settings = alarms.command('settings').description('General settings: job alarm defaults, e-mail server, SMS provider');
  settings
    .command('get')
    .description('Show the general settings (getAlarmSettings); passwords are never shown')
    .option('--json', "print the API's JSON")
    .action(async (options: JsonOption, command: Command) => {
      const { client } = contextOf(command);
      const current = await unwrap(client.GET('/api/alarms/settings'));
      if (options.json) return printJson(current);
      printLine((await import('yaml')).stringify(current).trimEnd());
    });
  settings
    .command('set')
    .description('Change the general settings (updateAlarmSettings) from a JSON or YAML file with general, emailServer and/or smsProvider')
    .requiredOption('--file <path>', 'the file; - reads stdin')
    .option('--json', "print the API's JSON of the result")
    .action(async (options: JsonOption & { file: string }, command: Command) => {
      const { client } = contextOf(command);
      const body = (await readObjectFile(options.file, 'alarm settings')) as Schemas['AlarmSettingsUpdate'];
      const updated = await unwrap(client.PUT('/api/alarms/settings', { body }));
      if (options.json) return printJson(updated);
      printLine('Alarm settings updated.');
    });

  alarms
    .command('history-delete')
    .description('Delete every sent alarm and its deliveries (deleteSentAlarms). Asks first unless --yes')
    .option('-y, --yes', 'do not ask for confirmation')
    .option('--json', "print the API's JSON of the result")
    .action(async (options: JsonOption & { yes?: boolean }, command: Command) => {
      const { client } = contextOf(command);
      if (!(await confirmOrRefuse('Delete the whole alarm history?', 'not deleting the alarm history', options.yes))) return;
      const result = await unwrap(client.DELETE('/api/alarms/history'));
      if (options.json) return printJson(result);
      printLine('Alarm history deleted.');
    });

  const system = alarms.command('system').description('System alarms: thresholds of resources and services, with their channels');
  system
    .command('get')
    .description('The thresholds, their channels and what is raised now (getSystemAlarms)')
    .option('--json', "print the API's JSON")
    .action(async (options: JsonOption, command: Command) => {
      const { client } = contextOf(command);
      const list = await unwrap(client.GET('/api/alarms/system'));
      if (options.json) return printJson(list);
      await printTable(systemColumns, list.items, 'No system alarms');
    });
  system
    .command('set')
    .description('Change thresholds and channels (updateSystemAlarms) from a JSON or YAML file: { items: [{ name, value, email, sms }] }')
    .requiredOption('--file <path>', 'the file; - reads stdin')
    .option('--json', "print the API's JSON of the result")
    .action(async (options: JsonOption & { file: string }, command: Command) => {
      const { client } = contextOf(command);
      const body = (await readObjectFile(options.file, 'system alarms')) as Schemas['SystemAlarmUpdate'];
      const updated = await unwrap(client.PUT('/api/alarms/system', { body }));
      if (options.json) return printJson(updated);
      await printTable(systemColumns, updated.items, 'No system alarms');
    });

  const job = alarms.command('job').description("One job's alarm settings: its own events, channels and recipients, or the defaults");
  job
    .command('get')
    .description("A job's alarm settings (getJobAlarmSettings)")
    .argument('<id>', 'the relay or encoding id', positiveId)
    .option('--json', "print the API's JSON")
    .action(async (id: number, options: JsonOption, command: Command) => {
      const { client } = contextOf(command);
      const current = await unwrap(client.GET('/api/alarms/jobs/{id}', { params: { path: { id } } }));
      if (options.json) return printJson(current);
      printLine((await import('yaml')).stringify(current).trimEnd());
    });
  job
    .command('set')
    .description("Change a job's alarm settings (updateJobAlarmSettings) from a JSON or YAML file")
    .argument('<id>', 'the relay or encoding id', positiveId)
    .requiredOption('--file <path>', 'the file; - reads stdin')
    .option('--json', "print the API's JSON of the result")
    .action(async (id: number, options: JsonOption & { file: string }, command: Command) => {
      const { client } = contextOf(command);
      const body = (await readObjectFile(options.file, 'job alarm settings')) as Schemas['JobAlarmSettingsUpdate'];
      const updated = await unwrap(client.PUT('/api/alarms/jobs/{id}', { params: { path: { id } }, body }));
      if (options.json) return printJson(updated);
      printLine(`Alarm settings of job ${id} updated.`);
    });

  alarms
    .command('test-email')
    .description('Send a test mail through the e-mail server settings now (sendTestEmail)')
    .argument('<address>', 'where to send it')
    .option('--json', "print the API's JSON of the result")
    .action(async (address: string, options: JsonOption, command: Command) => {
      const { client } = contextOf(command);
      const result = await unwrap(client.POST('/api/alarms/test-email', { body: { address } }));
      if (options.json) return printJson(result);
      printLine(`Test mail sent to ${address} (${result.messageId}).`);
    });
}
