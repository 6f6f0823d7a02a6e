import { ffmpegLogLevelFor } from '../logs/ffmpeg-log-parser.ts';
import type { JobSpec } from '../types.ts';
import type { InputContext } from './context.ts';
import { planEncoding, planRelay, type MediaPlan } from './encode/plan.ts';
import { buildInput } from './inputs/index.ts';
import { buildSrtBridgeInput, isLiveTransport, LIVE_PROBE_SECONDS } from './inputs/uri.ts';
import { copiedStreamArgs, directOutputArgs } from './outputs/direct.ts';
import { buildOutput, SEGMENTED_OUTPUT_TYPES, TS_OUTPUT_TYPES, type BuiltOutput } from './outputs/index.ts';
import { buildSrtBridgeOutput } from './outputs/srt.ts';
import { formatTee } from './tee.ts';
import { assertNumberRange, fail } from './validate.ts';

export interface FfmpegCommand {
  args: string[];
  /** Output directories to create before start. */
  directories: string[];
  /** An MPEG-TS output writes TS to stdout. */
  usesStdout: boolean;
  /** How each enabled output leaves ffmpeg: as a slave of the tee muxer, or as an output file of its own. */
  outputs: Array<{ index: number; via: 'tee' | 'direct'; format: string; url: string }>;
  /**
   * The output whose bytes ffmpeg's progress `total_size` counts: ffmpeg reports the bytes of its
   * first output file, known only for a muxer that writes through ffmpeg's own I/O (not tee, HLS or
   * DASH, which write their own files). Undefined when no output is counted that way.
   */
  progressOutput?: number;
  /** Probing of a live MPEG-TS input: for how long, and whether a longer step is left (LIVE_PROBE_SECONDS). */
  probe?: { seconds: number; longerLeft: boolean };
}

export interface BuildOptions {
  /** Run from the failover input instead of the primary. */
  useFailover?: boolean;
  /** ffmpeg's own -loglevel name; derived from the job's log level when absent. */
  ffmpegLogLevel?: string;
  /**
   * SRT links carried by srt-live-transmit beside ffmpeg (engine/srt): link → loopback UDP port.
   * An SRT output whose index is here becomes a UDP slave to `127.0.0.1:<port>` (the companion
   * sends it over SRT); the SRT input (`input`, or `failover` with useFailover) becomes a UDP input
   * on `127.0.0.1:<port>` (the companion receives SRT and forwards it). The SRT values are checked
   * all the same. Links not in the map, and every link without the option, go through libsrt.
   */
  srtBridges?: ReadonlyMap<SrtBridgeKey, number>;
  /**
   * Steps of LIVE_PROBE_SECONDS above the command's first choice: a process that ended because its
   * probe found too little is started again one step up (engine/job-runner.ts). Default 0.
   */
  probeRetries?: number;
}

/** An SRT link of a job: an output by its index, or the primary or failover input. */
export type SrtBridgeKey = number | 'input' | 'failover';

const FFMPEG_LEVEL_NAMES = new Set(['quiet', 'panic', 'fatal', 'error', 'warning', 'info', 'verbose', 'debug', 'trace']);


/**
 * How often ffmpeg writes a progress block (its first comes at once). Progress is what the stale
 * clock and the failover switch watch, and reading it is most of what a running job costs the
 * control plane: every 2 s for a live job (its stale timeout is 15 s), every second for a VOD
 * (its progress is shown), and four times within a failover switch timeout under 8 s (never under
 * 0.25 s), so a switch is never decided between two blocks of a healthy primary.
 */
export function progressPeriodSeconds(job: JobSpec): number {
  const period = job.videoType === 'LIVE' ? 2 : 1;
  const switchSeconds = job.failover?.switchTimeoutSeconds;
  if (switchSeconds === undefined || !Number.isFinite(switchSeconds)) return period;
  return Math.min(period, Math.max(0.25, switchSeconds / 4));
}

/** Network reads give up after this long without data: the job's stale timeout, within 5 s to 60 s. */
export function ioTimeoutSeconds(job: JobSpec): number {
  const stale = Number.isFinite(job.staleTimeoutSeconds) && job.staleTimeoutSeconds > 0 ? job.staleTimeoutSeconds : 10;
  return Math.min(60, Math.max(5, stale));
}

