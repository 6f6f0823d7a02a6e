import path from 'node:path';
import type { JobInputValue } from '../../openapi/schemas/jobs.ts';
import { isStoragePath } from '../../openapi/schemas/storage-paths.ts';
import { validateBatch } from '../../engine/batch/batch-plan.ts';
import type { AbrProfileSpec, AudioTrackSpec, EncodingSpec, InputSpec, JobSpec, OutputSpec, VideoEncodeSpec } from '../../engine/types.ts';
import type { AudioPresetRow, JobRow, VideoPresetRow, WatermarkRow } from '../db/tables.ts';

/** What a job refers to, looked up by the reconciler before resolving it. */
export interface JobReferences {
  preset?: VideoPresetRow & { audioPreset?: AudioPresetRow };
  audioPresets: Map<number, AudioPresetRow>;
  watermark?: WatermarkRow;
}

/** Where this node keeps what jobs write and read. */
export interface NodePaths {
  /** Segmented outputs (hls, dash, cmaf) are written under here, served at /streams/. */
  streamsDir: string;
  /** HLS AES-128 keys. */
  keysDir: string;
  /** Uploaded watermark images. */
  watermarksDir: string;
  /** The local storage root: subtitle files and replacement files are paths inside it. */
  mediaDir: string;
}

/** Players fetch HLS keys here: a path on the product's own origin, so it works whatever host they use. */
export const STREAM_KEYS_PATH = '/api/streams/keys';

/** A job that cannot run as configured: the reason is shown with the job. */
export class JobResolveError extends Error {}

const RESOLUTIONS: Record<string, [number, number]> = {
  R_3840x2160: [3840, 2160],
  R_1920x1080: [1920, 1080],
  R_1280x720: [1280, 720],
  R_1024x576: [1024, 576],
  R_854x480: [854, 480],
  R_720x576: [720, 576],
  R_640x360: [640, 360],
  R_426x240: [426, 240],
};

export function jobKey(row: Pick<JobRow, 'kind' | 'id'>): string {
  return `${row.kind}-${row.id}`;
}

function hostPort(uri: string, field: string): { host: string; port: number; params: URLSearchParams } {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new JobResolveError(`${field}: ${uri} is not a valid URL`);
  }
  const port = Number(url.port);
  if (!url.hostname || !Number.isInteger(port) || port < 1 || port > 65535) throw new JobResolveError(`${field}: ${uri} needs a host and a port`);
  return { host: url.hostname.replace(/^\[|\]$/g, ''), port, params: url.searchParams };
}

/** A stream location ("live/ch1") resolved inside the streams directory, never outside it. */
export function streamDir(paths: Pick<NodePaths, 'streamsDir'>, location: string): string {
  const cleaned = location.replace(/^\/+/, '').replace(/\/+$/, '');
  const resolved = path.resolve(paths.streamsDir, cleaned);
  if (!cleaned || (resolved !== paths.streamsDir && !resolved.startsWith(`${paths.streamsDir}${path.sep}`))) {
    throw new JobResolveError(`stream location ${location} is outside the streams directory`);
  }
  return resolved;
}

/**
 * A file a job names (a subtitle file, a replacement file) resolved inside the storage root, never
 * outside it: the write rules refused such a path already, this holds for a job stored before them.
 */
export function storageFile(paths: Pick<NodePaths, 'mediaDir'>, file: string, field: string): string {
  const root = path.resolve(paths.mediaDir);
  const resolved = path.resolve(root, file);
  if (!isStoragePath(file) || !resolved.startsWith(`${root}${path.sep}`)) throw new JobResolveError(`${field}: ${file} is outside the storage root`);
  return resolved;
}

function resolveInput(input: JobInputValue['input']): InputSpec {
  switch (input.type) {
    case 'uri':
      return { type: 'uri', uri: input.uri as string, token: input.tokenRequired ? input.token : undefined, program: input.program, videoDecoder: input.videoDecoder };
    case 'storage':
      throw new JobResolveError('storage inputs arrive with the media library');
    default:
      throw new JobResolveError(`${input.type} inputs arrive with their area`);
  }
}

