import type { Command } from 'commander';
import { unwrap, type Schemas } from '../../openapi/client/index.ts';
import { readObjectFile } from '../body-file.ts';
import { contextOf } from '../context.ts';
import { jobPath, type JobKind } from '../job-input.ts';
import { formatTime, printJson, printLine, printTable } from '../output.ts';
import { integer, positiveId } from '../parsers.ts';
import type { Column } from '../ui/table.tsx';

interface JsonOption {
  json?: boolean;
}

const orDash = (value: string | number | null | undefined) => (value === null || value === undefined || value === '' ? '--' : String(value));

const batchColumns: Column<Schemas['BatchResult']>[] = [
  { header: 'ID', value: (r) => String(r.id), align: 'right' },
  { header: 'SOURCE FILE', value: (r) => r.sourceFile },
  { header: 'STATUS', value: (r) => r.status, color: (r) => (r.status === 'FAILED' ? 'red' : r.status === 'DONE' ? 'green' : undefined) },
  { header: 'START', value: (r) => formatTime(r.startTime) },
  { header: 'END', value: (r) => formatTime(r.endTime) },
  { header: 'ELAPSED', value: (r) => (r.elapsedTimeInSeconds === null ? '--' : `${r.elapsedTimeInSeconds.toFixed(1)} s`), align: 'right' },
  { header: 'SPEED', value: (r) => (r.transcodingSpeedToPlaySpeedRatio === null ? '--' : `${r.transcodingSpeedToPlaySpeedRatio.toFixed(2)}x`), align: 'right' },
  { header: 'OUTPUT FILES', value: (r) => r.outputFiles.join(', ') || '--' },
];

const streamColumns: Column<Schemas['MediaStreamInfo']>[] = [
  { header: '#', value: (s) => String(s.index), align: 'right' },
  { header: 'ID', value: (s) => orDash(s.id) },
  { header: 'TYPE', value: (s) => s.type },
  { header: 'CODEC', value: (s) => orDash(s.codec) },
  { header: 'PICTURE', value: (s) => (s.width && s.height ? `${s.width}x${s.height}${s.frameRate ? ` ${s.frameRate} fps` : ''}` : '--') },
  { header: 'SOUND', value: (s) => (s.sampleRate ? `${s.sampleRate} Hz${s.channels ? ` ${s.channels} ch` : ''}` : '--') },
  { header: 'LANGUAGE', value: (s) => orDash(s.language) },
];

const deliveryColumns: Column<Schemas['MonitorDelivery']>[] = [
  { header: 'OUTPUT', value: (d) => `${d.outputPosition + 1} ${d.outputType.toUpperCase()}` },
  { header: 'PLAYER', value: (d) => d.type },
  { header: 'URL', value: (d) => d.url },
  { header: 'DELIVERY', value: (d) => d.deliveryType },
];

async function printMediaInfo(info: Schemas['MediaInfo']): Promise<void> {
  const f = info.format;
  printLine(`Format: ${orDash(f.longName ?? f.name)}${f.durationSeconds ? `, ${f.durationSeconds.toFixed(1)} s` : ''}${f.bitrate ? `, ${Math.round(f.bitrate / 1000)} kbit/s` : ''}`);
  for (const program of info.programs) printLine(`Program ${program.number}${program.name ? ` (${program.name})` : ''}: streams ${program.streams.map((s) => s.index).join(', ')}`);
  await printTable(streamColumns, info.streams, 'No streams');
}

/**
 * What the console's job tabs show besides the form and the log (spec 01 §2.6, §2.8): batch results,
 * media info of the input, the trace, and the monitor's playable outputs — on `relays` and
 * `encodings` alike.
 */
