import { z } from 'zod';
import { Timestamp } from './common.ts';
import { AdMarkers, checkOutputAdsAndDrm, Drm } from './output-ads-drm.ts';
import { isStoragePath, storagePathRule } from './storage-paths.ts';

/**
 * Relays and encodings ("jobs"), spec 01 §3 with the rules of §5. One schema serves both kinds:
 * the encoding-only fields are ignored for relays. Messages name the field and the rule.
 */

export const JOB_KINDS = ['relay', 'encoding'] as const;
export const JobKind = z.enum(JOB_KINDS).meta({ id: 'JobKind', description: 'relay: streams pass through; encoding: transcoded.' });

export const VideoType = z.enum(['LIVE', 'VOD']).meta({ id: 'VideoType', description: 'LIVE runs until stopped; VOD ends when its input ends.' });

export const INPUT_TYPES = ['uri', 'storage', 'playlist', 'dvb', 'dev', 'multiviewer'] as const;
export const InputType = z.enum(INPUT_TYPES).meta({ id: 'InputType', description: 'Where the job reads from.' });

export const OUTPUT_TYPES = ['udp', 'srt', 'tcp', 'rtmp', 'mpegts', 'playback', 'httplive', 'hls', 'dash', 'cmaf'] as const;
export const OutputType = z.enum(OUTPUT_TYPES).meta({
  id: 'OutputType',
  description: 'udp, srt, tcp, rtmp push or listen; mpegts: MPEG-TS over HTTP served by the product; hls, dash, cmaf: segmented HTTP; playback and httplive: served by their areas.',
});

export const LOG_LEVEL_NAMES = ['TRACE', 'DEBUG', 'VERBOSE', 'INFO', 'NOTICE', 'WARNING', 'ERROR', 'FATAL'] as const;
export const JobLogLevel = z.enum(LOG_LEVEL_NAMES).meta({ id: 'JobLogLevel', description: 'Minimum level written to the job log (placeholder NOTICE).' });

