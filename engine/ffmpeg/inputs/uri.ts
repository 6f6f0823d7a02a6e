import type { InputSpec } from '../../types.ts';
import { type BuiltInput, type InputContext, MICROSECONDS } from '../context.ts';
import { assertAbsolutePath, assertIntegerRange, assertName, fail, formatUrl, parseUrl, withQueryDefaults, type ParsedUrl } from '../validate.ts';

export const INPUT_SCHEMES = ['udp', 'rtp', 'srt', 'rist', 'tcp', 'rtmp', 'rtmps', 'rtsp', 'rtsps', 'http', 'https', 'file'] as const;

/** Live MPEG-TS transports: probed for a bounded time (see LIVE_PROBE_SECONDS). */
const LIVE_TRANSPORTS = new Set(['udp', 'rtp', 'srt', 'rist', 'tcp']);

/** Does this input read a live MPEG-TS transport (probed by LIVE_PROBE_SECONDS)? */
export function isLiveTransport(scheme: string): boolean {
  return LIVE_TRANSPORTS.has(scheme.toLowerCase());
}

/** Schemes whose URL carries the access token as `token=<value>`. */
const TOKEN_SCHEMES = new Set(['http', 'https', 'rtmp', 'rtmps', 'rtsp', 'rtsps']);

/** UDP receive queue: ffmpeg's fifo_size counts 188-byte packets, 65536 of them is about 12 MB (several seconds of a high bitrate stream). */
export const UDP_FIFO_PACKETS = 65_536;
export const UDP_SOCKET_BUFFER_BYTES = 8 * 1024 * 1024;

type UriInput = Extract<InputSpec, { type: 'uri' }>;

/** A local file (absolute path or file:// URL), read through ffmpeg's file protocol so a `:` in its name is never taken for a protocol. */
export function fileInputArgs(filePath: string, ctx: InputContext, what: string): string[] {
  const absolute = assertAbsolutePath(filePath, what);
  // A LIVE job plays a file at its native rate, like a live source; it is not looped implicitly.
  return [...(ctx.videoType === 'LIVE' ? ['-re'] : []), '-i', `file:${absolute}`];
}

function withToken(url: ParsedUrl, token: string): ParsedUrl {
  const rest = (url.query ?? '').split('&').filter((pair) => pair !== '' && pair.split('=')[0] !== 'token');
  return { ...url, query: [...rest, `token=${encodeURIComponent(token)}`].join('&') };
}

/**
 * Probing of a live MPEG-TS transport (udp, rtp, srt, rist, tcp): how long ffmpeg reads the input
 * to find its streams before anything goes out. ffmpeg 5.1's MPEG-TS demuxer says streams may appear
 * later, so probing always runs the whole analyzeduration (5 s by default: a UDP relay's start took
 * 5.3–5.5 s here).
 *
 * The steps a job climbs (engine/job-runner.ts): a command starts at the first step its outputs
 * allow (see `buildFfmpegArgs`), and a process that ends because probing found too little
 * (`probe_incomplete`: "dimensions not set", no stream at all ...) is started again at once one
 * step up, without using a restart attempt.
 * - 0.3 s: enough for the PMT and the audio parameters; the video's size may still be unknown,
 *   which a single MPEG-TS output written without tee does not need (the muxer takes streams of
 *   unknown size), nor does encoded video (the encoder learns the size from the first frame).
 * - 1 s: sees a keyframe's SPS of a stream with a GOP of up to a second wherever it is joined (half
 *   a second did not: a relay joining mid-GOP ended with "dimensions not set" in 3 of 6 starts, 6 of
 *   10 in a later run): what copied video needs in a tee muxer, FLV or MP4.
 * - 2.5 s and 5 s: longer GOPs.
 * The probe size grows with the duration (50 Mbit/s worth), so a high bitrate stream is not cut short
 * by bytes before the time is up.
 */
export const LIVE_PROBE_SECONDS = [0.3, 1, 2.5, 5] as const;

/** `-analyzeduration` and `-probesize` for a live transport probed for `seconds`. */
export function liveProbeArgs(seconds: number): string[] {
  const probeSize = Math.max(2_000_000, Math.round((seconds * 50_000_000) / 8));
  return ['-analyzeduration', String(Math.round(seconds * MICROSECONDS)), '-probesize', String(probeSize)];
}

/** The probe a context asks for (1 s when it says nothing). */
function probeArgsOf(ctx: InputContext): string[] {
  return liveProbeArgs(ctx.probeSeconds ?? LIVE_PROBE_SECONDS[1]);
}

/**
 * `uri` inputs: udp, rtp, srt (caller and listener), rist, tcp, rtmp(s), rtsp(s), http(s) incl.
 * HLS, and files. Network inputs get timeouts so a dead source ends the process instead of
 * hanging it, and UDP gets a large receive queue that survives short stalls.
 */
