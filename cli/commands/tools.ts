import { createElement } from 'react';
import type { Command } from 'commander';
import { ApiError, type ApiClient, type Schemas } from '../../openapi/client/index.ts';
import { contextOf } from '../context.ts';
import { CliError, terminalWidth, type Streams } from '../output.ts';
import { integer, positiveId } from '../parsers.ts';
import { readSse } from '../sse.ts';
import type * as toolViews from '../ui/tool-views.tsx';

/**
 * `mediaplane tools ping|mtr|keyframe|mediacheck`: the diagnostic tools of the console, run on
 * the API's node or the one `--node` names (runPing, runMtr, runKeyframe, runMediaCheck). Results
 * print as they come; Ctrl-C stops the run (the program ends on the node). --json prints each event as one JSON line.
 */

type ToolEvent = Schemas['ToolEvent'];
type Views = typeof toolViews;

const RED = '\u001b[31m';
const RESET = '\u001b[0m';

/** Render a view of cli/ui/tool-views.tsx once, as text (Ink loads only here). */
export async function renderToolView<K extends keyof Views>(name: K, props: Parameters<Views[K]>[0], streams: Streams = defaultStreams): Promise<string> {
  const [{ renderToString }, loaded] = await Promise.all([import('ink'), import('../ui/tool-views.tsx')]);
  const view = loaded[name] as (p: typeof props) => ReturnType<Views[K]>;
  const text = renderToString(createElement(view, props), { columns: terminalWidth(streams) ?? 1000 });
  return `${text.split('\n').map((line) => line.trimEnd()).join('\n')}\n`;
}

const defaultStreams: Streams = { out: process.stdout, err: process.stderr };

type ToolPath = '/api/tools/ping' | '/api/tools/mtr' | '/api/tools/keyframe' | '/api/tools/mediachecker';

interface RunOptions {
  json?: boolean;
  node?: number;
}

/**
 * POST a tool's request and hand each event to `onEvent` as it arrives; Ctrl-C (or `signal`)
 * closes the request. Returns the `end` event (absent when stopped by the user).
 */
export async function streamTool(client: ApiClient, path: ToolPath, body: Record<string, unknown>, onEvent: (event: ToolEvent) => void | Promise<void>, signal?: AbortSignal): Promise<Extract<ToolEvent, { type: 'end' }> | undefined> {
  const abort = new AbortController();
  const onSignal = () => abort.abort();
  signal?.addEventListener('abort', onSignal);
  process.once('SIGINT', onSignal);
  let end: Extract<ToolEvent, { type: 'end' }> | undefined;
  try {
    const { data, error, response } = await client.POST(path, {
      body: body as never,
      parseAs: 'stream',
      signal: abort.signal,
      headers: { Accept: 'text/event-stream' },
    });
    if (!response.ok || !data) throw ApiError.from(response.status, error, response.headers.get('x-request-id'));
    for await (const message of readSse(data as ReadableStream<Uint8Array>)) {
      const event = JSON.parse(message.data) as ToolEvent;
      if (event.type === 'end') end = event;
      await onEvent(event);
    }
    if (!end && !abort.signal.aborted) throw new CliError('STREAM_ENDED', 'the server ended the run before it finished');
    return end;
  } catch (error) {
    if (abort.signal.aborted) return undefined;
    throw error;
  } finally {
    process.off('SIGINT', onSignal);
    signal?.removeEventListener('abort', onSignal);
  }
}

/** Exit status 1 when the tool failed (its error was printed) or timed out. */
function finish(end: Extract<ToolEvent, { type: 'end' }> | undefined, streams: Streams): void {
  if (!end) {
    streams.err.write('Stopped.\n');
    return;
  }
  if (end.reason === 'failed' || end.reason === 'timed_out') process.exitCode = 1;
}

const errorLine = (text: string, streams: Streams) => streams.err.write(streams.out.isTTY ? `${RED}${text}${RESET}\n` : `${text}\n`);

export async function runPingCommand(client: ApiClient, address: string, options: RunOptions & { count?: number }, streams: Streams = defaultStreams, signal?: AbortSignal): Promise<void> {
  const end = await streamTool(
    client,
    '/api/tools/ping',
    { address, ...(options.count !== undefined ? { count: options.count } : {}), ...(options.node ? { node: options.node } : {}) },
    (event) => {
      if (options.json) return void streams.out.write(`${JSON.stringify(event)}\n`);
      if (event.type === 'line') {
        if (event.kind === 'error' && streams.out.isTTY) streams.out.write(`${RED}${event.text}${RESET}\n`);
        else streams.out.write(`${event.text}\n`);
      } else if (event.type === 'error') errorLine(event.error, streams);
    },
    signal,
  );
  finish(end, streams);
}