export function registerJobInsightCommands(jobs: Command, kind: JobKind): void {
  const Kind = kind === 'relay' ? 'Relay' : 'Encoding';

  jobs
    .command('batch-results')
    .description(`The files of a batch ${kind}, one line each (list${Kind}BatchResults)`)
    .argument('<id>', `the ${kind} id`, positiveId)
    .option('--page <n>', 'page number, from 1', integer)
    .option('--size <n>', 'files per page (default 25)', integer)
    .option('--order <order>', 'asc or desc (default desc: the latest file first)')
    .option('--json', "print the API's JSON")
    .action(async (id: number, options: JsonOption & { page?: number; size?: number; order?: 'asc' | 'desc' }, command: Command) => {
      const { client } = contextOf(command);
      const page = await unwrap(client.GET(jobPath(kind, '/api/relays/{id}/batch-results'), { params: { path: { id }, query: { page: options.page, size: options.size, order: options.order } } }));
      if (options.json) return printJson(page);
      await printTable(batchColumns, page.items, 'No batch results', `Total: ${page.total}`);
    });

  jobs
    .command('media-info')
    .description(`The programs and streams of a ${kind}'s input (get${Kind}MediaInfo), or of any input given with --uri or --file (detect${Kind}MediaInfo)`)
    .argument('[id]', `the ${kind} id`, positiveId)
    .option('--uri <uri>', 'probe this source URL or file path instead')
    .option('--file <path>', 'probe the input described in this JSON or YAML file (the API\'s Input fields)')
    .option('--json', "print the API's JSON")
    .action(async (id: number | undefined, options: JsonOption & { uri?: string; file?: string }, command: Command) => {
      const { client } = contextOf(command);
      let info: Schemas['MediaInfo'];
      if (options.uri || options.file) {
        const body = options.file ? ((await readObjectFile(options.file, 'input')) as Schemas['Input']) : ({ type: 'uri', uri: options.uri } as Schemas['Input']);
        info = await unwrap(client.POST(jobPath(kind, '/api/relays/media-info'), { body }));
      } else {
        if (id === undefined) throw new Error(`give a ${kind} id, or --uri / --file`);
        info = await unwrap(client.GET(jobPath(kind, '/api/relays/{id}/media-info'), { params: { path: { id } } }));
      }
      if (options.json) return printJson(info);
      await printMediaInfo(info);
    });

  jobs
    .command('trace')
    .description(`Trace a ${kind}'s input: format, programs, streams and the first keyframes, a table each (trace${Kind})`)
    .argument('<id>', `the ${kind} id`, positiveId)
    .option('--json', "print the API's JSON")
    .action(async (id: number, options: JsonOption, command: Command) => {
      const { client } = contextOf(command);
      const trace = await unwrap(client.POST(jobPath(kind, '/api/relays/{id}/trace'), { params: { path: { id } } }));
      if (options.json) return printJson(trace);
      printLine(`Trace of ${trace.input} at ${formatTime(trace.tracedAt)}`);
      for (const table of trace.traces) {
        printLine(`\n${table.key}`);
        const columns: Column<string[]>[] = table.columns.map((header, i) => ({ header: header.toUpperCase(), value: (row) => row[i] ?? '' }));
        await printTable(columns, table.rows, 'No entries');
      }
    });

  jobs
    .command('monitor')
    .description(`The outputs of a ${kind} a player can play, and its SRT statistics (get${Kind}Monitor)`)
    .argument('<id>', `the ${kind} id`, positiveId)
    .option('--json', "print the API's JSON")
    .action(async (id: number, options: JsonOption, command: Command) => {
      const { client, target } = contextOf(command);
      const monitor = await unwrap(client.GET(jobPath(kind, '/api/relays/{id}/monitor'), { params: { path: { id } } }));
      if (options.json) return printJson(monitor);
      printLine(`State: ${monitor.state ?? 'never ran'}`);
      await printTable(deliveryColumns.map((c) => (c.header === 'URL' ? { ...c, value: (d: Schemas['MonitorDelivery']) => new URL(d.url, target.url).toString() } : c)), monitor.deliveries, 'No playable output');
      for (const link of [...monitor.inputs.map((i) => ({ what: `input ${i.index === 0 ? 'primary' : 'failover'}`, stat: i.srtStat })), ...monitor.outputs.map((o) => ({ what: `output ${o.position + 1}`, stat: o.srtStat }))]) {
        printLine(`SRT ${link.what}: ${link.stat.rateMbps} Mbit/s, RTT ${link.stat.rttMs} ms, lost ${link.stat.packetsLost}, retransmitted ${link.stat.packetsRetransmitted}, dropped ${link.stat.packetsDropped}`);
      }
    });
}

/** `mediaplane endpoints get|set` (spec 01 §2.10) and `mediaplane job-features` (the admin features table). */
export function registerEndpointCommands(program: Command): void {
  const endpoints = program.command('endpoints').description('Integration endpoints: the Runprox URL and the DVB URL (both required)');
  endpoints
    .command('get')
    .description('Show the endpoints (getEndpoints)')
    .option('--json', "print the API's JSON")
    .action(async (options: JsonOption, command: Command) => {
      const { client } = contextOf(command);
      const current = await unwrap(client.GET('/api/endpoints'));
      if (options.json) return printJson(current);
      printLine(`Runprox URL: ${current.runproxUrl || '--'}\nDVB URL: ${current.astraUrl || '--'}`);
    });
  endpoints
    .command('set')
    .description('Change the endpoints (updateEndpoints)')
    .requiredOption('--runprox-url <url>', 'the Runprox URL')
    .requiredOption('--dvb-url <url>', 'the DVB URL')
    .option('--json', "print the API's JSON of the result")
    .action(async (options: JsonOption & { runproxUrl: string; dvbUrl: string }, command: Command) => {
      const { client } = contextOf(command);
      const updated = await unwrap(client.PUT('/api/endpoints', { body: { runproxUrl: options.runproxUrl, astraUrl: options.dvbUrl } }));
      if (options.json) return printJson(updated);
      printLine('Endpoints updated.');
    });

  program
    .command('job-features')
    .description('The features a job can switch on in its admin features table (listJobFeatures; ADMIN)')
    .option('--json', "print the API's JSON")
    .action(async (options: JsonOption, command: Command) => {
      const { client } = contextOf(command);
      const features = await unwrap(client.GET('/api/job-features'));
      if (options.json) return printJson(features);
      printLine((await import('yaml')).stringify(features).trimEnd());
    });
}