function resolveOutput(job: JobRow, output: JobInputValue['outputs'][number], index: number, paths: NodePaths): OutputSpec | null {
  if (output.disabled) return null;
  const segment = output.adaptiveOptions?.segmentDuration ?? 6;
  const listSize = job.video_type === 'VOD' ? 0 : 6;
  switch (output.type) {
    case 'udp': {
      const { host, port } = hostPort(output.uri as string, `outputs.${index}.uri`);
      return { index, type: 'udp', host, port, rtp: output.rtpPayloadEnabled };
    }
    case 'srt': {
      const pbkeylen = output.secured ? ({ AES_128: 16, AES_192: 24, AES_256: 32 } as const)[output.secured.keyType] : undefined;
      const target = output.srtMode === 'listener' ? { host: '0.0.0.0', port: output.port ?? hostPort(output.uri as string, `outputs.${index}.uri`).port } : hostPort(output.uri as string, `outputs.${index}.uri`);
      return { index, type: 'srt', mode: output.srtMode, host: target.host, port: target.port, latencyMs: output.srtLatencyMs, passphrase: output.secured?.passphrase, pbkeylen, streamId: output.srtStreamId };
    }
    case 'tcp': {
      const { host, port, params } = hostPort(output.uri as string, `outputs.${index}.uri`);
      return { index, type: 'tcp', host, port, listen: params.get('listen') === '1' };
    }
    case 'rtmp':
      return { index, type: 'rtmp', url: output.uri as string, username: output.auth?.enabled ? output.auth.username : undefined, password: output.auth?.enabled ? output.auth.password : undefined };
    case 'mpegts':
      return { index, type: 'mpegts' };
    case 'hls': {
      const dir = streamDir(paths, output.uri as string);
      const keyName = `${jobKey(job)}-${index}.key`;
      return {
        index,
        type: 'hls',
        dir,
        segmentDurationSeconds: segment,
        containerType: output.hlsOptions?.containerType ?? 'TS',
        programDateTime: output.hlsOptions?.programDateTime ?? false,
        listSize,
        encryption: output.encryption ? { keyFile: path.join(paths.keysDir, keyName), keyUrl: `${STREAM_KEYS_PATH}/${keyName}` } : undefined,
      };
    }
    case 'dash':
      return { index, type: 'dash', dir: streamDir(paths, output.uri as string), segmentDurationSeconds: segment, listSize };
    case 'cmaf':
      return { index, type: 'cmaf', dir: streamDir(paths, output.uri as string), segmentDurationSeconds: segment, listSize };
    default:
      throw new JobResolveError(`outputs.${index}: ${output.type} outputs arrive with their area`);
  }
}

function resolveVideo(config: JobInputValue, refs: JobReferences): VideoEncodeSpec | 'copy' | null {
  if (config.noVideo) return null;
  if (config.relayVideo) return 'copy';
  const preset = refs.preset;
  if (!preset) throw new JobResolveError('preset: the encoding has no video preset');
  const [width, height] = config.videoResolution === 'CUSTOM' ? [config.width, config.height] : (RESOLUTIONS[config.videoResolution] ?? [undefined, undefined]);
  return {
    codec: preset.video_codec,
    bitrateKbps: preset.video_bitrate,
    width,
    height,
    aspectRatio: config.aspectRatio ?? undefined,
    frameRate: config.framerate ?? undefined,
    keyInt: config.keyInt ?? undefined,
    params: preset.video_codec_parameters,
    deinterlace: config.deinterlaceMode === 'DISABLED' ? undefined : { method: config.deinterlaceMethod, field: config.deinterlaceField },
  };
}

function resolveAudioTracks(config: JobInputValue, refs: JobReferences): AudioTrackSpec[] {
  const fallback = refs.preset?.audioPreset;
  return config.audioSetting.tracks.map((track) => {
    const preset = (track.audioPreset ? refs.audioPresets.get(track.audioPreset) : undefined) ?? fallback;
    return {
      source: track.source,
      codec: track.codec ?? preset?.audio_codec ?? 'aac',
      bitrateKbps: track.bitrate ?? preset?.audio_bitrate ?? 128,
      channels: track.channelCount ?? preset?.channels ?? undefined,
      sampleRate: preset?.sample_rate,
    };
  });
}

