import { InvalidArgumentError } from 'commander';
import type { paths, Schemas } from '../openapi/client/index.ts';
import { BULK_ACTION_PATHS, BULK_ACTIONS, type BulkAction } from '../openapi/schemas/job-api.ts';
import { LOG_LINE_CHOICES } from '../openapi/schemas/job-insights.ts';
import { INPUT_TYPES, LOG_LEVEL_NAMES, OUTPUT_TYPES } from '../openapi/schemas/jobs.ts';
import { readObjectFile } from './body-file.ts';
import { CliError } from './output.ts';

/**
 * What the relays, encodings and templates commands turn their flags and files into: list
 * queries, job bodies, restart modes, bulk actions and log filters. Pure, so tested without a server.
 */

export type JobKind = 'relay' | 'encoding';
type Body = Record<string, unknown>;

/**
 * The path of an operation for `kind`, typed as the relay one: the contract makes the same
 * operations with the same shapes for both kinds, so code written once serves both
 * (`client.GET(jobPath(kind, '/api/relays/{id}'), ...)`).
 */
export function jobPath<P extends `/api/relays${string}`>(kind: JobKind, relayPath: P): P {
  return relayPath.replace(/^\/api\/relays/, `/api/${kind}s`) as P;
}

/** `1,2,3`: ids, checked before any request (the API takes them comma-separated). */
export function idList(value: string): string {
  const parts = value.split(',').map((part) => part.trim()).filter(Boolean);
  if (parts.length === 0 || parts.some((part) => !/^\d+$/.test(part) || Number(part) < 1)) throw new InvalidArgumentError('Not a comma-separated list of ids (e.g. 1,2).');
  return parts.join(',');
}

/** A comma-separated list of names out of `allowed` (output types, input types), checked before any request. */
export function choiceList(allowed: readonly string[]): (value: string) => string {
  return (value) => {
    const parts = value.split(',').map((part) => part.trim().toLowerCase()).filter(Boolean);
    const unknown = parts.filter((part) => !allowed.includes(part));
    if (parts.length === 0 || unknown.length) throw new InvalidArgumentError(`Allowed values are ${allowed.join(', ')}${unknown.length ? ` (not ${unknown.join(', ')})` : ''}.`);
    return parts.join(',');
  };
}

export const outputTypeList = choiceList(OUTPUT_TYPES);
export const inputTypeList = choiceList(INPUT_TYPES);

/** `--lines`: one of the spec's last-lines choices (30, 50, 100, 500, 1000). */
export function logLines(value: string): number {
  const lines = Number(value.trim());
  if (!(LOG_LINE_CHOICES as readonly number[]).includes(lines)) throw new InvalidArgumentError(`Allowed are ${LOG_LINE_CHOICES.join(', ')}.`);
  return lines;
}

/** `--level`: a log level name (TRACE ... FATAL), any case. */
export function logLevel(value: string): string {
  const level = value.trim().toUpperCase();
  if (!(LOG_LEVEL_NAMES as readonly string[]).includes(level)) throw new InvalidArgumentError(`Allowed levels are ${LOG_LEVEL_NAMES.join(', ')}.`);
  return level;
}

/** A bulk action as the API names it; `hard-restart` is read as hard_restart. */
export function bulkAction(value: string): BulkAction {
  const action = value.trim().toLowerCase().replace(/-/g, '_');
  if (!(BULK_ACTIONS as readonly string[]).includes(action)) throw new InvalidArgumentError(`Allowed actions are ${BULK_ACTIONS.join(', ')}.`);
  return action as BulkAction;
}

/** The operation of a bulk action (bulkStartRelays, bulkHardRestartEncodings ...): the five share one body and one answer. */
export function bulkPath(kind: JobKind, action: BulkAction) {
  return jobPath(kind, `/api/relays/bulk/${BULK_ACTION_PATHS[action]}` as '/api/relays/bulk/start');
}

