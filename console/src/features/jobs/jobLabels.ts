import { jobPermissions } from '../../../../openapi/permissions.ts';
import type { Schemas } from '../../data/client.ts';
import type { JobKind } from '../../data/jobs/keys.ts';

type OutputType = Schemas['JobSummary']['outputTypes'][number];
type InputType = Schemas['JobSummary']['inputType'];
type JobStatus = Schemas['JobStatus'];

/** What differs between the relay and the encoding screens (spec 01 §2.3, §2.5, §2.7, §4). */
export interface JobKindConfig {
  kind: JobKind;
  /** "relay" / "encoding": in confirmations and messages. */
  noun: string;
  /** "Relay" / "Encoding". */
  Noun: string;
  title: string;
  templatesTitle: string;
  addLabel: string;
  emptyText: string;
  /** The list's own topic on the live stream. */
  topic: string;
  /** Encodings show a Preset column and filter. */
  hasPreset: boolean;
  base: string;
}

export const JOB_KINDS: Record<JobKind, JobKindConfig> = {
  relay: {
    kind: 'relay',
    noun: 'relay',
    Noun: 'Relay',
    title: 'Relays',
    templatesTitle: 'Relay templates',
    addLabel: 'Add Relay',
    emptyText: 'No relays',
    topic: 'relays',
    hasPreset: false,
    base: '/my/relays',
  },
  encoding: {
    kind: 'encoding',
    noun: 'encoding',
    Noun: 'Encoding',
    title: 'Encodings',
    templatesTitle: 'Encoding templates',
    addLabel: 'Add Transcoder',
    emptyText: 'No encodings',
    topic: 'encodings',
    hasPreset: true,
    base: '/my/encodings',
  },
};

/** Spec 01 §2.7: the template list's empty text, for both kinds. */
export const TEMPLATES_EMPTY_TEXT = 'No encodings';

export const jobPaths = {
  edit: (kind: JobKind, id?: number) => `${JOB_KINDS[kind].base}/edit${id === undefined ? '' : `/${id}`}`,
  templateEdit: (kind: JobKind, id?: number) => `${JOB_KINDS[kind].base}/templates/edit${id === undefined ? '' : `/${id}`}`,
  logs: (kind: JobKind, id: number) => `${JOB_KINDS[kind].base}/logs/${id}`,
  preset: (id: number) => `/my/presets/edit/video/${id}`,
};

/** The permission names behind each action of a kind (any one of each list grants it). */
export function jobGrants(kind: JobKind, granted: ReadonlySet<string>) {
  const can = jobPermissions(kind);
  const any = (names: readonly string[]) => names.some((name) => granted.has(name));
  return {
    edit: any(can.edit.anyOf),
    fullEdit: any(can.fullEdit.anyOf),
    onOff: any(can.onOff.anyOf),
    restart: any(can.restart.anyOf),
    delete: any(can.delete.anyOf),
    log: any(can.log.anyOf),
    templateEdit: any(can.templateEdit.anyOf),
    templateDelete: any(can.templateDelete.anyOf),
    /** Spec 01 §6 / 03 Alarms: the job's alarm history is seen with ALARMS_VIEW or ALARMS_EDIT. */
    alarmHistory: any(['ALARMS_VIEW', 'ALARMS_EDIT']),
  };
}
export type JobGrants = ReturnType<typeof jobGrants>;

export const OUTPUT_TYPE_LABELS: Record<OutputType, string> = {
  udp: 'UDP',
  srt: 'SRT',
  tcp: 'TCP',
  rtmp: 'RTMP',
  mpegts: 'MPEG-TS',
  playback: 'Playback',
  httplive: 'HTTP Live',
  hls: 'HLS',
  dash: 'DASH',
  cmaf: 'CMAF',
};

export const INPUT_TYPE_LABELS: Record<InputType, string> = {
  uri: 'URI',
  storage: 'Storage',
  playlist: 'Playlist',
  dvb: 'DVB',
  dev: 'Device',
  multiviewer: 'Multiviewer',
};

const options = <K extends string>(labels: Record<K, string>) => (Object.entries(labels) as [K, string][]).map(([value, label]) => ({ value, label }));
export const OUTPUT_TYPE_OPTIONS = options(OUTPUT_TYPE_LABELS);
export const INPUT_TYPE_OPTIONS = options(INPUT_TYPE_LABELS);
export const VIDEO_TYPE_OPTIONS = [
  { value: 'LIVE', label: 'LIVE' },
  { value: 'VOD', label: 'VOD' },
];

/** The Status filter (JobListQuery.status); "Streaming" reads "Transcoding" for encodings. */
export function statusFilterOptions(kind: JobKind) {
  return [
    { value: 'active', label: 'Active' },
    { value: 'inactive', label: 'Inactive' },
    { value: 'streaming', label: workStatusLabel(kind, 'Streaming') },
    { value: 'waiting', label: 'Waiting' },
    { value: 'failed', label: 'Failed' },
  ];
}

/** Spec 01 §4: the work status "Streaming" is shown as "Transcoding" (for encodings). */
export function workStatusLabel(kind: JobKind, workStatus: string): string {
  return kind === 'encoding' && workStatus === 'Streaming' ? 'Transcoding' : workStatus;
}

/** The colour of a status: from the observed state, so a live patch shows at once. */
export function statusTone(status: Pick<JobStatus, 'on' | 'state'>): 'ok' | 'busy' | 'failed' | 'off' {
  switch (status.state) {
    case 'running':
      return 'ok';
    case 'failed':
      return 'failed';
    case 'starting':
    case 'restarting':
    case 'stopping':
      return 'busy';
    default:
      return status.on ? 'busy' : 'off';
  }
}

/**
 * The work status the API reports for an observed state (JobStatus.workStatus), used to patch a
 * row from a live status event until the next refetch brings the server's own text.
 */
export function workStatusOf(on: boolean, state: JobStatus['state']): string {
  if (!on) return 'Stopped';
  if (state === 'running') return 'Streaming';
  if (state === 'failed') return 'Failed';
  return 'Waiting';
}

// ---- figures (spec 01 §2.5: while off, CPU reads 0.00% and the others "--") ----

export const NONE = '--';

export function formatCpu(status: Pick<JobStatus, 'on' | 'cpu'>): string {
  return `${(status.on ? status.cpu : 0).toFixed(2)}%`;
}

export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 B';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  const power = Math.min(units.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  const value = bytes / 1024 ** power;
  return `${value >= 100 || power === 0 ? value.toFixed(0) : value.toFixed(1)} ${units[power]}`;
}

/** A bitrate as the lists show it; "--" where the node does not measure it. */
export function formatBitrate(bps: number | null): string {
  if (bps === null) return '--';
  if (!Number.isFinite(bps) || bps <= 0) return '0 Kbps';
  if (bps >= 1_000_000) return `${(bps / 1_000_000).toFixed(2)} Mbps`;
  return `${Math.round(bps / 1000)} Kbps`;
}

/** The total over the measured streams; null when none is measured. */
export function totalBps(streams: ReadonlyArray<{ bps: number | null }>): number | null {
  const measured = streams.filter((s) => s.bps !== null);
  return measured.length ? measured.reduce((sum, s) => sum + (s.bps as number), 0) : null;
}

/** A duration in seconds as "3d 4h", "2h 5m", "4m 10s" or "12s". */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return NONE;
  const s = Math.floor(seconds);
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return `${d}d ${h}h`;
  if (h > 0) return `${h}h ${m}m`;
  if (m > 0) return `${m}m ${s % 60}s`;
  return `${s}s`;
}