const ALLOWED_INPUT_SCHEMES = ['udp', 'rtp', 'srt', 'rtmp', 'rtmps', 'rtsp', 'http', 'https', 'file', 'rist'];
export const GLOB_PATTERN = /[*?[]/;

const uriText = z
  .string()
  .trim()
  .max(2000, 'must be at most 2000 characters')
  .refine((value) => !value.startsWith('-'), 'must not start with "-"')
  .refine((value) => !/[\r\n\0]/.test(value), 'must be on one line');

/** The port of `scheme://host:port...` (IPv6 hosts in brackets); undefined when it has none. */
function portOf(uri: string): number | undefined {
  const port = /^[a-z][a-z0-9+.-]*:\/\/(?:\[[^\]]*\]|[^/:?#]*)(?::([^/?#]*))?/i.exec(uri)?.[1];
  return port ? (/^\d{1,6}$/.test(port) ? Number(port) : Number.NaN) : undefined;
}

function schemeOf(uri: string): string | null {
  const match = /^([a-z][a-z0-9+.-]*):/i.exec(uri);
  return match ? match[1].toLowerCase() : null;
}

export const Input = z
  .object({
    type: InputType,
    uri: uriText.optional().describe('Source URL (udp, rtp, srt, rtmp, rtsp, http(s) incl. HLS, rist) or an absolute file path; required for type uri.'),
    tokenRequired: z.boolean().default(false).describe('Append the token to the URL as `token=...`.'),
    token: z.string().max(500).optional(),
    batchLogEnabled: z.boolean().default(false).describe('Batch job: the URL is a glob over files, each transcoded once (VOD only).'),
    program: z.number().int().min(0).max(65535).optional().describe('Program number to select in a multi-program transport stream.'),
    storageConfig: z.number().int().positive().optional().describe('Storage id for type storage.'),
    path: z.string().max(2000).optional().describe('Path inside the storage for type storage (relative, without "..").'),
    playlist: z.number().int().positive().optional().describe('Playlist id for type playlist.'),
    stream: z.number().int().positive().optional().describe('DVB stream id for type dvb.'),
    device: z.string().max(200).optional().describe('Capture device for type dev.'),
    displayMode: z.string().max(100).optional(),
    multiviewer: z.number().int().positive().optional().describe('Multiviewer id for type multiviewer.'),
    videoDecoder: z.string().max(50).regex(/^[a-z0-9_]+$/, 'must be an ffmpeg decoder name').optional(),
    hasTargetCachingUrl: z.boolean().default(false),
    targetCachingUrl: uriText.optional(),
  })
  .superRefine((input, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (input.type === 'uri') {
      if (!input.uri) issue('uri', 'Input uri is required');
      else {
        const scheme = schemeOf(input.uri);
        if (scheme && !ALLOWED_INPUT_SCHEMES.includes(scheme)) issue('uri', `scheme ${scheme}: is not allowed (use ${ALLOWED_INPUT_SCHEMES.join(', ')})`);
        if (!scheme && !input.uri.startsWith('/')) issue('uri', 'must be a URL or an absolute file path');
        if (input.batchLogEnabled && !GLOB_PATTERN.test(input.uri)) issue('uri', 'The URL must contain a glob pattern (*, **, ?, [abc]), e.g. prefix/**/*.mp4');
      }
      if (input.tokenRequired && !input.token) issue('token', 'Token is required when tokenRequired is on');
    }
    if (input.type === 'storage') {
      if (!input.storageConfig) issue('storageConfig', 'Storage is required');
      if (!input.path) issue('path', 'Path is required');
    }
    if (input.type === 'playlist' && !input.playlist) issue('playlist', 'Playlist is required');
    if (input.type === 'multiviewer' && !input.multiviewer) issue('multiviewer', 'Multiviewer is required');
    if (input.type === 'dvb' && !input.stream) issue('stream', 'Stream is required');
    if (input.type === 'dev' && !input.device) issue('device', 'Device is required');
    if (input.batchLogEnabled && input.type !== 'uri') issue('batchLogEnabled', 'Batch is only for a uri input');
  })
  .meta({ id: 'Input', description: 'A job input; the fields used depend on its type.' });

export const Failover = z
  .object({
    input: Input,
    timeout: z.number({ error: 'Failover timeout must be a number' }).int('Failover timeout must be a whole number').min(1, 'Failover timeout must be at least 1').max(3600).default(30).describe('Seconds without progress from the primary before switching (default 30).'),
  })
  .meta({ id: 'Failover', description: 'A second input used while the primary gives nothing.' });

const port = z.number({ error: 'Port must be a number' }).int('Port must be a whole number').min(1, 'Port must be between 1 and 65536').max(65536, 'Port must be between 1 and 65536');

export const SrtSecurity = z
  .object({
    keyType: z.enum(['AES_128', 'AES_192', 'AES_256']).default('AES_128').describe('pbkeylen 16, 24 or 32.'),
    passphrase: z.string().min(10, 'Passphrase must be 10 to 79 characters').max(79, 'Passphrase must be 10 to 79 characters'),
  })
  .meta({ id: 'SrtSecurity', description: 'SRT encryption.' });

export const HlsOptions = z
  .object({
    containerType: z.enum(['TS', 'FMP4']).default('TS'),
    programDateTime: z.boolean().default(false),
    muxAudioAndVideo: z.boolean().default(true),
  })
  .meta({ id: 'HlsOptions', description: 'HLS container and tags.' });

export const AdaptiveOptions = z
  .object({
    segmentDuration: z.number().int().min(1, 'Segment duration must be at least 1 second').max(60, 'Segment duration must be at most 60 seconds').default(6),
    trickPlayEnabled: z.boolean().default(false),
    lowLatencyEnabled: z.boolean().default(false),
  })
  .meta({ id: 'AdaptiveOptions', description: 'Segmented HTTP options.' });

export const DELIVERY_TYPES = ['LOCAL_STORAGE', 'AKAMAI_NET_STORAGE', 'AMAZON_S3', 'AWS_MEDIASTORE', 'STREAMPOOL', 'AKAMAI_MSLV3', 'AKAMAI_MSLV4', 'EDGIO_LIVE_PUSH', 'EDGIO_ORIGIN_STORAGE'] as const;

export const Delivery = z
  .object({
    deliveryType: z.enum(DELIVERY_TYPES),
    disabled: z.boolean().default(false),
    uri: z.string().max(2000).optional(),
    token: z.string().max(500).optional(),
    server: z.number().int().positive().optional(),
    streamPool: z.string().max(200).optional(),
    akamaiIngestPoint: z.string().max(500).optional(),
    mslv4Ias: z.string().max(500).optional(),
    edgioSlot: z.string().max(200).optional(),
    edgioUser: z.string().max(200).optional(),
    edgioPass: z.string().max(200).optional(),
    useEdgioBackupPublishUrl: z.boolean().default(false),
  })
  .superRefine((d, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (d.deliveryType === 'STREAMPOOL') {
      if (!d.server) issue('server', 'Stream pool needs a server');
      if (!d.streamPool) issue('streamPool', 'Stream pool needs a pool');
    }
    if ((d.deliveryType === 'AKAMAI_MSLV3' || d.deliveryType === 'AKAMAI_MSLV4') && !d.akamaiIngestPoint) issue('akamaiIngestPoint', 'Akamai needs an ingest point');
    if (d.deliveryType === 'EDGIO_LIVE_PUSH') {
      if (!d.edgioSlot) issue('edgioSlot', 'Live push needs a slot');
      if (!d.edgioUser) issue('edgioUser', 'Live push needs a user');
      if (!d.edgioPass) issue('edgioPass', 'Live push needs a password');
    }
  })
  .meta({ id: 'Delivery', description: 'Where a segmented output is pushed besides the product itself.' });

export const MpegTsProgram = z
  .object({
    number: z.number({ error: 'Program number is required' }).int().min(1, 'Program number must be at least 1').max(65535),
    name: z.string().max(100).optional(),
    profile: z.number().int().min(0).optional(),
    outputProfilePosition: z.number().int().min(0).optional(),
  })
  .meta({ id: 'MpegTsProgram', description: 'A program of a multi-program MPEG-TS output.' });

const SEGMENTED = ['hls', 'dash', 'cmaf'];

export const Output = z
  .object({
    position: z.number().int().min(0).optional().describe('Order of the output; assigned on save.'),
    type: OutputType,
    disabled: z.boolean().default(false),
    uri: uriText.optional().describe('Destination: udp://host:port, srt://host:port, tcp://host:port, rtmp://host/app/key; for hls/dash/cmaf the stream location (a name under the product\'s streams, e.g. live/channel1).'),
    port: port.optional().describe('Listening port for srt/tcp listener outputs.'),
    rtpPayloadEnabled: z.boolean().default(false).describe('UDP: wrap MPEG-TS in RTP.'),
    auth: z.object({ enabled: z.boolean().default(false), username: z.string().max(200).optional(), password: z.string().max(200).optional() }).optional().describe('RTMP credentials.'),
    srtMode: z.enum(['caller', 'listener']).default('caller').describe('SRT: connect to the peer (caller) or wait for it (listener).'),
    srtLatencyMs: z.number().int().min(0, 'Latency must be at least 0').max(60000).optional(),
    srtStreamId: z.string().max(512).optional().describe('SRT caller: the stream id sent to the listener. A listener has none (spec 01 §5: stream id hidden in listener mode).'),
    secured: SrtSecurity.optional(),
    mpegTsPrograms: z.array(MpegTsProgram).max(32).default([]),
    hlsOptions: HlsOptions.optional(),
    adaptiveOptions: AdaptiveOptions.optional(),
    encryption: z.boolean().default(false).describe('HLS AES-128 encryption with keys served by the product.'),
    drmEnabled: z.boolean().default(false).describe('Protect the output with DRM (then `drm` is required).'),
    drm: Drm.optional(),
    adMarkersEnabled: z.boolean().default(false).describe('Write ad markers into the output (then `adMarkers` is required); the list shows AD.'),
    adMarkers: AdMarkers.optional(),
    pushBaseUrl: z.string().max(2000).optional().describe('Base URL for pushing to another location; must differ from the stream location.'),
    deliveryOptions: z.array(Delivery).max(16).default([]),
  })
  .superRefine((o, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (['udp', 'tcp', 'rtmp'].includes(o.type) && !o.uri) issue('uri', `An ${o.type} output needs a destination`);
    if (o.type === 'srt' && o.srtMode === 'caller' && !o.uri) issue('uri', 'An SRT caller needs a host');
    if (o.type === 'srt' && o.srtMode === 'listener' && !o.port && !o.uri) issue('port', 'An SRT listener needs a port');
    if (SEGMENTED.includes(o.type) && !o.uri) issue('uri', 'The stream location is required');
    if (o.auth?.enabled && (!o.auth.username || !o.auth.password)) issue('auth', 'RTMP credentials are required when auth is on');
    if (o.pushBaseUrl && o.uri && o.pushBaseUrl.replace(/\/+$/, '') === o.uri.replace(/\/+$/, '')) issue('pushBaseUrl', 'Base URL should be different from stream location');
    if (o.encryption && o.type !== 'hls' && o.type !== 'cmaf') issue('encryption', 'Encryption is available for HLS and CMAF outputs');
    for (const [scheme, type] of [['udp', 'udp'], ['srt', 'srt'], ['tcp', 'tcp'], ['rtmp', 'rtmp']] as const) {
      if (o.type === type && o.uri && schemeOf(o.uri) !== scheme && !(type === 'rtmp' && schemeOf(o.uri) === 'rtmps')) issue('uri', `must start with ${scheme}://`);
    }
    // UDP, TCP and SRT destinations are host:port (spec 01 §5: port 1–65536).
    if ((o.type === 'udp' || o.type === 'tcp' || (o.type === 'srt' && !o.port)) && o.uri && schemeOf(o.uri) === o.type) {
      const found = portOf(o.uri);
      if (found === undefined) issue('uri', 'Port is required (host:port)');
      else if (!(found >= 1 && found <= 65536)) issue('uri', 'Port must be between 1 and 65536');
    }
  })
  .meta({ id: 'Output', description: 'A job output.' });

export const Profile = z
  .object({
    width: z.number().int().min(0, 'Width must be at least 0').max(7680),
    height: z.number().int().min(0, 'Height must be at least 0').max(4320),
    resolution: z.string().max(20).optional(),
    videoBitrate: z.number().int().min(1, 'Video bitrate must be between 1 and 999999').max(999999, 'Video bitrate must be between 1 and 999999'),
    audioBitrate: z.number().int().min(1, 'Audio bitrate must be between 1 and 999999').max(999999, 'Audio bitrate must be between 1 and 999999'),
    main: z.boolean().default(false),
    skipEncryption: z.boolean().default(false),
  })
  .meta({ id: 'Profile', description: 'One rung of an adaptive (ABR) ladder.' });

export const SUBTITLE_TYPES = ['URL', 'DVB', 'FILE', 'CLOSED_CAPTIONS'] as const;
export const Subtitle = z
  .object({
    id: z.number().int().optional(),
    type: z.enum(SUBTITLE_TYPES),
    url: uriText.optional(),
    fileName: z.string().max(500).optional().describe('A .srt, .vtt or .stl file: a path inside the storage root (relative, without "..").'),
    streamInfo: z.string().max(200).optional(),
    description: z.string().max(200).optional(),
    language: z.string().max(20).optional(),
    default: z.boolean().default(false),
    token: z.string().max(500).optional(),
  })
  .superRefine((s, ctx) => {
    if (s.type === 'URL' && !s.url) ctx.addIssue({ code: 'custom', path: ['url'], message: 'A URL subtitle needs a value' });
    if (s.type === 'FILE' && !s.fileName) ctx.addIssue({ code: 'custom', path: ['fileName'], message: 'A subtitle file is required' });
    if (s.type === 'FILE' && s.fileName && !/\.(srt|vtt|stl)$/i.test(s.fileName)) ctx.addIssue({ code: 'custom', path: ['fileName'], message: 'Accepted subtitle file types: .srt, .vtt, .stl' });
  })
  .meta({ id: 'Subtitle', description: 'A subtitle track.' });

export const AudioTrack = z
  .object({
    source: z.union([z.enum(['AUTO', 'ALL']), z.number().int().min(0)]).default('AUTO'),
    audioPreset: z.number().int().positive().optional(),
    codec: z.string().max(50).optional(),
    bitrate: z.number().int().min(1, 'Audio bitrate must be between 1 and 999999').max(999999, 'Audio bitrate must be between 1 and 999999').optional(),
    channelCount: z.number().int().min(1).max(16).optional(),
  })
  .meta({ id: 'AudioTrack', description: 'An audio track of an encoding.' });

export const AudioSetting = z
  .object({
    audioDisabled: z.boolean().default(false),
    normalizationEnabled: z.boolean().default(false),
    volume: z.number().min(0, 'Volume must be between 0 and 10').max(10, 'Volume must be between 0 and 10').multipleOf(0.1, 'Volume goes in steps of 0.1').default(1),
    tracks: z.array(AudioTrack).max(16).default([{ source: 'AUTO' }]),
  })
  .meta({ id: 'AudioSetting', description: 'Audio of an encoding.' });

export const Feature = z
  .object({ name: z.string().max(100), status: z.boolean().default(true), value: z.string().max(1000).optional(), global: z.boolean().default(false) })
  .meta({ id: 'JobFeature', description: 'An admin-only feature switch of a job.' });

export const VIDEO_RESOLUTIONS = ['SOURCE', 'R_3840x2160', 'R_1920x1080', 'R_1280x720', 'R_1024x576', 'R_854x480', 'R_720x576', 'R_640x360', 'R_426x240', 'CUSTOM'] as const;
export const DEINTERLACE_MODES = ['DISABLED', 'ENABLED', 'AUTO'] as const;
export const DEINTERLACE_METHODS = ['YADIF_FFMPEG', 'YADIF_ADAPTIVE_FFMPEG', 'BWDIF_FFMPEG', 'W3FDIF_FFMPEG'] as const;

/** What an operator edits: everything of the entity but its id, status and bookkeeping. */
const jobFields = {
  name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(100, 'Name must be at most 100 characters'),
  videoType: VideoType.default('LIVE'),
  node: z.number().int().positive().nullable().default(null).describe('Node to run on; null = auto (placed by load).'),
  input: Input,
  failover: Failover.nullable().default(null),
  outputs: z.array(Output).max(32, 'At most 32 outputs').default([]),
  subtitles: z.array(Subtitle).max(16).default([]),
  restartAttempts: z.number({ error: 'Restart attempts must be a number' }).int().min(0, 'Restart attempts must be at least 0').max(1000).default(10),
  lipSyncRestart: z.boolean().default(false).describe('Smart restart: restart when audio and video drift apart.'),
  noVideo: z.boolean().default(false),
  noSound: z.boolean().default(false),
  logLevel: JobLogLevel.default('NOTICE'),
  logTarget: z.enum(['FILE', 'NONE']).default('FILE'),
  logMaxSizeInMegaBytes: z.number().int().min(1, 'Log max size must be at least 1 MB').max(10240).default(10),
  statistics: z.boolean().default(false),
  statisticsDays: z.number().int().min(1, 'Statistics days must be between 1 and 30').max(30, 'Statistics days must be between 1 and 30').default(7),
  alarmed: z.boolean().default(false),
  features: z.array(Feature).max(50).default([]),
  // Encoding-only
  relayVideo: z.boolean().default(false).describe('Encoding: pass the video through untouched.'),
  preset: z.number().int().positive().nullable().default(null).describe('Encoding: the video preset id.'),
  videoResolution: z.enum(VIDEO_RESOLUTIONS).default('SOURCE'),
  width: z.number().int().min(0, 'Custom width must be at least 0').max(7680).optional(),
  height: z.number().int().min(0, 'Custom height must be at least 0').max(4320).optional(),
  aspectRatio: z.string().regex(/^\d{1,2}:\d{1,2}$/, 'Aspect ratio looks like 16:9').nullable().default(null),
  framerate: z.number().min(1).max(120).nullable().default(null),
  keyInt: z.number().int().min(1).max(1000).nullable().default(null),
  deinterlaceMode: z.enum(DEINTERLACE_MODES).default('DISABLED'),
  deinterlaceMethod: z.enum(DEINTERLACE_METHODS).default('YADIF_FFMPEG'),
  deinterlaceField: z.enum(['AUTO', 'TOP', 'BOTTOM']).default('AUTO'),
  adaptive: z.boolean().default(false),
  countOfProfiles: z.number().int().min(2, 'Adaptive profiles must be 2 to 9').max(9, 'Adaptive profiles must be 2 to 9').default(3),
  profiles: z.array(Profile).max(9).default([]),
  replaceVideo: z.boolean().default(false),
  replaceVideoFile: z.string().max(2000).optional().describe('Shown in place of the source\'s video: a path inside the storage root (relative, without "..").'),
  replaceAudio: z.boolean().default(false),
  replaceAudioFile: z.string().max(2000).optional().describe('Heard in place of the source\'s sound: a path inside the storage root (relative, without "..").'),
  delayTime: z.number().min(0, 'Delay time must be at least 0').max(3600).default(0),
  watermark: z.number().int().positive().nullable().default(null),
  audioSetting: AudioSetting.default({ audioDisabled: false, normalizationEnabled: false, volume: 1, tracks: [{ source: 'AUTO' }] }),
  muxAudioAndVideo: z.boolean().default(false),
};

type JobFieldsShape = typeof jobFields;
type JobFields = z.infer<z.ZodObject<JobFieldsShape>>;

export const SRT_LISTENER_STREAM_ID = 'Stream id is only for caller mode (hidden in listener mode)';

/** The query of an `srt://` URL as parameters; none for another scheme. */
function srtParams(uri: string | undefined): URLSearchParams | undefined {
  if (!uri || schemeOf(uri) !== 'srt') return undefined;
  const query = /\?([^#]*)/.exec(uri)?.[1];
  return new URLSearchParams(query ?? '');
}

/** An SRT input given as a URL listens with `mode=listener`; a stream id is the caller's to send (spec 01 §5 SRT link). */
function checkSrtInput(input: z.infer<typeof Input>, path: (string | number)[], issue: (path: (string | number)[], message: string) => void): void {
  const params = srtParams(input.type === 'uri' ? input.uri : undefined);
  if (params?.get('mode')?.toLowerCase() === 'listener' && params.has('streamid')) issue([...path, 'uri'], SRT_LISTENER_STREAM_ID);
}

/** The files a job names (a storage input's path, subtitle files, replacement files) stay inside their storage root. */
function checkStoragePaths(job: Pick<JobFields, 'input' | 'failover' | 'subtitles' | 'replaceVideoFile' | 'replaceAudioFile'>, issue: (path: (string | number)[], message: string) => void): void {
  const check = (value: string | undefined, path: (string | number)[], label: string) => {
    if (value !== undefined && value !== '' && !isStoragePath(value)) issue(path, storagePathRule(label));
  };
  if (job.input.type === 'storage') check(job.input.path, ['input', 'path'], 'Path');
  if (job.failover?.input.type === 'storage') check(job.failover.input.path, ['failover', 'input', 'path'], 'Path');
  job.subtitles.forEach((s, i) => {
    if (s.type === 'FILE') check(s.fileName, ['subtitles', i, 'fileName'], 'Subtitle file');
  });
  check(job.replaceVideoFile, ['replaceVideoFile'], 'Replacement video file');
  check(job.replaceAudioFile, ['replaceAudioFile'], 'Replacement audio file');
}

/** The cross-field rules of spec 01 §5. */
export function checkJobRules(job: Omit<JobFields, 'alarmed'> & { alarmed?: boolean }, kind: 'relay' | 'encoding', ctx: z.RefinementCtx): void {
  const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
  checkSrtInput(job.input, ['input'], issue);
  if (job.failover) checkSrtInput(job.failover.input, ['failover', 'input'], issue);
  checkStoragePaths(job, issue);
  if (job.input.batchLogEnabled && job.videoType !== 'VOD') issue(['input', 'batchLogEnabled'], 'Batch is only for VOD jobs');
  if (job.input.batchLogEnabled && job.input.program !== undefined) issue(['input', 'program'], 'Program selection is not available for batch jobs');
  if (job.outputs.filter((o) => !o.disabled).length === 0 && job.outputs.length > 0) issue(['outputs'], 'At least one output must be enabled');
  if (kind === 'encoding') {
    if (job.subtitles.length > 0 && job.muxAudioAndVideo) issue(['subtitles'], 'Subtitles are not available with Mux audio and video ON.');
    if (job.subtitles.filter((s) => s.default).length > 1) issue(['subtitles'], 'Only one subtitle may be the default');
    if (job.videoType !== 'VOD' && job.subtitles.some((s) => s.type === 'FILE' || s.type === 'URL')) issue(['subtitles'], 'Subtitle upload and URL are offered only for VOD');
    if (job.muxAudioAndVideo && job.outputs.some((o) => o.drmEnabled)) issue(['outputs'], 'DRM is unavailable with muxed audio and video');
    if (job.videoResolution === 'CUSTOM' && !job.width) issue(['width'], 'Custom width is required for a CUSTOM resolution');
    if (job.videoResolution === 'CUSTOM' && !job.height) issue(['height'], 'Custom height is required for a CUSTOM resolution');
    if (!job.relayVideo && !job.noVideo && !job.preset) issue(['preset'], 'Preset is required');
    if (job.adaptive) {
      if (job.profiles.length !== job.countOfProfiles) issue(['profiles'], `Adaptive needs ${job.countOfProfiles} profiles, ${job.profiles.length} given`);
      if (job.relayVideo) issue(['adaptive'], 'Adaptive profiles need the video to be encoded, not passed through');
    }
    const tracks = job.audioSetting.tracks;
    if (tracks.length === 0 && !job.noSound && !job.audioSetting.audioDisabled) issue(['audioSetting', 'tracks'], 'At least one audio track is required');
    if (tracks.length > 1 && tracks.some((t) => t.source === 'AUTO' || t.source === 'ALL')) issue(['audioSetting', 'tracks'], 'More audio tracks cannot be added when the source is AUTO or ALL');
    if (tracks.length > 1 && job.muxAudioAndVideo) issue(['audioSetting', 'tracks'], 'More audio tracks cannot be added while muxing audio and video');
    if (job.replaceVideo && !job.replaceVideoFile) issue(['replaceVideoFile'], 'A replacement video file is required');
    if (job.replaceAudio && !job.replaceAudioFile) issue(['replaceAudioFile'], 'A replacement audio file is required');
    if (job.watermark && job.relayVideo) issue(['watermark'], 'A watermark needs the video to be encoded, not passed through');
  }
  job.outputs.forEach((o, i) => {
    checkOutputAdsAndDrm(o, ['outputs', i], issue);
    if (o.type === 'srt' && o.srtMode === 'listener') {
      if (o.srtStreamId) issue(['outputs', i, 'srtStreamId'], SRT_LISTENER_STREAM_ID);
      else if (srtParams(o.uri)?.has('streamid')) issue(['outputs', i, 'uri'], SRT_LISTENER_STREAM_ID);
    }
    if (o.mpegTsPrograms.length > Math.max(1, job.adaptive ? job.profiles.length : 1)) issue(['outputs', i, 'mpegTsPrograms'], 'A new program can be added only while programs are fewer than profiles');
    if (job.input.batchLogEnabled && SEGMENTED.includes(o.type) && o.uri && !/\{SRC_(SUB_DIR|FILE_TITLE|FILE_EXT)\}/.test(o.uri)) {
      issue(['outputs', i, 'uri'], 'Playback URLs must contain at least one of {SRC_SUB_DIR}, {SRC_FILE_TITLE}, {SRC_FILE_EXT}');
    }
  });
}

export const JobInput = z.object(jobFields);
export type JobInputValue = z.infer<typeof JobInput>;

export const JobComment = z
  .object({ id: z.number().int(), type: z.enum(['NOTICE', 'WARNING', 'CRITICAL']), comment: z.string(), createdAt: Timestamp, createdBy: z.string().nullable() })
  .meta({ id: 'JobComment', description: 'A note on a job.' });

export const SrtStats = z
  .object({
    packets: z.number(),
    bytes: z.number(),
    packetsLost: z.number(),
    packetsRetransmitted: z.number(),
    bytesRetransmitted: z.number(),
    packetsDropped: z.number(),
    bytesDropped: z.number(),
    bandwidthMbps: z.number(),
    rateMbps: z.number(),
    negotiatedLatencyMs: z.number(),
    rttMs: z.number(),
    connections: z.number(),
  })
  .meta({ id: 'SrtStats', description: 'SRT link statistics.' });

export const JOB_STATES = ['starting', 'running', 'restarting', 'stopping', 'stopped', 'failed'] as const;

export const JobStatus = z
  .object({
    on: z.boolean().describe('The desired state: the switch.'),
    state: z.enum(JOB_STATES).describe('The observed state of the process.'),
    workStatus: z.string().describe('Streaming, Waiting, Failed, Stopped ... ("Streaming" is shown as "Transcoding" for encodings).'),
    reason: z.string().nullable().describe('The named reason of the last exit (input_unreachable, hang, ...).'),
    reasonDetail: z.string().nullable(),
    restarts: z.number().int(),
    cpu: z.number().describe('CPU % of the process tree (of one core).'),
    rss: z.number().describe('Resident memory of the process tree, bytes.'),
    uptimeSeconds: z.number().nullable(),
    secondsSinceLastStart: z.number().nullable(),
    startedAt: Timestamp.nullable(),
    lastResetAt: Timestamp.nullable(),
    executionNode: z.string().nullable(),
    activeInput: z.enum(['primary', 'failover']).nullable(),
    inputs: z.array(z.object({ bps: z.number().nullable().describe('Bits per second as the node measures them; null: not measured.'), srtStat: SrtStats.nullable() })),
    outputs: z.array(
      z.object({ position: z.number().int(), bps: z.number().nullable().describe('Bits per second as the node measures them; null: not measured.'), srtStat: SrtStats.nullable() }),
    ),
  })
  .meta({ id: 'JobStatus', description: 'What the node observes of a job.' });