/**
 * A resolved job → ffmpeg's argv. Pure: it reads nothing and starts nothing, and every value is
 * its own argv entry (nothing goes through a shell).
 *
 * Shape: `<fixed prefix> [hw device] <main input> [extra inputs] [-filter_complex] -map ... <stream
 * options> -f tee <outputs>`. Every output is a slave of ONE tee muxer, so the streams are encoded
 * once whatever the number of outputs; each slave picks its streams (`select`), a failing slave is
 * dropped while the others go on (`onfail=ignore`), and network slaves of a shared process (and
 * every listener) get a queue of their own (`use_fifo`) so a slow or absent receiver stalls nothing.
 *
 * Exceptions:
 * - A job with ONE output that needs nothing of tee (no stream subset, no queue of its own, not HLS
 *   or DASH) writes it as its only output file: tee's gifts (a failing output dropped alone, a queue
 *   per output) matter only beside other outputs, and without tee ffmpeg counts the output's bytes
 *   (`total_size`: its bitrate) and an MPEG-TS muxer takes video whose size the probe has not seen
 *   yet (the tee muxer refuses it: "dimensions not set"), so the input is probed for less time.
 * - Forced by ffmpeg 5.1: when the video is stream-copied (a relay, relayVideo), RTMP and MP4-based
 *   outputs (DASH, CMAF, HLS fMP4) follow the tee as outputs of their own, each with the same maps
 *   (see outputs/direct.ts).
 *
 * Probing (inputs/uri.ts LIVE_PROBE_SECONDS): copied video that reaches the tee muxer, FLV or MP4
 * needs its size found while probing (1 s first); anything else starts at the shortest step.
 */
