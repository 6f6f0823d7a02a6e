import { Option, type Command } from 'commander';
import { ApiError, unwrap, type ApiClient, type Schemas } from '../../openapi/client/index.ts';
import { contextOf } from '../context.ts';
import { jobPath, logFilterQuery, logLevel, logLines, type JobKind, type LogFlags } from '../job-input.ts';
import { CliError, printJson, type Streams } from '../output.ts';
import { positiveId } from '../parsers.ts';
import { readSse } from '../sse.ts';

/**
 * `mediaplane relays|encodings logs <id>`: the last lines of a job's log (getRelayLogs), filtered
 * as on the console's Logs tab; with --follow, the lines as they are written (followRelayLogs, an
 * SSE stream) until Ctrl-C.
 */

type LogEntry = Schemas['LogEntry'];

const LEVEL_COLOURS: Record<string, string> = { FATAL: '\u001b[31m', ERROR: '\u001b[31m', WARNING: '\u001b[33m', TRACE: '\u001b[2m', DEBUG: '\u001b[2m', VERBOSE: '\u001b[2m' };

/** `2026-05-04 13:07:55.123 WARNING text`, in local time; the level coloured on a terminal. */
export function formatLogEntry(entry: LogEntry, colour = false): string {
  const date = new Date(entry.timestamp);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const time = Number.isNaN(date.getTime())
    ? entry.timestamp
    : `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
  const level = entry.level.padEnd(7);
  const shown = colour && LEVEL_COLOURS[entry.level] ? `${LEVEL_COLOURS[entry.level]}${level}\u001b[0m` : level;
  return `${time} ${shown} ${entry.text}`;
}

interface LogsOptions extends LogFlags {
  follow?: boolean;
  json?: boolean;
}

const defaultStreams: Streams = { out: process.stdout, err: process.stderr };

async function printLast(client: ApiClient, kind: JobKind, id: number, options: LogsOptions, streams: Streams): Promise<void> {
  const query = { ...logFilterQuery(options), ...(options.lines ? { lines: options.lines } : {}), ...(options.direction ? { direction: options.direction } : {}) };
  const result = await unwrap(client.GET(jobPath(kind, '/api/relays/{id}/logs'), { params: { path: { id }, query: query as never } }));
  if (options.json) return printJson(result, streams);
  if (result.entries.length === 0) streams.out.write('No log entries\n');
  for (const entry of result.entries) streams.out.write(`${formatLogEntry(entry, Boolean(streams.out.isTTY))}\n`);
  if (result.truncatedScan) streams.err.write('(the search stopped at its read budget: older matches may exist; narrow it with --from/--to)\n');
}

/**
 * Follow the log: first the last `--lines` matching lines (30 when not given), then each new one.
 * With --json each line is one JSON object (NDJSON). Ends on Ctrl-C, or with an error when the
 * server ends the stream (the job deleted, the permission lost).
 */
export async function followLog(client: ApiClient, kind: JobKind, id: number, options: LogsOptions, streams: Streams = defaultStreams, signal?: AbortSignal): Promise<void> {
  const abort = new AbortController();
  const onSignal = () => abort.abort();
  // `logs -f | head` : the reader went away, which ends the follow like Ctrl-C does.
  const onOutputError = (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') abort.abort();
  };
  signal?.addEventListener('abort', onSignal);
  process.once('SIGINT', onSignal);
  streams.out.on('error', onOutputError);
  try {
    const query = { ...logFilterQuery(options), backlog: options.lines ?? 30 };
    const { data, error, response } = await client.GET(jobPath(kind, '/api/relays/{id}/logs/follow'), {
      params: { path: { id }, query: query as never },
      parseAs: 'stream',
      signal: abort.signal,
      headers: { Accept: 'text/event-stream' },
    });
    if (!response.ok || !data) throw ApiError.from(response.status, error, response.headers.get('x-request-id'));
    for await (const event of readSse(data as ReadableStream<Uint8Array>)) {
      if (abort.signal.aborted) break;
      if (event.event !== 'log') continue;
      const entry = JSON.parse(event.data) as LogEntry;
      streams.out.write(options.json ? `${JSON.stringify(entry)}\n` : `${formatLogEntry(entry, Boolean(streams.out.isTTY))}\n`);
    }
    if (!abort.signal.aborted) throw new CliError('STREAM_ENDED', `the server ended the log stream of ${kind} ${id}`);
  } catch (error) {
    if (abort.signal.aborted) return;
    throw error;
  } finally {
    process.off('SIGINT', onSignal);
    streams.out.off('error', onOutputError);
    signal?.removeEventListener('abort', onSignal);
  }
}

export function registerJobLogsCommand(jobs: Command, kind: JobKind): void {
  const Kind = kind === 'relay' ? 'Relay' : 'Encoding';
  jobs
    .command('logs')
    .description(`The last lines of a ${kind}'s log (get${Kind}Logs); --follow prints new lines as they are written (follow${Kind}Logs) until Ctrl-C`)
    .argument('<id>', `the ${kind} id`, positiveId)
    .option('--lines <n>', 'how many of the last matching lines: 30, 50, 100, 500 or 1000 (default 100; with --follow 30)', logLines)
    .addOption(new Option('--direction <direction>', 'backward: newest first (default); forward: oldest first').choices(['forward', 'backward']))
    .option('--level <level>', 'minimum level: TRACE, DEBUG, VERBOSE, INFO, NOTICE, WARNING, ERROR or FATAL', logLevel)
    .option('--text <text>', 'only lines containing this text (ignoring case unless --case-sensitive)')
    .option('--regex', 'read --text as a regular expression')
    .option('--case-sensitive', 'match --text with its case')
    .option('--from <time>', 'lines at or after this time: 2026-11-22 or 2026-11-22T10:00:00Z')
    .option('--to <time>', 'lines at or before this time')
    .option('-f, --follow', 'keep printing lines as they are written, until Ctrl-C')
    .option('--json', 'print the API\'s JSON (with --follow: one JSON object a line)')
    .action(async (id: number, options: LogsOptions, command: Command) => {
      const { client } = contextOf(command);
      if (options.follow) {
        if (options.direction) throw new CliError('INVALID_OPTIONS', '--direction does not apply to --follow: lines come oldest first, as they are written');
        return followLog(client, kind, id, options);
      }
      await printLast(client, kind, id, options, defaultStreams);
    });
}