/** The ids of `bulk <action> <ids...>`: whole numbers from 1, given apart or comma-separated. */
export function bulkIds(values: string[]): number[] {
  const ids = values.flatMap((value) => value.split(',')).map((part) => part.trim()).filter(Boolean);
  const wrong = ids.filter((id) => !/^\d+$/.test(id) || Number(id) < 1);
  if (wrong.length) throw new CliError('INVALID_ARGUMENT', `not an id (a whole number from 1): ${wrong.join(', ')}`);
  return [...new Set(ids.map(Number))];
}

export interface RestartFlags {
  hard?: boolean;
  soft?: boolean;
  reload?: boolean;
}

/** Exactly one of --hard, --soft and --reload. */
export function restartMode(flags: RestartFlags): Schemas['RestartRequest']['mode'] {
  const given = (['hard', 'soft', 'reload'] as const).filter((mode) => flags[mode]);
  if (given.length !== 1) throw new CliError('INVALID_OPTIONS', 'give exactly one of --hard (kill and start), --soft (graceful stop and start) and --reload (apply a changed configuration)');
  return given[0];
}

export interface SaveAsTemplateFlags {
  create?: string;
  update?: number;
}

/** `--create <name>` (a new template) or `--update <templateId>` (over an existing one). */
export function saveAsTemplateBody(flags: SaveAsTemplateFlags): Schemas['SaveAsTemplateRequest'] {
  if ((flags.create === undefined) === (flags.update === undefined)) throw new CliError('INVALID_OPTIONS', 'give exactly one of --create <name> (a new template) and --update <templateId> (over an existing one)');
  return flags.create !== undefined ? { templateType: 'CREATE', name: flags.create } : { templateType: 'UPDATE', templateId: flags.update };
}

export interface ListFlags {
  search?: string;
  type?: 'LIVE' | 'VOD';
  status?: 'active' | 'inactive' | 'streaming' | 'waiting' | 'failed';
  node?: string;
  preset?: string;
  outputTypes?: string;
  inputTypes?: string;
  sort?: 'id' | 'name';
  order?: 'asc' | 'desc';
  page?: number;
  size?: number;
  json?: boolean;
}

export type ListQuery = NonNullable<paths['/api/relays']['get']['parameters']['query']>;

/** The query of listRelays / listEncodings / the template lists: only what was given. */
export function listQuery(flags: ListFlags): ListQuery {
  const { json: _json, ...query } = flags;
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined));
}

/** What a Job carries that an operator does not write: dropped, so `get --json` output can be fed back. */
const READ_ONLY = ['id', 'kind', 'active', 'isTemplate', 'templateType', 'changedConfigSinceLastStart', 'executionLocationType', 'nodeName', 'comments', 'createdBy', 'createdAt', 'updatedAt', 'status'];

function writable(body: Body): Body {
  return Object.fromEntries(Object.entries(body).filter(([key]) => !READ_ONLY.includes(key)));
}

/** A job from `--file`: JSON or YAML (`-` reads stdin), with the API's field names. */
export function readJobFile(file: string, kind: JobKind, readStdin?: () => string): Promise<Body> {
  return readObjectFile(file, kind, readStdin);
}

/** The body of a create: the file as written, without the read-only fields of a `get --json` output. */
export function createJobBody(file: Body): Schemas['JobWrite'] {
  return writable(file) as Schemas['JobWrite'];
}

/**
 * The body of an update. The API's update is a full PUT, so it starts from the job as it is now
 * and takes the top-level fields the file gives: `name: other` alone renames it.
 */
export function updateJobBody(current: Schemas['Job'], file: Body): Schemas['JobWrite'] {
  return { ...writable(current as unknown as Body), ...writable(file) } as Schemas['JobWrite'];
}

export interface LogFlags {
  lines?: number;
  direction?: 'forward' | 'backward';
  level?: string;
  text?: string;
  regex?: boolean;
  caseSensitive?: boolean;
  from?: string;
  to?: string;
}

/** The filters shared by getLogs and followLogs, under the API's names, only those given. */
export function logFilterQuery(flags: LogFlags): Record<string, string> {
  const query: Record<string, string | undefined> = {
    level: flags.level,
    text: flags.text,
    regex: flags.regex ? 'true' : undefined,
    caseSensitive: flags.caseSensitive ? 'true' : undefined,
    from: flags.from,
    to: flags.to,
  };
  return Object.fromEntries(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined));
}
