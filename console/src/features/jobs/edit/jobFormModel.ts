import type { z } from 'zod';
import { JobWrite } from '../../../../../openapi/schemas/job-api.ts';
import {
  checkJobRules,
  JobInput,
  type AudioTrack,
  type Delivery,
  type Input,
  type JobInputValue,
  type Output,
  type Profile,
  type Subtitle,
} from '../../../../../openapi/schemas/jobs.ts';
import type { Schemas } from '../../../data/client.ts';
import type { JobKind } from '../../../data/jobs/keys.ts';

export type InputValue = z.infer<typeof Input>;
export type OutputValue = z.infer<typeof Output>;
export type DeliveryValue = z.infer<typeof Delivery>;
export type ProfileValue = z.infer<typeof Profile>;
export type SubtitleValue = z.infer<typeof Subtitle>;
export type AudioTrackValue = z.infer<typeof AudioTrack>;
export type OutputType = OutputValue['type'];

/**
 * The form as its inputs hold it: the JobWrite of the API, with the fields that show a placeholder
 * (Restart attempts 10, Log level NOTICE, Log target FILE) left empty until typed; the schema's
 * defaults fill them on save.
 */
export type JobFormValues = Omit<JobInputValue, 'restartAttempts' | 'logLevel' | 'logTarget'> & {
  saved: boolean;
  restartAttempts?: number;
  logLevel?: JobInputValue['logLevel'];
  logTarget?: JobInputValue['logTarget'];
};

/** The API's own schema plus the cross-field rules of spec 01 §5 for the kind: what the server checks. */
export function jobSchema(kind: JobKind) {
  return JobWrite.superRefine((job, ctx) => checkJobRules(job, kind, ctx));
}

export const ENCODING_ONLY_FIELDS = [
  'relayVideo',
  'preset',
  'videoResolution',
  'width',
  'height',
  'aspectRatio',
  'framerate',
  'keyInt',
  'deinterlaceMode',
  'deinterlaceMethod',
  'deinterlaceField',
  'adaptive',
  'countOfProfiles',
  'profiles',
  'replaceVideo',
  'replaceVideoFile',
  'replaceAudio',
  'replaceAudioFile',
  'delayTime',
  'watermark',
  'audioSetting',
  'muxAudioAndVideo',
] as const;

export const SEGMENTED_TYPES: readonly OutputType[] = ['hls', 'dash', 'cmaf'];
/** Outputs that carry one MPEG-TS: they may hold several programs (one per profile). */
export const TS_TYPES: readonly OutputType[] = ['udp', 'srt', 'tcp', 'mpegts'];
export const DEFAULT_FAILOVER_TIMEOUT = 30;

export function newInput(type: InputValue['type'] = 'uri'): InputValue {
  return { type, tokenRequired: false, batchLogEnabled: false, hasTargetCachingUrl: false };
}

/** A fresh output of a type, with the options its type shows. */
export function newOutput(type: OutputType, position: number): OutputValue {
  const output: OutputValue = {
    position,
    type,
    disabled: false,
    rtpPayloadEnabled: false,
    srtMode: 'caller',
    mpegTsPrograms: [],
    encryption: false,
    drmEnabled: false,
    adMarkersEnabled: false,
    deliveryOptions: [],
  };
  if (type === 'hls') output.hlsOptions = { containerType: 'TS', programDateTime: false, muxAudioAndVideo: true };
  if (SEGMENTED_TYPES.includes(type)) output.adaptiveOptions = { segmentDuration: 6, trickPlayEnabled: false, lowLatencyEnabled: false };
  return output;
}

/** Another type for an existing output: its place and on/off stay, the type's own options start fresh. */
export function withOutputType(output: OutputValue, type: OutputType): OutputValue {
  return { ...newOutput(type, output.position ?? 0), disabled: output.disabled };
}

export function newDelivery(deliveryType: DeliveryValue['deliveryType']): DeliveryValue {
  return { deliveryType, disabled: false, useEdgioBackupPublishUrl: false };
}

/** The ABR ladder a new adaptive encoding starts from, best first. */
const LADDER: readonly Pick<ProfileValue, 'width' | 'height' | 'videoBitrate' | 'audioBitrate'>[] = [
  { width: 1920, height: 1080, videoBitrate: 5000, audioBitrate: 128 },
  { width: 1280, height: 720, videoBitrate: 3000, audioBitrate: 128 },
  { width: 854, height: 480, videoBitrate: 1500, audioBitrate: 96 },
  { width: 640, height: 360, videoBitrate: 800, audioBitrate: 96 },
  { width: 426, height: 240, videoBitrate: 400, audioBitrate: 64 },
  { width: 320, height: 180, videoBitrate: 250, audioBitrate: 64 },
  { width: 256, height: 144, videoBitrate: 150, audioBitrate: 48 },
  { width: 192, height: 108, videoBitrate: 100, audioBitrate: 48 },
  { width: 160, height: 90, videoBitrate: 80, audioBitrate: 32 },
];

