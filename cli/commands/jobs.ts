import { Option, type Command } from 'commander';
import { createElement, type FunctionComponent, type ReactElement } from 'react';
import { unwrap, type ApiClient, type Schemas } from '../../openapi/client/index.ts';
import { contextOf } from '../context.ts';
import type { BulkAction } from '../../openapi/schemas/job-api.ts';
import {
  bulkAction,
  bulkIds,
  bulkPath,
  createJobBody,
  idList,
  inputTypeList,
  jobPath,
  listQuery,
  outputTypeList,
  readJobFile,
  restartMode,
  saveAsTemplateBody,
  updateJobBody,
  type JobKind,
  type ListFlags,
  type RestartFlags,
  type SaveAsTemplateFlags,
} from '../job-input.ts';
import { CliError, printJson, printLine, terminalWidth, type Streams } from '../output.ts';
import { integer, positiveId } from '../parsers.ts';
import { Prompter } from '../prompt.ts';
import type * as jobViews from '../ui/job-views.tsx';
import { registerJobInsightCommands } from './job-insights.ts';
import { registerJobLogsCommand } from './job-logs.ts';

/**
 * `mediaplane relays ...` and `mediaplane encodings ...`: one command set, built per kind, named
 * after the operationIds of openapi/paths/jobs.ts (listRelays, startEncoding, ...).
 */

interface JsonOption {
  json?: boolean;
}

type JobViews = Pick<typeof jobViews, 'JobPageView' | 'JobView' | 'TemplatePageView'>;

/** Render one of cli/ui/job-views with Ink, once, as text; Ink loads only here, so --json and the writes start without it. */
export async function printJobView<K extends keyof JobViews>(name: K, props: Parameters<JobViews[K]>[0], streams: Streams = { out: process.stdout, err: process.stderr }): Promise<void> {
  const [{ renderToString }, loaded] = await Promise.all([import('ink'), import('../ui/job-views.tsx')]);
  const view = loaded[name] as unknown as FunctionComponent<typeof props>;
  const text = renderToString(createElement(view, props) as ReactElement, { columns: terminalWidth(streams) ?? 1000 });
  streams.out.write(`${text.split('\n').map((line) => line.trimEnd()).join('\n')}\n`);
}

export const KIND_NAMES = { relay: 'Relay', encoding: 'Encoding' } as const;

/** On a terminal, ask; elsewhere refuse without --yes, so a script never deletes by accident. */
export async function confirmOrRefuse(question: string, refusal: string, yes?: boolean): Promise<boolean> {
  if (yes) return true;
  const prompter = new Prompter();
  if (!prompter.interactive) throw new CliError('CONFIRMATION_REQUIRED', `${refusal} without confirmation: stdin is not a terminal, pass --yes`);
  const confirmed = await prompter.confirm(question);
  prompter.close();
  if (!confirmed) printLine('Nothing deleted.');
  return confirmed;
}

/** The list options of listRelays / listEncodings (and the template lists: search, type, sort, paging). */
export function listOptions(command: Command, kind: JobKind, forTemplates = false): Command {
  command.option('--search <text>', 'name (case-insensitive) or an exact ID').addOption(new Option('--type <type>', 'LIVE or VOD').choices(['LIVE', 'VOD']));
  if (!forTemplates) {
    command
      .addOption(new Option('--status <status>', 'active (on), inactive (off), streaming, waiting or failed').choices(['active', 'inactive', 'streaming', 'waiting', 'failed']))
      .option('--node <ids>', 'node ids, comma-separated (e.g. 1,2)', idList);
    if (kind === 'encoding') command.option('--preset <ids>', 'video preset ids, comma-separated', idList);
    command.option('--output-types <types>', 'output types, comma-separated (udp,srt,tcp,rtmp,mpegts,playback,httplive,hls,dash,cmaf)', outputTypeList).option('--input-types <types>', 'input types, comma-separated (uri,storage,playlist,dvb,dev,multiviewer)', inputTypeList);
  }
  return command
    .addOption(new Option('--sort <field>', 'sort by (default id)').choices(['id', 'name']))
    .addOption(new Option('--order <order>', 'sort direction (default desc)').choices(['asc', 'desc']))
    .option('--page <n>', 'page number, from 1', integer)
    .option('--size <n>', 'items per page, 1 to 500 (default 25)', integer)
    .option('--json', 'print the API\'s JSON');
}

async function getJob(client: ApiClient, kind: JobKind, id: number): Promise<Schemas['Job']> {
  return unwrap(client.GET(jobPath(kind, '/api/relays/{id}'), { params: { path: { id } } }));
}

