import { ffmpegLogLevelFor } from '../logs/ffmpeg-log-parser.ts';
import type { JobSpec } from '../types.ts';
import type { InputContext } from './context.ts';
import { planEncoding, planRelay, type MediaPlan } from './encode/plan.ts';
import { buildInput } from './inputs/index.ts';
import { buildSrtBridgeInput } from './inputs/uri.ts';
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
}

/** An SRT link of a job: an output by its index, or the primary or failover input. */
export type SrtBridgeKey = number | 'input' | 'failover';

const FFMPEG_LEVEL_NAMES = new Set(['quiet', 'panic', 'fatal', 'error', 'warning', 'info', 'verbose', 'debug', 'trace']);


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
 * One exception, forced by ffmpeg 5.1: when the video is stream-copied (a relay, relayVideo), RTMP
 * and MP4-based outputs (DASH, CMAF, HLS fMP4) follow the tee as outputs of their own, each with
 * the same maps (see outputs/direct.ts).
 */
export function buildFfmpegArgs(job: JobSpec, options: BuildOptions = {}): FfmpegCommand {
  const level = options.ffmpegLogLevel ?? ffmpegLogLevelFor(job.logLevel ?? 'INFO');
  if (!FFMPEG_LEVEL_NAMES.has(level)) fail(`Unknown ffmpeg log level "${level}"`);
  // Progress goes to fd 3, stdout stays free for TS, stderr carries level-tagged log lines.
  const prefix = ['-hide_banner', '-nostdin', '-nostats', '-loglevel', `repeat+level+${level}`, '-progress', 'pipe:3'];

  let input = job.input;
  if (options.useFailover) {
    if (!job.failover?.input) fail('This job has no failover input');
    input = job.failover.input;
  }
  const inputContext: InputContext = { videoType: job.videoType, ioTimeoutSeconds: ioTimeoutSeconds(job) };
  if (job.videoType !== 'LIVE' && job.videoType !== 'VOD') fail('Video type must be LIVE or VOD');
  const bridgedInputPort = options.srtBridges?.get(options.useFailover ? 'failover' : 'input');
  const main = bridgedInputPort === undefined ? buildInput(input, inputContext) : buildSrtBridgeInput(input, inputContext, bridgedInputPort);

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
  const teed = built.filter((b) => !direct.includes(b));

  // Containers that keep codec headers out of band (FLV, MP4) need them from the encoders: the tee
  // muxer cannot ask on their behalf. MPEG-TS outputs repeat them before each keyframe by themselves.
  const globalHeader: string[] = [];
  if (teed.some((b) => b.container !== 'mpegts')) {
    if (plan.encodesVideo) globalHeader.push('-flags:v', '+global_header');
    if (plan.encodesAudio) globalHeader.push('-flags:a', '+global_header');
  }

  const args = [
    ...prefix,
    ...plan.preInputArgs,
    ...main.args,
    ...plan.extraInputArgs,
    ...(plan.filterComplex ? ['-filter_complex', plan.filterComplex] : []),
  ];
  if (teed.length) {
    args.push(...plan.maps, ...plan.subtitleMaps, ...plan.streamArgs, ...plan.subtitleArgs, ...globalHeader, '-f', 'tee', formatTee(teed.map((b) => b.slave)));
  }
  for (const output of direct) {
    const copies = { video: plan.copiesVideo, audio: plan.copiesAudio };
    args.push(...plan.maps, ...plan.streamArgs, ...copiedStreamArgs(output, job, copies), ...directOutputArgs(output));
  }
  return {
    args,
    directories: [...new Set(built.flatMap((b) => b.directories))],
    usesStdout: built.some((b) => b.usesStdout),
  };
}