export async function runMtrCommand(client: ApiClient, host: string, options: RunOptions & { count?: number; dns?: boolean }, streams: Streams = defaultStreams, signal?: AbortSignal): Promise<void> {
  let last: Schemas['MtrHop'][] = [];
  let drawnLines = 0;
  const end = await streamTool(
    client,
    '/api/tools/mtr',
    { host, noDns: options.dns === false, ...(options.count !== undefined ? { count: options.count } : {}), ...(options.node ? { node: options.node } : {}) },
    async (event) => {
      if (options.json) return void streams.out.write(`${JSON.stringify(event)}\n`);
      if (event.type === 'error') errorLine(event.error, streams);
      if (event.type !== 'hops') return;
      last = event.hops;
      // On a terminal the table is redrawn in place as it fills; a pipe gets the final table.
      if (!streams.out.isTTY) return;
      const text = await renderToolView('MtrHopsView', { hops: last, maxWidth: terminalWidth(streams) }, streams);
      streams.out.write(`${drawnLines ? `\u001b[${drawnLines}A\u001b[J` : ''}${text}`);
      drawnLines = text.split('\n').length - 1;
    },
    signal,
  );
  if (!options.json && !streams.out.isTTY && last.length) streams.out.write(await renderToolView('MtrHopsView', { hops: last }, streams));
  finish(end, streams);
}

export async function runKeyframeCommand(client: ApiClient, uri: string, options: RunOptions & { count?: number; token?: string }, streams: Streams = defaultStreams, signal?: AbortSignal): Promise<void> {
  const end = await streamTool(
    client,
    '/api/tools/keyframe',
    { uri, ...(options.token ? { tokenRequired: true, token: options.token } : {}), ...(options.count !== undefined ? { intervalCount: options.count } : {}), ...(options.node ? { node: options.node } : {}) },
    (event) => {
      if (options.json) return void streams.out.write(`${JSON.stringify(event)}\n`);
      if (event.type === 'keyframe') {
        const s = event.sample;
        streams.out.write(`interval ${s.index}: ${s.intervalSeconds} s (${s.gopFrames} frames), keyframe at ${s.timeSeconds} s\n`);
      } else if (event.type === 'interval') {
        const r = event.result;
        streams.out.write(`Interval: ${r.interval} s (${r.gopFrames} frames; min ${r.minSeconds} s, max ${r.maxSeconds} s over ${r.count})\n`);
      } else if (event.type === 'error') errorLine(`got error ${event.error}`, streams);
    },
    signal,
  );
  finish(end, streams);
}

export async function runMediaCheckCommand(client: ApiClient, uri: string, options: RunOptions & { token?: string }, streams: Streams = defaultStreams, signal?: AbortSignal): Promise<void> {
  const end = await streamTool(
    client,
    '/api/tools/mediachecker',
    { uri, ...(options.token ? { tokenRequired: true, token: options.token } : {}), ...(options.node ? { node: options.node } : {}) },
    async (event) => {
      if (options.json) return void streams.out.write(`${JSON.stringify(event)}\n`);
      if (event.type === 'result') streams.out.write(await renderToolView('MediaInfoView', { info: event.mediaInfo, maxWidth: terminalWidth(streams) }, streams));
      else if (event.type === 'error') {
        errorLine('Error', streams);
        for (const [key, value] of Object.entries(event.details ?? { error: event.error })) streams.err.write(`  ${key}: ${value}\n`);
      }
    },
    signal,
  );
  finish(end, streams);
}

function count(value: string): number {
  return integer(value);
}

export function registerToolCommands(program: Command): void {
  const tools = program.command('tools').description('Diagnostic tools run on a node of the cluster: ping, mtr, keyframe interval, media checker (Ctrl-C stops a run)');
  const nodeOption = (command: Command) => command.option('--node <id>', 'the node to run on (default: the API\'s own node)', positiveId).option('--json', 'print each event of the run as one JSON line');

  nodeOption(
    tools
      .command('ping')
      .description('Ping a host (runPing), printing each reply as it comes')
      .argument('<address>', 'host name or IP address')
      .option('-c, --count <n>', 'requests to send, 1 to 1000 (default 10)', count),
  ).action(async (address: string, options: RunOptions & { count?: number }, command: Command) => runPingCommand(contextOf(command).client, address, options));

  nodeOption(
    tools
      .command('mtr')
      .description('Trace the route to a host with mtr (runMtr): the hop table, redrawn as it fills on a terminal')
      .argument('<host>', 'host name or IP address')
      .option('-c, --count <n>', 'probe cycles, 1 to 1000 (default 30)', count)
      .option('-n, --no-dns', 'show IP addresses only (no reverse DNS)'),
  ).action(async (host: string, options: RunOptions & { count?: number; dns?: boolean }, command: Command) => runMtrCommand(contextOf(command).client, host, options));

  nodeOption(
    tools
      .command('keyframe')
      .description('Measure the keyframe interval of a source (runKeyframe), printing each interval as it is read')
      .argument('<uri>', 'udp://, rtp://, srt://, rtmp://, rtsp://, http(s):// or rist:// URL')
      .option('-c, --count <n>', 'intervals to measure, at least 1 (default 10)', count)
      .option('--token <token>', 'appended to the URL as token=...'),
  ).action(async (uri: string, options: RunOptions & { count?: number; token?: string }, command: Command) => runKeyframeCommand(contextOf(command).client, uri, options));

  nodeOption(
    tools
      .command('mediacheck')
      .description('Show the programs and streams of a source (runMediaCheck)')
      .argument('<uri>', 'udp://, rtp://, srt://, rtmp://, rtsp://, http(s):// or rist:// URL')
      .option('--token <token>', 'appended to the URL as token=...'),
  ).action(async (uri: string, options: RunOptions & { token?: string }, command: Command) => runMediaCheckCommand(contextOf(command).client, uri, options));
}