function registerReads(jobs: Command, kind: JobKind): void {
  const Kind = KIND_NAMES[kind];
  listOptions(jobs.command('list').description(`List ${kind}s (list${Kind}s) with the Total/Active/Failed/Waiting counts`), kind).action(async (options: ListFlags, command: Command) => {
    const { client } = contextOf(command);
    const page = await unwrap(client.GET(jobPath(kind, '/api/relays'), { params: { query: listQuery(options) } }));
    if (options.json) return printJson(page);
    await printJobView('JobPageView', { kind, page, maxWidth: terminalWidth() });
  });

  jobs
    .command('get')
    .description(`Show a ${kind} with its status and comments (get${Kind})`)
    .argument('<id>', `the ${kind} id`, positiveId)
    .option('--json', 'print the API\'s JSON')
    .action(async (id: number, options: JsonOption, command: Command) => {
      const job = await getJob(contextOf(command).client, kind, id);
      if (options.json) return printJson(job);
      await printJobView('JobView', { kind, job });
    });
}

function registerWrites(jobs: Command, kind: JobKind): void {
  const Kind = KIND_NAMES[kind];
  jobs
    .command('create')
    .description(`Create a ${kind} (create${Kind}) from a JSON or YAML file with the API's field names`)
    .requiredOption('--file <path>', 'the JSON or YAML file; - reads stdin')
    .option('--json', 'print the API\'s JSON of the result')
    .action(async (options: JsonOption & { file: string }, command: Command) => {
      const { client } = contextOf(command);
      const body = createJobBody(await readJobFile(options.file, kind));
      const job = await unwrap(client.POST(jobPath(kind, '/api/relays'), { body }));
      if (options.json) return printJson(job);
      printLine(`${Kind} ${job.id} created.`);
    });

  jobs
    .command('update')
    .description(`Change a ${kind} (update${Kind}): the fields the file gives change, the others stay`)
    .argument('<id>', `the ${kind} id`, positiveId)
    .requiredOption('--file <path>', 'a JSON or YAML file with the fields to change; - reads stdin')
    .option('--restart', '"Update & Restart": apply the change to the running job at once')
    .option('--json', 'print the API\'s JSON of the result')
    .action(async (id: number, options: JsonOption & { file: string; restart?: boolean }, command: Command) => {
      const { client } = contextOf(command);
      const file = await readJobFile(options.file, kind);
      const body = updateJobBody(await getJob(client, kind, id), file);
      const query = options.restart ? { restart: 'true' as const } : {};
      const job = await unwrap(client.PUT(jobPath(kind, '/api/relays/{id}'), { params: { path: { id }, query }, body }));
      if (options.json) return printJson(job);
      printLine(`${Kind} ${job.id} updated${options.restart ? ' and restarted' : job.changedConfigSinceLastStart ? '; it runs the old configuration until `restart --reload`' : ''}.`);
    });

  jobs
    .command('delete')
    .description(`Delete a ${kind} (delete${Kind}); a running one is stopped first. Asks first unless --yes`)
    .argument('<id>', `the ${kind} id`, positiveId)
    .option('-y, --yes', 'do not ask for confirmation')
    .option('--json', 'print the API\'s JSON of the result')
    .action(async (id: number, options: JsonOption & { yes?: boolean }, command: Command) => {
      const { client } = contextOf(command);
      if (!options.yes) {
        const job = await getJob(client, kind, id);
        if (!(await confirmOrRefuse(`Delete ${kind} ${job.name}?`, `not deleting ${kind} ${id}`))) return;
      }
      const result = await unwrap(client.DELETE(jobPath(kind, '/api/relays/{id}'), { params: { path: { id } } }));
      if (options.json) return printJson(result);
      printLine(`${Kind} ${id} deleted.`);
    });
}

/** What a bulk action did to one job, as `start`, `stop` and `restart` say it of one. */
const BULK_DONE: Record<BulkAction, string> = {
  start: 'switched on',
  stop: 'switched off',
  hard_restart: 'hard restart asked of its node',
  soft_restart: 'soft restart asked of its node',
  delete: 'deleted',
};

