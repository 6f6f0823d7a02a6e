import type { InputSpec } from '../../types.ts';
import { type BuiltInput, type InputContext, MICROSECONDS } from '../context.ts';
import { assertAbsolutePath, assertIntegerRange, assertName, fail, formatUrl, parseUrl, withQueryDefaults, type ParsedUrl } from '../validate.ts';

export const INPUT_SCHEMES = ['udp', 'rtp', 'srt', 'rist', 'tcp', 'rtmp', 'rtmps', 'rtsp', 'rtsps', 'http', 'https', 'file'] as const;

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
 * Probing of a live MPEG-TS transport (udp, rtp, srt, rist, tcp). ffmpeg 5.1's MPEG-TS demuxer
 * says streams may appear later, so probing always runs the whole analyzeduration (5 s by default)
 * before the first packet goes out: a UDP relay's start took 5.3–5.5 s here. One second still sees
 * a keyframe's SPS of a stream with a GOP of up to a second wherever it is joined (half a second
 * did not: a relay joining mid-GOP ended with "dimensions not set" in 3 of 6 starts); the first
 * output packet then comes 1.3–1.4 s after the start. A longer GOP may need a restart (the
 * supervisor's), which the job log shows.
 */
export const LIVE_TS_PROBE_ARGS = ['-analyzeduration', '1000000', '-probesize', '2000000'] as const;

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
  if (['udp', 'rtp', 'srt', 'rist', 'tcp'].includes(url.scheme)) options.push(...LIVE_TS_PROBE_ARGS);
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
  return { args: [...pre, '-thread_queue_size', '1024', ...LIVE_TS_PROBE_ARGS, '-i', `udp://127.0.0.1:${port}?${query.join('&')}`], inputCount: 1, programPrefix: native.programPrefix };
}
