import type { Schemas } from '../../openapi/client/index.ts';
import { formatTime } from '../output.ts';
import { Fields } from './fields.tsx';
import { Table, type Column } from './table.tsx';

/** What the relays, encodings and templates commands show when not asked for --json. */

type Kind = 'relay' | 'encoding';
type Summary = Schemas['JobSummary'];
type Status = Schemas['JobStatus'];

/** The work status as the spec shows it: "Streaming" reads "Transcoding" for encodings. */
export function displayStatus(kind: Kind, workStatus: string): string {
  return kind === 'encoding' && workStatus === 'Streaming' ? 'Transcoding' : workStatus;
}

export function statusColor(workStatus: string): string | undefined {
  if (workStatus === 'Streaming') return 'green';
  if (workStatus === 'Failed') return 'red';
  if (workStatus === 'Waiting' || workStatus === 'Starting' || workStatus === 'Restarting') return 'yellow';
  return undefined;
}

export const formatCpu = (percent: number) => `${percent.toFixed(2)}%`;

/** Memory in binary units: `512 KiB`, `45.3 MiB`, `1.20 GiB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 100 || unit === 0 ? Math.round(value) : value.toFixed(value >= 10 ? 1 : 2)} ${units[unit]}`;
}

/** A bitrate: `850 kb/s`, `4.20 Mb/s`; `--` where the node does not measure it. */
export function formatBps(bps: number | null): string {
  if (bps === null) return '--';
  if (bps < 1000) return `${Math.round(bps)} b/s`;
  if (bps < 1_000_000) return `${Math.round(bps / 1000)} kb/s`;
  if (bps < 1_000_000_000) return `${(bps / 1_000_000).toFixed(2)} Mb/s`;
  return `${(bps / 1_000_000_000).toFixed(2)} Gb/s`;
}