function resolveEncoding(config: JobInputValue, refs: JobReferences, paths: NodePaths): EncodingSpec {
  const profiles: AbrProfileSpec[] | undefined = config.adaptive
    ? config.profiles.map((p) => ({ width: p.width, height: p.height, videoBitrateKbps: p.videoBitrate, audioBitrateKbps: p.audioBitrate }))
    : undefined;
  const watermark = refs.watermark;
  return {
    video: resolveVideo(config, refs),
    profiles,
    audio: {
      disabled: config.audioSetting.audioDisabled || config.noSound,
      normalization: config.audioSetting.normalizationEnabled,
      volume: config.audioSetting.volume,
      tracks: resolveAudioTracks(config, refs),
    },
    muxAudioAndVideo: config.muxAudioAndVideo,
    watermark: watermark
      ? { file: path.join(paths.watermarksDir, watermark.file), alpha: watermark.alpha, width: watermark.scaled_width, height: watermark.scaled_height, x: watermark.x, y: watermark.y }
      : undefined,
    replaceVideoFile: config.replaceVideo && config.replaceVideoFile ? storageFile(paths, config.replaceVideoFile, 'replaceVideoFile') : undefined,
    replaceAudioFile: config.replaceAudio && config.replaceAudioFile ? storageFile(paths, config.replaceAudioFile, 'replaceAudioFile') : undefined,
    delaySeconds: config.delayTime || undefined,
    subtitles: config.subtitles.map((s, i) => ({
      type: s.type,
      source: s.type === 'URL' ? s.url : s.type === 'FILE' && s.fileName ? storageFile(paths, s.fileName, `subtitles.${i}.fileName`) : s.fileName,
      language: s.language,
      default: s.default,
    })),
  };
}

/** A batch job (spec 01 §2.6): the input is a local glob and each output names its files by the source. */
export function isBatchJob(config: Pick<JobInputValue, 'input'>): boolean {
  return config.input?.batchLogEnabled === true;
}

/**
 * The batch rules, checked where the job is turned into a spec: VOD with a uri input, a local glob,
 * and every enabled output named by at least one placeholder (an SRT output by its stream id, the
 * others by their uri: the stream location of HLS, DASH and CMAF, the URL of RTMP).
 */
function checkBatch(config: JobInputValue): void {
  const outputs = config.outputs.flatMap((o, i) => {
    if (o.disabled) return [];
    return o.type === 'srt' ? [{ path: `outputs.${i}.srtStreamId`, template: o.srtStreamId ?? '' }] : [{ path: `outputs.${i}.uri`, template: o.uri ?? '' }];
  });
  const issues = validateBatch({ videoType: config.videoType, inputType: config.input.type, inputUri: config.input.uri, outputs });
  if (issues.length) throw new JobResolveError(issues.map((issue) => `${issue.path}: ${issue.message}`).join('; '));
}

/** Turn a stored job and what it references into the engine's resolved spec. */
export function resolveJobSpec(row: JobRow, config: JobInputValue, refs: JobReferences, paths: NodePaths): JobSpec {
  if (isBatchJob(config)) checkBatch(config);
  const outputs = config.outputs.map((o, i) => resolveOutput(row, o, i, paths)).filter((o): o is OutputSpec => o !== null);
  if (outputs.length === 0) throw new JobResolveError('outputs: the job has no enabled output');
  return {
    id: jobKey(row),
    name: row.name,
    videoType: config.videoType,
    input: resolveInput(config.input),
    failover: config.failover ? { input: resolveInput(config.failover.input), switchTimeoutSeconds: config.failover.timeout } : undefined,
    outputs,
    encoding: row.kind === 'encoding' ? resolveEncoding(config, refs, paths) : undefined,
    noVideo: config.noVideo,
    noSound: config.noSound,
    restartAttempts: config.restartAttempts,
    staleTimeoutSeconds: 15,
    logLevel: config.logLevel,
    logTarget: config.logTarget,
    logMaxSizeInMegaBytes: config.logMaxSizeInMegaBytes,
  };
}