function registerActions(jobs: Command, kind: JobKind): void {
  const Kind = KIND_NAMES[kind];
  for (const [verb, word] of [['start', 'on'], ['stop', 'off']] as const) {
    jobs
      .command(verb)
      .description(`Switch a ${kind} ${word} (${verb}${Kind}); its node ${verb}s it`)
      .argument('<id>', `the ${kind} id`, positiveId)
      .option('--json', 'print the API\'s JSON of the result')
      .action(async (id: number, options: JsonOption, command: Command) => {
        const { client } = contextOf(command);
        const job = await unwrap(client.POST(jobPath(kind, `/api/relays/{id}/${verb}`), { params: { path: { id } } }));
        if (options.json) return printJson(job);
        printLine(`${Kind} ${id} switched ${word}.`);
      });
  }

  jobs
    .command('restart')
    .description(`Restart a running ${kind} (restart${Kind}): --hard, --soft or --reload`)
    .argument('<id>', `the ${kind} id`, positiveId)
    .addOption(new Option('--hard', 'kill the process and start it').conflicts(['soft', 'reload']))
    .addOption(new Option('--soft', 'stop it gracefully and start it').conflicts(['hard', 'reload']))
    .addOption(new Option('--reload', 'apply a changed configuration').conflicts(['hard', 'soft']))
    .option('--json', 'print the API\'s JSON of the result')
    .action(async (id: number, options: JsonOption & RestartFlags, command: Command) => {
      const mode = restartMode(options);
      const { client } = contextOf(command);
      const job = await unwrap(client.POST(jobPath(kind, '/api/relays/{id}/restart'), { params: { path: { id } }, body: { mode } }));
      if (options.json) return printJson(job);
      printLine(`${Kind} ${id}: ${mode === 'reload' ? 'reload' : `${mode} restart`} asked of its node.`);
    });

  jobs
    .command('bulk')
    .description(`One action over several ${kind}s (bulkStart${Kind}s, bulkStop${Kind}s, bulkHardRestart${Kind}s, bulkSoftRestart${Kind}s, bulkDelete${Kind}s); each id succeeds or fails alone`)
    .argument('<action>', 'start, stop, hard_restart, soft_restart or delete', bulkAction)
    .argument('<ids...>', `${kind} ids, apart or comma-separated`)
    .option('-y, --yes', 'delete without asking')
    .option('--json', 'print the API\'s JSON of the result')
    .action(async (action: BulkAction, rawIds: string[], options: JsonOption & { yes?: boolean }, command: Command) => {
      const ids = bulkIds(rawIds);
      const { client } = contextOf(command);
      if (action === 'delete' && !(await confirmOrRefuse(`Delete ${ids.length} ${kind}${ids.length === 1 ? '' : 's'} (${ids.join(', ')})?`, `not deleting ${kind}s ${ids.join(', ')}`, options.yes))) return;
      const result = await unwrap(client.POST(bulkPath(kind, action), { body: { ids } }));
      if (options.json) printJson(result);
      else for (const r of result.results) printLine(`${Kind} ${r.id}: ${r.ok ? BULK_DONE[action] : `${r.code ?? 'FAILED'}: ${r.message ?? ''}`}`);
      // A script learns of a refusal from the exit status too; the lines above say which.
      if (result.results.some((r) => !r.ok)) process.exitCode = 1;
    });

  jobs
    .command('save-as-template')
    .description(`Save a ${kind}'s configuration as a template (save${Kind}AsTemplate): a new one or over an existing one`)
    .argument('<id>', `the ${kind} id`, positiveId)
    .addOption(new Option('--create <name>', 'a new template with this name').conflicts('update'))
    .addOption(new Option('--update <templateId>', 'overwrite this template').argParser(positiveId).conflicts('create'))
    .option('--json', 'print the API\'s JSON of the template')
    .action(async (id: number, options: JsonOption & SaveAsTemplateFlags, command: Command) => {
      const body = saveAsTemplateBody(options);
      const { client } = contextOf(command);
      const template = await unwrap(client.POST(jobPath(kind, '/api/relays/{id}/template'), { params: { path: { id } }, body }));
      if (options.json) return printJson(template);
      printLine(`Template ${template.id} ${body.templateType === 'CREATE' ? 'created' : 'updated'} from ${kind} ${id}.`);
    });

  const comments = jobs.command('comments').description(`Notes on a ${kind}: NOTICE, WARNING or CRITICAL`);
  comments
    .command('add')
    .description(`Add a comment to a ${kind} (add${Kind}Comment)`)
    .argument('<id>', `the ${kind} id`, positiveId)
    .argument('<text...>', 'the comment (words are joined by spaces)')
    .addOption(new Option('--type <type>', 'how serious it is').choices(['NOTICE', 'WARNING', 'CRITICAL']).makeOptionMandatory())
    .option('--json', 'print the API\'s JSON of the comment')
    .action(async (id: number, words: string[], options: JsonOption & { type: Schemas['CommentLevel'] }, command: Command) => {
      const { client } = contextOf(command);
      const comment = await unwrap(client.POST(jobPath(kind, '/api/relays/{id}/comments'), { params: { path: { id } }, body: { type: options.type, comment: words.join(' ') } }));
      if (options.json) return printJson(comment);
      printLine(`Comment ${comment.id} added to ${kind} ${id}.`);
    });
  comments
    .command('delete')
    .description(`Delete a comment of a ${kind} (delete${Kind}Comment)`)
    .argument('<id>', `the ${kind} id`, positiveId)
    .argument('<commentId>', 'the comment id', positiveId)
    .option('--json', 'print the API\'s JSON of the result')
    .action(async (id: number, commentId: number, options: JsonOption, command: Command) => {
      const { client } = contextOf(command);
      const result = await unwrap(client.DELETE(jobPath(kind, '/api/relays/{id}/comments/{commentId}'), { params: { path: { id, commentId } } }));
      if (options.json) return printJson(result);
      printLine(`Comment ${commentId} deleted.`);
    });
}

/** `mediaplane relays` or `mediaplane encodings`, with every operation of the kind. */
export function registerJobCommands(program: Command, kind: JobKind): Command {
  const jobs = program.command(`${kind}s`).description(kind === 'relay' ? 'Relays: streams passed through from an input to outputs' : 'Encodings: streams transcoded from an input to outputs');
  registerReads(jobs, kind);
  registerWrites(jobs, kind);
  registerActions(jobs, kind);
  registerJobLogsCommand(jobs, kind);
  registerJobInsightCommands(jobs, kind);
  return jobs;
}
