import type { Command } from 'commander';
import { unwrap } from '../../openapi/client/index.ts';
import { readObjectFile } from '../body-file.ts';
import { contextOf } from '../context.ts';
import { CliError, printJson, printLine } from '../output.ts';

/** `mediaplane settings get [section]` and `settings set <section> --file f.yaml` (System settings, spec 03). */
const SECTIONS = ['application', 'redis', 'rixui-log', 'rixjob-log', 'features', 'streampool-servers'] as const;
type Section = (typeof SECTIONS)[number];
type Client = ReturnType<typeof contextOf>['client'];

function section(value: string): Section {
  if (!(SECTIONS as readonly string[]).includes(value)) throw new CliError('BAD_ARGUMENT', `section must be one of ${SECTIONS.join(', ')}`);
  return value as Section;
}

async function read(client: Client, name: Section): Promise<unknown> {
  switch (name) {
    case 'application':
      return unwrap(client.GET('/api/settings/application'));
    case 'redis':
      return unwrap(client.GET('/api/settings/redis'));
    case 'rixui-log':
      return unwrap(client.GET('/api/settings/logs/{target}', { params: { path: { target: 'rixui' } } }));
    case 'rixjob-log':
      return unwrap(client.GET('/api/settings/logs/{target}', { params: { path: { target: 'rixjob' } } }));
    case 'features':
      return unwrap(client.GET('/api/settings/features'));
    case 'streampool-servers':
      return unwrap(client.GET('/api/settings/streampool-servers'));
  }
}

/** Aligned `key  value` lines; lists as one row per item. */
function printSection(name: Section, value: unknown): void {
  printLine(`[${name}]`);
  const rows = (list: Array<Record<string, unknown>>, columns: string[]) => {
    if (list.length === 0) return printLine('  (none)');
    const widths = columns.map((c) => Math.max(c.length, ...list.map((row) => String(row[c] ?? '').length)));
    printLine(`  ${columns.map((c, i) => c.padEnd(widths[i])).join('  ')}`);
    for (const row of list) printLine(`  ${columns.map((c, i) => String(row[c] ?? '').padEnd(widths[i])).join('  ')}`);
  };
  const object = value as Record<string, unknown>;
  if (name === 'features') return rows(object.features as Array<Record<string, unknown>>, ['name', 'scope', 'status', 'value']);
  if (name === 'streampool-servers') return rows(object.items as Array<Record<string, unknown>>, ['id', 'alias', 'publishAddress', 'playbackAddress', 'apiKey', 'usageCount']);
  for (const [key, item] of Object.entries(object)) {
    if (!Array.isArray(item)) printLine(`  ${key.padEnd(24)}${item === '' ? '-' : String(item)}`);
  }
  if (Array.isArray(object.loggers)) {
    printLine('  loggers:');
    rows(object.loggers as Array<Record<string, unknown>>, ['id', 'loggerName', 'logLevel']);
  }
}

async function write(client: Client, name: Section, body: Record<string, unknown>): Promise<unknown> {
  switch (name) {
    case 'application':
      return unwrap(client.PUT('/api/settings/application', { body: body as never }));
    case 'redis':
      return unwrap(client.PUT('/api/settings/redis', { body: body as never }));
    case 'rixui-log':
    case 'rixjob-log':
      return unwrap(client.PUT('/api/settings/logs/{target}', { params: { path: { target: name === 'rixui-log' ? 'rixui' : 'rixjob' } }, body: body as never }));
    case 'features':
      return unwrap(client.PUT('/api/settings/features', { body: body as never }));
    case 'streampool-servers': {
      // One server: with an id it is updated, without one created.
      const { id, ...server } = body;
      if (id === undefined) return unwrap(client.POST('/api/settings/streampool-servers', { body: server as never }));
      return unwrap(client.PUT('/api/settings/streampool-servers/{id}', { params: { path: { id: Number(id) } }, body: server as never }));
    }
  }
}

export function registerSettingsCommands(program: Command): void {
  const settings = program.command('settings').description('System settings: application, Redis, log and feature settings, streampool servers');

  settings
    .command('get')
    .description(`Show system settings (getApplicationSettings, getRedisSettings, getLogSettings, getFeatureSettings, listStreampoolServers); section: ${SECTIONS.join(', ')}`)
    .argument('[section]', 'one section; all that you may read when absent', section)
    .option('--json', 'print the API\'s JSON')
    .action(async (name: Section | undefined, options: { json?: boolean }, command: Command) => {
      const { client } = contextOf(command);
      const result: Record<string, unknown> = {};
      for (const each of name ? [name] : SECTIONS) {
        try {
          result[each] = await read(client, each);
        } catch (error) {
          // Without a section: skip what this user may not read (features are ADMIN only).
          if (!name && (error as { status?: number }).status === 403) continue;
          throw error;
        }
      }
      if (options.json) return printJson(name ? result[name] : result);
      for (const [each, value] of Object.entries(result)) printSection(each as Section, value);
    });

  settings
    .command('set')
    .description('Save a section from a JSON or YAML file with the API\'s field names (streampool-servers: one server, updated when it has an id)')
    .argument('<section>', SECTIONS.join(', '), section)
    .requiredOption('--file <path>', 'the JSON or YAML file; - reads stdin')
    .option('--json', 'print the API\'s JSON of the result')
    .action(async (name: Section, options: { file: string; json?: boolean }, command: Command) => {
      const { client } = contextOf(command);
      const body = await readObjectFile(options.file, name);
      const result = await write(client, name, body);
      if (options.json) return printJson(result);
      printLine(`Settings ${name} saved.`);
      if (name === 'streampool-servers') printSection(name, { items: [result] });
      else printSection(name, result);
    });
}