export function buildUriInput(input: UriInput, ctx: InputContext): BuiltInput {
  const what = 'Input URI';
  const programPrefix = input.program !== undefined ? `p:${assertIntegerRange(input.program, 1, 65535, 'Program number')}:` : '';
  const pre: string[] = [];
  if (input.videoDecoder) pre.push('-c:v', assertName(input.videoDecoder, 'Video decoder'));

  if (typeof input.uri === 'string' && input.uri.startsWith('/')) {
    return { args: [...pre, ...fileInputArgs(input.uri, ctx, what)], inputCount: 1, programPrefix };
  }
  const hostMayBeEmpty = typeof input.uri === 'string' && /^(udp|rtp|srt|rist|file):/i.test(input.uri);
  let url = parseUrl(input.uri, INPUT_SCHEMES, what, { allowEmptyHost: hostMayBeEmpty });
  const timeoutUs = Math.round(ctx.ioTimeoutSeconds * MICROSECONDS);

  if (url.scheme === 'file') {
    if (url.host !== '' && url.host !== 'localhost') fail(`${what}: a file:// URL names a file on this node (got host "${url.host}")`);
    let filePath: string;
    try {
      filePath = decodeURIComponent(url.path);
    } catch {
      fail(`${what}: "${url.path}" is not a valid file:// path`);
    }
    return { args: [...pre, ...fileInputArgs(filePath, ctx, what)], inputCount: 1, programPrefix };
  }
  if (url.port === undefined && ['udp', 'rtp', 'srt', 'rist', 'tcp'].includes(url.scheme)) fail(`${what}: a ${url.scheme}:// URL needs a port`);

  if (input.token !== undefined && input.token !== '') {
    if (!TOKEN_SCHEMES.has(url.scheme)) fail(`${what}: a token can only be sent to http(s), rtmp(s) and rtsp(s) sources (got ${url.scheme}://)`);
    url = withToken(url, input.token);
  }

  const options: string[] = ['-thread_queue_size', '1024'];
  if (isLiveTransport(url.scheme)) options.push(...probeArgsOf(ctx));
  switch (url.scheme) {
    case 'udp':
      url = withQueryDefaults(url, [
        ['fifo_size', UDP_FIFO_PACKETS],
        ['overrun_nonfatal', 1],
        ['buffer_size', UDP_SOCKET_BUFFER_BYTES],
        ['timeout', timeoutUs],
      ]);
      break;
    case 'rtp':
      url = withQueryDefaults(url, [
        ['buffer_size', UDP_SOCKET_BUFFER_BYTES],
        ['timeout', timeoutUs],
      ]);
      break;
    case 'srt': {
      // A listener waits for its caller as long as it takes (the supervisor's stale clock decides);
      // libsrt applies `timeout` to the wait for a caller as well, so only callers get one.
      const listener = /(^|&)mode=listener(&|$)/.test(url.query ?? '');
      if (!listener && url.host === '') fail(`${what}: an SRT caller needs a host`);
      if (!listener) url = withQueryDefaults(url, [['timeout', timeoutUs]]);
      break;
    }
    case 'tcp':
    case 'rtmp':
    case 'rtmps':
    case 'http':
    case 'https':
      options.push('-rw_timeout', String(timeoutUs));
      break;
    case 'rtsp':
    case 'rtsps':
      options.push('-timeout', String(timeoutUs));
      break;
    default:
      break;
  }
  return { args: [...pre, ...options, '-i', formatUrl(url)], inputCount: 1, programPrefix };
}

/**
 * An `srt://` input carried by srt-live-transmit (engine/srt/srt-bridge.ts): the companion
 * receives SRT and forwards it to `127.0.0.1:<udpPort>`, which ffmpeg reads as UDP with the same
 * receive queue as any UDP input. The URL is checked exactly as for libsrt, and program and decoder
 * choices apply as before. As with libsrt, a listener waits for its caller as long as the
 * supervisor's stale clock allows (no read timeout); a caller's read gives up after the I/O timeout.
 */
export function buildSrtBridgeInput(input: InputSpec, ctx: InputContext, udpPort: number): BuiltInput {
  if (input?.type !== 'uri' || typeof input.uri !== 'string' || !/^srt:\/\//i.test(input.uri)) fail('Only an srt:// input can be carried by srt-live-transmit');
  const native = buildUriInput(input, ctx);
  const url = parseUrl(input.uri, ['srt'], 'Input URI', { allowEmptyHost: true });
  const listener = /(^|&)mode=listener(&|$)/.test(url.query ?? '');
  const port = assertIntegerRange(udpPort, 1, 65535, 'Loopback UDP port of the SRT input');
  const query = [`fifo_size=${UDP_FIFO_PACKETS}`, 'overrun_nonfatal=1', `buffer_size=${UDP_SOCKET_BUFFER_BYTES}`];
  if (!listener) query.push(`timeout=${Math.round(ctx.ioTimeoutSeconds * MICROSECONDS)}`);
  const pre = input.videoDecoder ? ['-c:v', assertName(input.videoDecoder, 'Video decoder')] : [];
  return { args: [...pre, '-thread_queue_size', '1024', ...probeArgsOf(ctx), '-i', `udp://127.0.0.1:${port}?${query.join('&')}`], inputCount: 1, programPrefix: native.programPrefix };
}