export function buildFfmpegArgs(job: JobSpec, options: BuildOptions = {}): FfmpegCommand {
  const level = options.ffmpegLogLevel ?? ffmpegLogLevelFor(job.logLevel ?? 'INFO');
  if (!FFMPEG_LEVEL_NAMES.has(level)) fail(`Unknown ffmpeg log level "${level}"`);
  // Progress goes to fd 3 (every progressPeriodSeconds), stdout stays free for TS, stderr carries level-tagged log lines.
  const prefix = ['-hide_banner', '-nostdin', '-nostats', '-loglevel', `repeat+level+${level}`, '-progress', 'pipe:3', '-stats_period', String(progressPeriodSeconds(job))];

  let input = job.input;
  if (options.useFailover) {
    if (!job.failover?.input) fail('This job has no failover input');
    input = job.failover.input;
  }
  const inputContext: InputContext = { videoType: job.videoType, ioTimeoutSeconds: ioTimeoutSeconds(job) };
  if (job.videoType !== 'LIVE' && job.videoType !== 'VOD') fail('Video type must be LIVE or VOD');
  const bridgedInputPort = options.srtBridges?.get(options.useFailover ? 'failover' : 'input');
  const buildMain = (context: InputContext) =>
    bridgedInputPort === undefined ? buildInput(input, context) : buildSrtBridgeInput(input, context, bridgedInputPort);
  let main = buildMain(inputContext);

  const outputs = (job.outputs ?? []).filter((output) => !output.disabled);
  if (outputs.length === 0) fail('The job has no enabled output');
  if (outputs.filter((o) => o.type === 'mpegts').length > 1) fail('A job can serve one HTTP MPEG-TS output (it is fanned out to every client)');
  const segmented = outputs.filter((o): o is Extract<typeof o, { segmentDurationSeconds: number }> => SEGMENTED_OUTPUT_TYPES.has(o.type));
  const segmentSeconds = segmented.length
    ? Math.min(...segmented.map((o) => assertNumberRange(o.segmentDurationSeconds, 0.5, 60, `Output ${o.index + 1} segment duration (seconds)`)))
    : undefined;

  const planContext = {
    main,
    input: inputContext,
    segmentSeconds,
    hasHls: outputs.some((o) => o.type === 'hls'),
    hasTransportStream: outputs.some((o) => TS_OUTPUT_TYPES.has(o.type)),
  };
  const plan: MediaPlan = job.encoding ? planEncoding(job, planContext) : planRelay(job, planContext);

  const videoCodec = job.encoding && plan.encodesVideo && typeof job.encoding.video === 'object' && job.encoding.video ? job.encoding.video.codec : undefined;
  const built: BuiltOutput[] = outputs.map((output) => {
    const context = { layout: plan.layout, videoType: job.videoType, shared: outputs.length > 1, videoCodec };
    const bridgePort = output.type === 'srt' ? options.srtBridges?.get(output.index) : undefined;
    return output.type === 'srt' && bridgePort !== undefined ? buildSrtBridgeOutput(output, context, bridgePort) : buildOutput(output, context);
  });

  // Stream-copied video or audio cannot reach FLV/MP4 through tee (see outputs/direct.ts): those
  // outputs become outputs of their own. With encoded video that would mean encoding it again per
  // output, so copied audio next to encoded video must be encoded for them instead.
  const copied = plan.copiesVideo || plan.copiesAudio;
  if (copied && plan.encodesVideo && built.some((b) => b.container !== 'mpegts')) {
    fail('Copied audio cannot go to RTMP, DASH, CMAF or HLS fMP4 outputs when the video is encoded; encode the audio (e.g. aac)');
  }
  const direct = copied && !plan.encodesVideo ? built.filter((b) => b.container !== 'mpegts') : [];
  if (plan.layout.webvtt && direct.some((b) => b.slave.options.some(([key, value]) => key === 'f' && value === 'hls'))) {
    fail('Subtitles in HLS with copied video need TS segments (container type TS)');
  }
  let teed = built.filter((b) => !direct.includes(b));
  // One output that needs nothing of tee is written as the only output file (see above).
  const alone = built.length === 1 && direct.length === 0 && standsAlone(built[0]);
  if (alone) teed = [];

  // Copied video of unknown size is refused by the tee muxer and by FLV and MP4: probe until it is known.
  const needsVideoSize = plan.copiesVideo && (teed.length > 0 || direct.some((b) => b.container !== 'mpegts'));
  const live = input.type === 'uri' && /^([a-z]+):/i.test(input.uri) && isLiveTransport(input.uri.split(':')[0]);
  let probe: FfmpegCommand['probe'];
  if (live) {
    const last = LIVE_PROBE_SECONDS.length - 1;
    const step = Math.min(last, (needsVideoSize ? 1 : 0) + Math.max(0, Math.floor(options.probeRetries ?? 0)));
    probe = { seconds: LIVE_PROBE_SECONDS[step], longerLeft: step < last };
    main = buildMain({ ...inputContext, probeSeconds: probe.seconds });
  }

  // Containers that keep codec headers out of band (FLV, MP4) need them from the encoders: the tee
  // muxer cannot ask on their behalf. MPEG-TS outputs repeat them before each keyframe by themselves.
  const globalHeader: string[] = [];
  if (teed.some((b) => b.container !== 'mpegts')) {
    if (plan.encodesVideo) globalHeader.push('-flags:v', '+global_header');
    if (plan.encodesAudio) globalHeader.push('-flags:a', '+global_header');
  }

  // A relay whose every output is an MPEG-TS stream forwards from the first packet after probing,
  // as a TS relay does (a receiver joining mid-GOP waits for the keyframe itself, as it does when
  // it joins a multicast group): ffmpeg's copy would otherwise hold the output until a keyframe.
  // Segmented and FLV/MP4 outputs still begin at one: their first segment or tag must be decodable.
  const forwardsAtOnce = plan.copiesVideo && !plan.encodesVideo && outputs.every((o) => TS_OUTPUT_TYPES.has(o.type));
  const streamArgs = forwardsAtOnce ? [...plan.streamArgs, '-copyinkf'] : plan.streamArgs;

  const args = [
    ...prefix,
    ...plan.preInputArgs,
    ...main.args,
    ...plan.extraInputArgs,
    ...(plan.filterComplex ? ['-filter_complex', plan.filterComplex] : []),
  ];
  if (teed.length) {
    args.push(...plan.maps, ...plan.subtitleMaps, ...streamArgs, ...plan.subtitleArgs, ...globalHeader, '-f', 'tee', formatTee(teed.map((b) => b.slave)));
  }
  if (alone) args.push(...plan.maps, ...plan.subtitleMaps, ...streamArgs, ...plan.subtitleArgs, ...directOutputArgs(built[0]));
  for (const output of direct) {
    const copies = { video: plan.copiesVideo, audio: plan.copiesAudio };
    args.push(...plan.maps, ...plan.streamArgs, ...copiedStreamArgs(output, job, copies), ...directOutputArgs(output));
  }
  const firstFile = teed.length ? undefined : alone ? built[0] : direct[0];
  const format = (b: BuiltOutput) => b.slave.options.find(([key]) => key === 'f')?.[1] ?? '';
  return {
    args,
    directories: [...new Set(built.flatMap((b) => b.directories))],
    usesStdout: built.some((b) => b.usesStdout),
    outputs: built.map((b, i) => ({ index: outputs[i].index, via: teed.includes(b) ? ('tee' as const) : ('direct' as const), format: format(b), url: b.slave.url })),
    progressOutput: firstFile && !SELF_WRITING_MUXERS.has(format(firstFile)) ? outputs[built.indexOf(firstFile)].index : undefined,
    ...(probe ? { probe } : {}),
  };
}

/** Muxers that write their own files (ffmpeg counts no bytes for them). */
const SELF_WRITING_MUXERS = new Set(['tee', 'hls', 'dash']);

/** Slave options an output written on its own may have: tee's, and muxer options ffmpeg takes as output options. */
const ALONE_OPTIONS = new Set(['f', 'onfail', 'flvflags']);

/**
 * An output that can be a command's only output file instead of a tee slave: it takes every stream
 * (no `select`), needs no queue of its own (`use_fifo`: a listener waiting for its caller), has no
 * protocol options (libsrt's mode, passphrase ...: as output options ffmpeg could hand a name like
 * `mode` to an encoder instead), and is not HLS or DASH (they write their own files: nothing to gain).
 */
function standsAlone(output: BuiltOutput): boolean {
  const format = output.slave.options.find(([key]) => key === 'f')?.[1] ?? '';
  return output.slave.options.every(([key]) => ALONE_OPTIONS.has(key)) && !SELF_WRITING_MUXERS.has(format);
}
