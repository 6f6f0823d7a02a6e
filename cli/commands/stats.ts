import { writeFile } from 'node:fs/promises';
import { Option, type Command } from 'commander';
import { ApiError, unwrap, type Schemas } from '../../openapi/client/index.ts';
import { contextOf } from '../context.ts';
import { CliError, printJson, printLine, printTable } from '../output.ts';
import type { Column } from '../ui/table.tsx';

type Table = 'events' | 'uptimes' | 'downtimes';
type Kind = 'relay' | 'encoding';

const pad = (n: number) => String(n).padStart(2, '0');
function formatSeconds(seconds: number | undefined): string {
  if (seconds === undefined) return 'now';
  const d = new Date(seconds * 1000);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}
function formatDuration(seconds: number): string {
  const d = Math.floor(seconds / 86400);
  const h = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return d ? `${d}d ${h}h ${m}m` : `${h}h ${m}m ${seconds % 60}s`;
}

const eventColumns: Column<Schemas['JobHistoryEvent']>[] = [
  { header: 'TIME', value: (e) => formatSeconds(e.time) },
  { header: 'TYPE', value: (e) => e.type, color: (e) => (e.type === 'UP' ? 'green' : e.type === 'EXIT' || e.type === 'FAILURE' ? 'red' : undefined) },
  { header: 'REASON', value: (e) => e.reason ?? '' },
  { header: 'ACTOR', value: (e) => e.actor ?? '' },
];
const uptimeColumns: Column<Schemas['JobDowntime'] | Schemas['JobUptime']>[] = [
  { header: 'FROM', value: (u) => formatSeconds(u.from) },
  { header: 'UNTIL', value: (u) => formatSeconds(u.until) },
  { header: 'DURATION', value: (u) => formatDuration(u.durationSeconds), align: 'right' },
];
const downtimeColumns: Column<Schemas['JobDowntime'] | Schemas['JobUptime']>[] = [...uptimeColumns, { header: 'REASON', value: (d) => ('reason' in d ? (d.reason ?? '') : '') }];

/** yyyy/MM/dd or yyyy-MM-dd to the API's yyyy-MM-dd. */
function dayOption(value: string): string {
  const match = /^(\d{4})[/-](\d{2})[/-](\d{2})$/.exec(value);
  if (!match) throw new CliError('INVALID_OPTIONS', '--date must be yyyy/MM/dd');
  return `${match[1]}-${match[2]}-${match[3]}`;
}

/**
 * `mediaplane stats events|uptimes|downtimes <kind> <id>`: the tables of the statistics detail
 * view; `--download file.csv` saves the same CSV as the console's download link.
 */
export function registerStatsCommands(program: Command): void {
  const stats = program.command('stats').description('Job statistics: events, uptimes and downtimes (needs STATISTICS_VIEW or the job\'s view permission)');
  stats
    .command('summary')
    .description('The jobs with statistics on and their up share of the last 24 hours')
    .option('--json', 'print as JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const { client } = contextOf(command);
      const summary = await unwrap(client.GET('/api/statistics'));
      if (options.json) return printJson(summary);
      const columns: Column<Schemas['StatisticsJob']>[] = [
        { header: 'ID', value: (j) => String(j.id), align: 'right' },
        { header: 'TYPE', value: (j) => j.type },
        { header: 'NAME', value: (j) => j.name },
        { header: 'ON', value: (j) => (j.enabled ? 'yes' : 'no') },
        { header: 'UP 24H', value: (j) => `${j.upPercent}%`, align: 'right' },
        { header: 'LAST 24 HOURS', value: (j) => j.data.map((h) => (h.downPercent > 0 ? '▁' : h.upPercent >= 99 ? '█' : h.upPercent > 0 ? '▄' : ' ')).join('') },
      ];
      await printTable(columns, summary.items, 'No jobs with statistics');
    });
  for (const table of ['events', 'uptimes', 'downtimes'] as const) {
    stats
      .command(`${table} <kind> <id>`)
      .description(`The ${table} of a relay or encoding, newest first`)
      .addOption(new Option('--size <n>', 'the record count').default('30'))
      .option('--date <yyyy/MM/dd>', 'only that day')
      .option('--download <file>', 'save them as a CSV file (the console\'s download link)')
      .option('--json', 'print as JSON')
      .action(async (kindArg: string, idArg: string, options: { size: string; date?: string; download?: string; json?: boolean }, command: Command) => {
        const kind = kindArg.replace(/s$/, '') as Kind;
        if (kind !== 'relay' && kind !== 'encoding') throw new CliError('INVALID_ARGUMENT', 'kind must be relay or encoding');
        const id = Number(idArg);
        if (!Number.isInteger(id) || id < 1) throw new CliError('INVALID_ARGUMENT', 'id must be a positive whole number');
        const size = Number(options.size);
        if (!Number.isInteger(size) || size < 1 || size > 10000) throw new CliError('INVALID_OPTIONS', '--size must be a whole number from 1 to 10000');
        const day = options.date ? dayOption(options.date) : undefined;
        const query = day ? { size, from: day, to: day } : { size };
        const { client } = contextOf(command);
        await run(client, kind, id, table, query, options);
      });
  }
}

async function run(client: ReturnType<typeof contextOf>['client'], kind: Kind, id: number, table: Table, query: { size: number; from?: string; to?: string }, options: { download?: string; json?: boolean }): Promise<void> {
  const base = `/api/${kind}s/{id}/${table}` as '/api/relays/{id}/events';
  if (options.download) {
    const path = `${base}/download` as '/api/relays/{id}/events/download';
    const { data, error, response } = await client.GET(path, { params: { path: { id }, query }, parseAs: 'text' });
    if (!response.ok || data === undefined) throw ApiError.from(response.status, error, response.headers.get('x-request-id'));
    await writeFile(options.download, data);
    printLine(`saved ${data.split('\n').filter(Boolean).length - 1} ${table} to ${options.download}`);
    return;
  }
  const list = await unwrap(client.GET(base as '/api/relays/{id}/uptimes', { params: { path: { id }, query } }));
  if (options.json) return printJson(list);
  if (table === 'events') {
    const rows = list.items as unknown as Schemas['JobHistoryEvent'][];
    return printTable(eventColumns, rows, 'No events');
  }
  const rows = list.items as Schemas['JobDowntime'][];
  return printTable<Schemas['JobDowntime'] | Schemas['JobUptime']>(table === 'uptimes' ? uptimeColumns : downtimeColumns, rows, `No ${table}`);
}
