import { createHash } from 'node:crypto';
import path from 'node:path';
import { CMAF_HLS_MASTER, DASH_MANIFEST } from '../../engine/ffmpeg/outputs/dash.ts';
import { HLS_ENTRY_PLAYLIST } from '../../engine/ffmpeg/outputs/hls.ts';
import type { SrtStats } from '../../engine/types.ts';
import type { JobInputValue } from '../../openapi/schemas/jobs.ts';
import { JobResolveError, streamDir } from '../node/job-resolver.ts';
import { requireJob, type JobHistoryRepository, type JobKindName } from '../repositories/job-history.repository.ts';

/** Where segmented outputs are served (api/app.ts mounts the streams directory here). */
export const STREAMS_URL_PATH = '/streams';

/**
 * Where the HTTP MPEG-TS output of a job is served: one stream per job (a job has at most one
 * such output), fanned out to every client by engine/mpegts-fanout.ts.
 */
export function mpegTsStreamPath(kind: JobKindName, id: number): string {
  return `${STREAMS_URL_PATH}/mpegts/${kind}-${id}.ts`;
}

type OutputConfig = JobInputValue['outputs'][number];
type PlayerType = 'hls' | 'dash' | 'mpegts';

export interface MonitorDeliveryDto {
  uuid: string;
  uri: string | null;
  url: string;
  deliveryType: string;
  token: string | null;
  type: PlayerType;
  srtStat: SrtStats | null;
  outputPosition: number;
  outputType: OutputConfig['type'];
}

export interface JobMonitorDto {
  deliveries: MonitorDeliveryDto[];
  inputs: { index: number; srtStat: SrtStats }[];
  outputs: { position: number; srtStat: SrtStats }[];
  state: string | null;
}

interface StoredSrtLink {
  direction: 'input' | 'output';
  index: number;
  stats: SrtStats;
}

/** A UUID (version 5 layout) that names the same delivery every time. */
function stableUuid(name: string): string {
  const bytes = createHash('sha1').update(`mediaplane-monitor:${name}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The Monitor tab (spec 01 §2.6, §3 monitorDeliveries): what the console's player can load for each
 * enabled output (the HLS playlist, DASH manifest or CMAF master under /streams/, named as the
 * engine writes them into the directory job-resolver.ts gives the output; the HTTP MPEG-TS stream),
 * and the SRT statistics of the job's inputs and outputs while it runs.
 */
export class JobMonitorService {
  constructor(
    private readonly jobs: JobHistoryRepository,
    private readonly streamsDir: string,
  ) {}

  async monitor(kind: JobKindName, id: number): Promise<JobMonitorDto> {
    const job = await requireJob(this.jobs, kind, id);
    const config = job.config as JobInputValue;
    const deliveries = (config.outputs ?? []).flatMap((output, position) => this.deliveriesOf(kind, id, output, position));
    const status = await this.jobs.status(id);
    const links = status?.state === 'running' && Array.isArray(status.srt_stats) ? (status.srt_stats as StoredSrtLink[]) : [];
    return {
      deliveries,
      inputs: links.filter((l) => l.direction === 'input').map((l) => ({ index: l.index, srtStat: l.stats })),
      outputs: links.filter((l) => l.direction === 'output').map((l) => ({ position: l.index, srtStat: l.stats })),
      state: status?.state ?? null,
    };
  }

  private deliveriesOf(kind: JobKindName, id: number, output: OutputConfig, position: number): MonitorDeliveryDto[] {
    if (output.disabled) return [];
    const delivery = (type: PlayerType, url: string): MonitorDeliveryDto => ({
      uuid: stableUuid(`${kind}-${id}-${position}-${type}`),
      uri: output.uri ?? null,
      url,
      deliveryType: 'LOCAL_STORAGE',
      token: null,
      type,
      srtStat: null,
      outputPosition: position,
      outputType: output.type,
    });
    switch (output.type) {
      case 'hls':
        return this.streamUrl(output.uri, HLS_ENTRY_PLAYLIST, (url) => delivery('hls', url));
      case 'dash':
        return this.streamUrl(output.uri, DASH_MANIFEST, (url) => delivery('dash', url));
      case 'cmaf':
        return [...this.streamUrl(output.uri, CMAF_HLS_MASTER, (url) => delivery('hls', url)), ...this.streamUrl(output.uri, DASH_MANIFEST, (url) => delivery('dash', url))];
      case 'mpegts':
        return [delivery('mpegts', mpegTsStreamPath(kind, id))];
      default:
        return [];
    }
  }

  /** The URL of a file in an output's stream directory; none for a location outside it or a batch template. */
  private streamUrl(location: string | undefined, file: string, make: (url: string) => MonitorDeliveryDto): MonitorDeliveryDto[] {
    if (!location || /\{SRC_[A-Z_]+\}/.test(location)) return [];
    let dir: string;
    try {
      dir = streamDir({ streamsDir: this.streamsDir }, location);
    } catch (error) {
      if (error instanceof JobResolveError) return [];
      throw error;
    }
    const segments = path.relative(this.streamsDir, dir).split(path.sep).map(encodeURIComponent);
    return [make(`${STREAMS_URL_PATH}/${[...segments, file].join('/')}`)];
  }
}