/** `04:05:06`, or `3d 04:05:06` past a day. */
export function formatUptime(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '--';
  const s = Math.floor(seconds);
  const pad = (n: number) => String(n).padStart(2, '0');
  const clock = `${pad(Math.floor((s % 86_400) / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
  return s >= 86_400 ? `${Math.floor(s / 86_400)}d ${clock}` : clock;
}

/** The total over the measured streams; null when none of them is measured. */
export function sumBps(streams: Array<{ bps: number | null }>): number | null {
  const measured = streams.filter((s) => s.bps !== null);
  return measured.length ? measured.reduce((sum, s) => sum + (s.bps as number), 0) : null;
}

/** "udp, hls M E AD": the enabled output types and the spec's labels. */
export function outputsText(summary: Pick<Summary, 'outputTypes' | 'outputMarkers'>): string {
  const markers = [summary.outputMarkers.multiProfile ? 'M' : '', summary.outputMarkers.encrypted ? 'E' : '', summary.outputMarkers.ad ? 'AD' : ''].filter(Boolean);
  const types = summary.outputTypes.join(', ') || '-';
  return markers.length ? `${types} ${markers.join(' ')}` : types;
}

/** The node: its name, or its id, or "auto". */
export const nodeText = (job: { node: number | null; nodeName: string | null }) => job.nodeName ?? (job.node ? `#${job.node}` : 'auto');

/** On, and a process runs or is being started for it (not given up after its restart attempts). */
const live = (status: Status) => status.on && status.state !== 'failed' && status.state !== 'stopped';

/** CPU, RSS and start information show only while the job is on: otherwise CPU reads 0.00% and the others "--" (spec 01 §2.5). */
const whenOn = (status: Status, text: string) => (live(status) ? text : '--');
const cpuText = (status: Status) => formatCpu(live(status) ? status.cpu : 0);

function jobColumns(kind: Kind): Column<Summary>[] {
  return [
    { header: 'ID', value: (j) => String(j.id), align: 'right' },
    { header: 'NAME', value: (j) => j.name },
    { header: 'STATUS', value: (j) => displayStatus(kind, j.status.workStatus), color: (j) => statusColor(j.status.workStatus) },
    { header: 'NODE', value: nodeText },
    ...(kind === 'encoding' ? [{ header: 'PRESET', value: (j: Summary) => j.preset?.name ?? '-' }] : []),
    { header: 'INPUT', value: (j) => (live(j.status) && j.status.inputs.length ? `${j.inputType} ${formatBps(sumBps(j.status.inputs))}` : j.inputType) },
    { header: 'OUTPUTS', value: outputsText },
    { header: 'CPU', value: (j) => cpuText(j.status), align: 'right' },
    { header: 'RSS', value: (j) => whenOn(j.status, formatBytes(j.status.rss)), align: 'right' },
    { header: 'RESTARTS', value: (j) => String(j.status.restarts), align: 'right' },
    { header: 'UPTIME', value: (j) => whenOn(j.status, formatUptime(j.status.uptimeSeconds)), align: 'right' },
  ];
}

const EMPTY = { relay: 'No relays', encoding: 'No encodings' } as const;

function paging(page: { page: number; size: number; total: number }): string {
  const pages = Math.max(1, Math.ceil(page.total / page.size));
  return pages > 1 ? `   Page ${page.page} of ${pages}` : '';
}

export function JobPageView({ kind, page, maxWidth }: { kind: Kind; page: Schemas['JobPage']; maxWidth?: number }) {
  const { total, active, failed, waiting } = page.counts;
  return (
    <Table
      columns={jobColumns(kind)}
      rows={page.items}
      empty={EMPTY[kind]}
      footer={`Total ${kind}s: ${total}   Active: ${active}   Failed: ${failed}   Waiting: ${waiting}${paging(page)}`}
      maxWidth={maxWidth}
    />
  );
}

function templateColumns(kind: Kind): Column<Summary>[] {
  return [
    { header: 'ID', value: (j) => String(j.id), align: 'right' },
    { header: 'NAME', value: (j) => j.name },
    { header: 'TYPE', value: (j) => j.videoType },
    ...(kind === 'encoding' ? [{ header: 'PRESET', value: (j: Summary) => j.preset?.name ?? '-' }] : []),
    { header: 'INPUT', value: (j) => j.inputType },
    { header: 'OUTPUTS', value: outputsText },
    { header: 'UPDATED', value: (j) => formatTime(j.updatedAt) },
  ];
}

export function TemplatePageView({ kind, page, maxWidth }: { kind: Kind; page: Schemas['JobPage']; maxWidth?: number }) {
  return <Table columns={templateColumns(kind)} rows={page.items} empty={EMPTY[kind]} footer={`Total ${kind} templates: ${page.total}${paging(page)}`} maxWidth={maxWidth} />;
}

function outputLine(output: Schemas['Job']['outputs'][number], index: number, status: Status): string {
  const where = output.uri ?? (output.port ? `port ${output.port}` : '');
  const bps = live(status) ? status.outputs.find((o) => o.position === (output.position ?? index)) : undefined;
  const flags = [output.disabled ? 'disabled' : '', output.type === 'srt' ? output.srtMode : '', bps ? formatBps(bps.bps) : ''].filter(Boolean);
  return `${output.position ?? index}: ${output.type} ${where}${flags.length ? ` (${flags.join(', ')})` : ''}`.replace(/ {2,}/g, ' ');
}

function inputText(input: Schemas['Input']): string {
  const target =
    input.uri ?? (input.path ? `storage ${input.storageConfig}: ${input.path}` : input.playlist ? `playlist ${input.playlist}` : input.stream ? `stream ${input.stream}` : input.device ?? (input.multiviewer ? `multiviewer ${input.multiviewer}` : ''));
  return `${input.type} ${target}${input.program !== undefined ? ` (program ${input.program})` : ''}`.trim();
}

export function JobView({ kind, job }: { kind: Kind; job: Schemas['Job'] }) {
  const { status } = job;
  const fields: Array<[string, string]> = [
    ['ID', String(job.id)],
    ['Name', job.name],
    ['Type', job.videoType],
    ['Status', `${displayStatus(kind, status.workStatus)} (${status.on ? 'on' : 'off'}, ${status.state})`],
  ];
  if (status.reason) fields.push(['Reason', status.reasonDetail ? `${status.reason}: ${status.reasonDetail}` : status.reason]);
  if (job.changedConfigSinceLastStart) fields.push(['Changed config', 'yes: running an older configuration; `restart --reload` applies it']);
  fields.push(['Node', `${nodeText(job)}${status.executionNode && status.executionNode !== job.nodeName ? ` (runs on ${status.executionNode})` : ''}`]);
  fields.push(['Input', inputText(job.input)]);
  if (job.failover) fields.push(['Failover', `${inputText(job.failover.input)} after ${job.failover.timeout} s${status.activeInput === 'failover' ? ' (active now)' : ''}`]);
  if (kind === 'encoding') fields.push(['Preset', job.relayVideo ? 'video passed through' : job.preset ? `#${job.preset}` : '-']);
  fields.push(['Outputs', job.outputs.map((output, i) => outputLine(output, i, status)).join('\n') || '-']);
  fields.push(
    ['Bitrate in', whenOn(status, formatBps(sumBps(status.inputs)))],
    ['Bitrate out', whenOn(status, formatBps(sumBps(status.outputs)))],
    ['CPU', cpuText(status)],
    ['RSS', whenOn(status, formatBytes(status.rss))],
    ['Restarts', `${status.restarts} (attempts ${job.restartAttempts === 0 ? 'never' : job.restartAttempts})`],
    ['Uptime', whenOn(status, formatUptime(status.uptimeSeconds))],
    ['Started', whenOn(status, formatTime(status.startedAt))],
    ['Last reset', whenOn(status, formatTime(status.lastResetAt))],
    ['Saved', job.saved ? 'yes (locked)' : 'no'],
  );
  if (job.comments.length) fields.push(['Comments', job.comments.map((c) => `#${c.id} ${c.type}: ${c.comment} (${c.createdBy ?? 'unknown'}, ${formatTime(c.createdAt)})`).join('\n')]);
  fields.push(['Created', `${formatTime(job.createdAt)}${job.createdBy ? ` by ${job.createdBy}` : ''}`], ['Updated', formatTime(job.updatedAt)]);
  return <Fields fields={fields} />;
}
