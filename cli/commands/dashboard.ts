import type { Command } from 'commander';
import { createElement as h, useEffect, useState, type ReactElement } from 'react';
import { ApiError, unwrap, type ApiClient, type Schemas } from '../../openapi/client/index.ts';
import { contextOf } from '../context.ts';
import { CliError, printElement, printJson } from '../output.ts';
import { readSse } from '../sse.ts';

type Status = Schemas['DashboardStatus'];

const bytes = (n: number | null) => {
  if (n === null) return '--';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(u ? 1 : 0)} ${units[u]}`;
};
const bits = (n: number | null) => (n === null ? '--' : n >= 1e6 ? `${(n / 1e6).toFixed(1)} Mbit/s` : `${(n / 1e3).toFixed(1)} Kbit/s`);
const pct = (n: number | null) => (n === null ? '--' : `${n.toFixed(1)}%`);
const uptime = (s: number | null) => (s === null ? '--' : `${Math.floor(s / 86400)}d ${Math.floor((s % 86400) / 3600)}h ${Math.floor((s % 3600) / 60)}m`);

/** A 20-cell bar for a percentage. */
function meter(value: number | null): string {
  const cells = value === null ? 0 : Math.round((Math.max(0, Math.min(100, value)) / 100) * 20);
  return `[${'#'.repeat(cells)}${'.'.repeat(20 - cells)}]`;
}

/** The readings as Ink elements (Box/Text), the same figures as the console's dashboard. */
export function DashboardView({ status, note }: { status: Status | undefined; note?: string }): ReactElement {
  // Loaded lazily by the callers: ink is imported before this renders.
  const { Box, Text } = inkModule!;
  if (!status) return h(Text, { color: 'gray' }, note ?? 'Connecting ...');
  const line = (label: string, value: string, color?: string) => h(Box, { key: label }, h(Box, { width: 16 }, h(Text, { color: 'gray' }, label)), h(Text, { color }, value));
  const level = (v: number | null) => (v === null ? undefined : v >= 90 ? 'red' : v >= 70 ? 'yellow' : 'green');
  const s = status;
  const rows = [
    line('Node', `${s.nodeName ?? 'this server'}${s.live ? '' : ' (no live readings: stored figures only)'}`),
    line('CPU', `${meter(s.cpu)} ${pct(s.cpu)} of ${s.cpuCoreCount ?? '--'} cores`, level(s.cpu)),
    line('Load average', s.cpuAverageLoad ? `${s.cpuAverageLoad.minute1.toFixed(2)} ${s.cpuAverageLoad.minute5.toFixed(2)} ${s.cpuAverageLoad.minute15.toFixed(2)}` : '--'),
    line('Memory', `${meter(s.memoryPercentage)} ${pct(s.memoryPercentage)} of ${bytes(s.memoryTotal)}`, level(s.memoryPercentage)),
    line('Disk', `${meter(s.hddPercentage)} ${pct(s.hddPercentage)} of ${bytes(s.hddTotal)}`, level(s.hddPercentage)),
    line('Uptime', uptime(s.uptime)),
    line('Local time', s.localTime ?? '--'),
    line('Bandwidth', `in ${bits(s.bandwidthIn)}  out ${bits(s.bandwidthOut)}`),
    line('Jobs on/all', `${s.activeTasks}/${s.allTasks}   services up ${s.servicesUp}, down ${s.servicesDown}`),
    ...s.gpus.map((g) =>
      line(`GPU ${g.index}`, `${g.name}  SM ${pct(g.streamingMultiprocessorUsagePercent)} ENC ${pct(g.encoderUsed)} DEC ${pct(g.decoderUsed)} MEM ${pct(g.memoryUsed)} ${g.temperature ?? '--'}°C tasks ${g.processes.length}`),
    ),
    ...(s.mfxDevice ? [line('Quick Sync', `render ${pct(s.mfxDevice.renderUsed)}  video 1 ${pct(s.mfxDevice.video1Used)}  video 2 ${pct(s.mfxDevice.video2Used)}`)] : []),
    line('User', s.rixjobUser),
    line('Backend version', s.rixjobVersion),
    line('License status', s.licenseStatus),
    // The CPU/GPU nodes table, when the cluster has more than one node.
    ...(s.nodes.length > 1
      ? s.nodes.map((n) =>
          line(
            `${n.nodeId === s.nodeId ? '> ' : '  '}${n.nodeName}`,
            `${n.status === 'ONLINE' ? 'online ' : 'offline'}  CPU ${n.live ? pct(n.cpu) : '--'}  GPU ${n.live ? pct(n.gpu) : '--'}  MEM ${n.live ? pct(n.memory) : '--'}  jobs ${n.activeTasks}/${n.allTasks}  ${n.live ? `in ${bits(n.bandwidthIn)} out ${bits(n.bandwidthOut)}` : ''}${n.leader ? '  leader' : ''}`,
            n.status === 'ONLINE' ? undefined : 'gray',
          ),
        )
      : []),
  ];
  return h(Box, { flexDirection: 'column' }, ...rows, note ? h(Text, { color: 'gray' }, note) : null);
}

let inkModule: typeof import('ink') | undefined;

/** Follow GET /api/dashboard/stream until `signal` aborts; a dropped stream is reopened. */
async function follow(client: ApiClient, node: number | undefined, signal: AbortSignal, onStatus: (s: Status) => void, onState: (note: string) => void): Promise<void> {
  while (!signal.aborted) {
    try {
      const { data, error, response } = await client.GET('/api/dashboard/stream', { params: { query: { node } }, parseAs: 'stream', signal, headers: { Accept: 'text/event-stream' } });
      if (!response.ok || !data) throw ApiError.from(response.status, error, response.headers.get('x-request-id'));
      onState('live   q: quit');
      for await (const event of readSse(data as ReadableStream<Uint8Array>)) if (event.event === 'status') onStatus(JSON.parse(event.data) as Status);
    } catch (err) {
      if (signal.aborted) return;
      if (err instanceof ApiError && err.status < 500) throw err;
      onState(`reconnecting: ${(err as Error).message}`);
    }
    if (!signal.aborted) await new Promise((r) => setTimeout(r, 2000));
  }
}

function LiveDashboard({ client, node, onFatal }: { client: ApiClient; node: number | undefined; onFatal: (e: unknown) => void }): ReactElement {
  const { useApp, useInput } = inkModule!;
  const app = useApp();
  const [status, setStatus] = useState<Status | undefined>(undefined);
  const [note, setNote] = useState('connecting ...');
  useInput((input, key) => {
    if (input === 'q' || key.escape || (key.ctrl && input === 'c')) app.exit();
  });
  useEffect(() => {
    const abort = new AbortController();
    void follow(client, node, abort.signal, setStatus, setNote).catch((error: unknown) => {
      onFatal(error);
      app.exit();
    });
    return () => abort.abort();
  }, [client, node]);
  return h(DashboardView, { status, note });
}

/** `mediaplane dashboard`: a live view of a node's readings (the console's /my), or one snapshot with --once. */
export function registerDashboardCommand(program: Command): void {
  program
    .command('dashboard')
    .description('A live view of a node: CPU, load, memory, disk, uptime, bandwidth, jobs, GPUs, versions. q quits')
    .option('--node <id>', 'the node (nodes id); default: the node of the server')
    .option('--once', 'print one reading and exit')
    .option('--json', 'with --once: print the reading as JSON')
    .action(async (options: { node?: string; once?: boolean; json?: boolean }, command: Command) => {
      if (options.json && !options.once) throw new CliError('INVALID_OPTIONS', '--json needs --once: the live view is for a terminal');
      const node = options.node === undefined ? undefined : Number(options.node);
      if (node !== undefined && (!Number.isInteger(node) || node < 1)) throw new CliError('INVALID_OPTIONS', '--node must be a positive whole number');
      const { client } = contextOf(command);
      if (options.once) {
        const status = await unwrap(client.GET('/api/dashboard', { params: { query: { node } } }));
        if (options.json) return printJson(status);
        inkModule = await import('ink');
        return printElement(h(DashboardView, { status }));
      }
      inkModule = await import('ink');
      let fatal: unknown;
      const app = inkModule.render(h(LiveDashboard, { client, node, onFatal: (e) => (fatal = e) }));
      await app.waitUntilExit();
      if (fatal) throw fatal;
    });
}