/** `count` profiles: the ones there are first, then rungs of the ladder. */
export function resizeProfiles(profiles: readonly ProfileValue[], count: number): ProfileValue[] {
  const next = profiles.slice(0, count).map((p) => ({ ...p }));
  for (let i = next.length; i < count; i++) next.push({ ...LADDER[Math.min(i, LADDER.length - 1)], main: i === 0, skipEncryption: false });
  if (next.length > 0 && !next.some((p) => p.main)) next[0].main = true;
  return next;
}

export function newJobValues(): JobFormValues {
  return {
    name: '',
    saved: false,
    videoType: 'LIVE',
    node: null,
    input: newInput('uri'),
    failover: null,
    outputs: [newOutput('udp', 0)],
    subtitles: [],
    restartAttempts: undefined,
    lipSyncRestart: false,
    noVideo: false,
    noSound: false,
    logLevel: undefined,
    logTarget: undefined,
    logMaxSizeInMegaBytes: 10,
    statistics: false,
    statisticsDays: 7,
    alarmed: false,
    features: [],
    relayVideo: false,
    preset: null,
    videoResolution: 'SOURCE',
    aspectRatio: null,
    framerate: null,
    keyInt: null,
    deinterlaceMode: 'DISABLED',
    deinterlaceMethod: 'YADIF_FFMPEG',
    deinterlaceField: 'AUTO',
    adaptive: false,
    countOfProfiles: 3,
    profiles: [],
    replaceVideo: false,
    replaceAudio: false,
    delayTime: 0,
    watermark: null,
    audioSetting: { audioDisabled: false, normalizationEnabled: false, volume: 1, tracks: [{ source: 'AUTO' }] },
    muxAudioAndVideo: false,
  };
}

const EDITABLE_KEYS = [...Object.keys(JobInput.shape), 'saved'] as const;

/** The editable part of a stored job (or template), as the form holds it. */
export function valuesOf(job: Schemas['Job']): JobFormValues {
  const picked: Record<string, unknown> = {};
  for (const key of EDITABLE_KEYS) {
    const value = (job as unknown as Record<string, unknown>)[key];
    if (value !== undefined) picked[key] = structuredClone(value);
  }
  return picked as unknown as JobFormValues;
}

/** Empty strings of optional text fields are absent; outputs are numbered in order. */
function clean(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(clean);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      if (inner === undefined || (inner === '' && key !== 'name')) continue;
      out[key] = clean(inner);
    }
    return out;
  }
  return value;
}

/** The body of POST/PUT: what JobWrite validates, for the kind (a relay sends no encoding fields). */
export function toPayload(values: JobFormValues, kind: JobKind): Schemas['JobWrite'] {
  const body = clean(values) as Record<string, unknown>;
  body.outputs = (body.outputs as OutputValue[]).map((output, position) => ({ ...output, position }));
  if (kind === 'relay') for (const key of ENCODING_ONLY_FIELDS) delete body[key];
  return body as unknown as Schemas['JobWrite'];
}

/** A template's configuration loaded into the form: everything but the name (kept when typed) and the lock. */
export function withTemplate(current: JobFormValues, template: Schemas['Job']): JobFormValues {
  const loaded = valuesOf(template);
  return { ...loaded, name: current.name || loaded.name, saved: false };
}

// ---- texts ----

export const DELIVERY_TYPE_LABELS: Record<DeliveryValue['deliveryType'], string> = {
  LOCAL_STORAGE: 'Local storage',
  AKAMAI_NET_STORAGE: 'Akamai NetStorage',
  AMAZON_S3: 'Amazon S3',
  AWS_MEDIASTORE: 'AWS MediaStore',
  STREAMPOOL: 'Stream pool',
  AKAMAI_MSLV3: 'Akamai MSL v3',
  AKAMAI_MSLV4: 'Akamai MSL v4',
  EDGIO_LIVE_PUSH: 'Edgio live push',
  EDGIO_ORIGIN_STORAGE: 'Edgio origin storage',
};

/** "R_1920x1080" -> "1920x1080". */
export const resolutionLabel = (value: string) => (value === 'SOURCE' ? 'Source' : value === 'CUSTOM' ? 'Custom' : value.replace(/^R_/, ''));
