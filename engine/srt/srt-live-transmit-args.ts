import type { OutputSpec } from '../types.ts';
import { assertHost, assertIntegerRange, assertPlainText, assertPort, fail, parseUrl } from '../ffmpeg/validate.ts';

/**
 * The argv of srt-live-transmit (Debian's `srt-tools`, SRT 1.5) for one SRT link of a job: it
 * carries the link between the SRT peer and a loopback UDP port that ffmpeg writes to (an output)
 * or reads from (an input), and prints the link's statistics as JSON lines on stdout.
 *
 * Pure: it starts nothing. Every value is checked the way engine/ffmpeg/outputs/srt.ts checks it,
 * and nothing a user typed can become an option: the only argv entries are our own options and two
 * URLs that start with `srt://` or `udp://`. Inside the SRT URL, srt-live-transmit splits the query
 * at every `&` (and decodes nothing), so a value holding `&` cannot be expressed there: such a link
 * is refused here (see `bridgeUnsupportedReason`, which lets the job fall back to ffmpeg's libsrt).
 */

export type SrtMode = 'caller' | 'listener';

/** One SRT link as srt-live-transmit needs it. Latencies in milliseconds. */
export interface SrtLink {
  mode: SrtMode;
  /** caller: the peer to connect to; listener: the local address to listen on ('' or 0.0.0.0: every interface). */
  host: string;
  port: number;
  latencyMs?: number;
  /** The receiver's and the peer's latency apart (an input URL's `rcvlatency` / `peerlatency`). */
  rcvLatencyMs?: number;
  peerLatencyMs?: number;
  passphrase?: string;
  pbkeylen?: 16 | 24 | 32;
  /** Sent by a caller; a listener has none to send. */
  streamId?: string;
}

export interface SrtLiveTransmitSpec {
  /** output: UDP from ffmpeg → SRT to the peer; input: SRT from the peer → UDP to ffmpeg. */
  direction: 'input' | 'output';
  link: SrtLink;
  /** The loopback UDP port between ffmpeg and srt-live-transmit. */
  udpPort: number;
  /** A statistics line every this many packets (srt-live-transmit counts packets, not time). Default 25. */
  statsEveryPackets?: number;
  /** Names the link in messages, e.g. `Output 1 (SRT)`. */
  what: string;
}

/** Default statistics period, in packets: about a second at 300 kbit/s, several lines a second at 10 Mbit/s (the bridge passes one a second on). */
export const DEFAULT_STATS_EVERY_PACKETS = 25;
/** Receive buffer of the UDP leg that srt-live-transmit reads (the kernel caps it at net.core.rmem_max). */
export const UDP_LEG_RCVBUF_BYTES = 8 * 1024 * 1024;
/** The program, and the Debian package that provides it. */
export const SRT_LIVE_TRANSMIT = 'srt-live-transmit';
export const SRT_TOOLS_PACKAGE = 'srt-tools';

const MAX_LATENCY_MS = 60_000;

function checkText(value: string, what: string, maxLength: number): string {
  const text = assertPlainText(value, what, maxLength);
  if (text.includes('&')) fail(`${what} must not contain "&" when carried by srt-live-transmit`);
  return text;
}

/** The link's values checked; the host as the SRT URL writes it ('' for every interface). */
function checkedLink(link: SrtLink, what: string): Required<Pick<SrtLink, 'mode' | 'host' | 'port'>> & SrtLink {
  if (link.mode !== 'caller' && link.mode !== 'listener') fail(`${what}: mode must be caller or listener`);
  const listener = link.mode === 'listener';
  const host = listener && (!link.host || link.host === '0.0.0.0') ? '' : assertHost(link.host, `${what} host`);
  const port = assertPort(link.port, what);
  const checked: SrtLink = { mode: link.mode, host, port };
  for (const key of ['latencyMs', 'rcvLatencyMs', 'peerLatencyMs'] as const) {
    if (link[key] !== undefined) checked[key] = assertIntegerRange(link[key], 0, MAX_LATENCY_MS, `${what} latency (ms)`);
  }
  if (link.passphrase !== undefined && link.passphrase !== '') {
    const passphrase = checkText(link.passphrase, `${what} passphrase`, 79);
    if (passphrase.length < 10) fail(`${what}: the passphrase must be 10 to 79 characters`);
    checked.passphrase = passphrase;
    if (link.pbkeylen !== undefined) {
      if (![16, 24, 32].includes(link.pbkeylen)) fail(`${what}: pbkeylen must be 16, 24 or 32`);
      checked.pbkeylen = link.pbkeylen;
    }
  } else if (link.pbkeylen !== undefined) {
    fail(`${what}: pbkeylen needs a passphrase`);
  }
  if (!listener && link.streamId) checked.streamId = checkText(link.streamId, `${what} stream id`, 512);
  return checked as Required<Pick<SrtLink, 'mode' | 'host' | 'port'>> & SrtLink;
}

/** The `srt://` URL srt-live-transmit opens (its own syntax: latencies in ms, values verbatim). */
export function srtLiveTransmitUrl(link: SrtLink, what: string): string {
  const checked = checkedLink(link, what);
  const query: string[] = [`mode=${checked.mode}`];
  if (checked.latencyMs !== undefined) query.push(`latency=${checked.latencyMs}`);
  if (checked.rcvLatencyMs !== undefined) query.push(`rcvlatency=${checked.rcvLatencyMs}`);
  if (checked.peerLatencyMs !== undefined) query.push(`peerlatency=${checked.peerLatencyMs}`);
  if (checked.passphrase !== undefined) query.push(`passphrase=${checked.passphrase}`);
  if (checked.pbkeylen !== undefined) query.push(`pbkeylen=${checked.pbkeylen}`);
  if (checked.streamId !== undefined) query.push(`streamid=${checked.streamId}`);
  return `srt://${checked.host}:${checked.port}?${query.join('&')}`;
}

/** spec → argv (without the program): `-s:<n> -pf:json -f -ll:warn <source> <target>`. */
export function srtLiveTransmitArgs(spec: SrtLiveTransmitSpec): string[] {
  if (spec.direction !== 'input' && spec.direction !== 'output') fail(`${spec.what}: direction must be input or output`);
  const udpPort = assertPort(spec.udpPort, `${spec.what} loopback UDP leg`);
  const every = assertIntegerRange(spec.statsEveryPackets ?? DEFAULT_STATS_EVERY_PACKETS, 1, 1_000_000, `${spec.what} statistics period (packets)`);
  const srt = srtLiveTransmitUrl(spec.link, spec.what);
  const options = [
    `-s:${every}`, // a statistics report every n packets ...
    '-pf:json', // ... as one JSON object per line on stdout ...
    '-f', // ... with the connection's running totals (not counts since the last report)
    '-ll:warn', // SRT's own warnings (rejected handshakes and their reason) on stderr
  ];
  return spec.direction === 'output'
    ? [...options, `udp://127.0.0.1:${udpPort}?rcvbuf=${UDP_LEG_RCVBUF_BYTES}`, srt]
    : [...options, srt, `udp://127.0.0.1:${udpPort}`];
}

/** Why this link cannot be carried by srt-live-transmit (a value srt-live-transmit's URL cannot hold); undefined when it can. */
export function bridgeUnsupportedReason(link: SrtLink): string | undefined {
  if (link.passphrase?.includes('&')) return 'its passphrase contains "&", which srt-live-transmit cannot take';
  if (link.mode === 'caller' && link.streamId?.includes('&')) return 'its stream id contains "&", which srt-live-transmit cannot take';
  return undefined;
}

/** An SRT output of a job as a link. */
export function srtLinkOfOutput(output: Extract<OutputSpec, { type: 'srt' }>): SrtLink {
  return {
    mode: output.mode,
    host: output.host,
    port: output.port,
    ...(output.latencyMs !== undefined ? { latencyMs: output.latencyMs } : {}),
    ...(output.passphrase ? { passphrase: output.passphrase } : {}),
    ...(output.pbkeylen !== undefined ? { pbkeylen: output.pbkeylen } : {}),
    ...(output.streamId ? { streamId: output.streamId } : {}),
  };
}

/** Options of an ffmpeg `srt://` input URL that only concern ffmpeg's own wait: the loopback leg has its own. */
const FFMPEG_ONLY_OPTIONS = new Set(['timeout', 'listen_timeout', 'connect_timeout', 'rw_timeout']);
const TRANSLATED_OPTIONS = new Set(['mode', 'latency', 'rcvlatency', 'peerlatency', 'passphrase', 'pbkeylen', 'streamid']);

/**
 * An `srt://host:port?...` input URL, as ffmpeg 5.1 reads it, as a link: mode (caller when absent),
 * latency, rcvlatency and peerlatency (microseconds for ffmpeg, milliseconds for srt-live-transmit),
 * passphrase, pbkeylen and streamid. Like ffmpeg's av_find_info_tag, the first occurrence of an
 * option counts and `+` stands for a space; nothing else is decoded. Options outside that list
 * (and rendezvous mode) are not translated: `unsupported` says which, and the input stays with
 * ffmpeg's libsrt. A URL that is not valid at all throws.
 */
export function srtLinkOfInputUri(uri: string, what = 'Input URI'): { link: SrtLink } | { unsupported: string } {
  const url = parseUrl(uri, ['srt'], what, { allowEmptyHost: true });
  if (url.port === undefined) fail(`${what}: an srt:// URL needs a port`);
  // ffmpeg reads everything after the `?` as options, a `#` included (SRT access control stream ids start with `#!::`).
  const query = url.query === undefined ? undefined : url.fragment === undefined ? url.query : `${url.query}#${url.fragment}`;
  if (url.userinfo !== undefined || (url.path !== '' && url.path !== '/') || (url.fragment !== undefined && query === undefined)) {
    return { unsupported: 'its URL has parts besides host, port and options' };
  }
  const options = new Map<string, string>();
  for (const pair of (query ?? '').split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const key = eq < 0 ? pair : pair.slice(0, eq);
    const value = eq < 0 ? '' : pair.slice(eq + 1).replaceAll('+', ' ');
    if (!options.has(key)) options.set(key, value);
  }
  const untranslated = [...options.keys()].filter((key) => !TRANSLATED_OPTIONS.has(key) && !FFMPEG_ONLY_OPTIONS.has(key));
  if (untranslated.length) return { unsupported: `its URL sets SRT options the bridge does not translate (${untranslated.join(', ')})` };
  const mode = options.get('mode') ?? 'caller';
  if (mode !== 'caller' && mode !== 'listener') return { unsupported: `mode "${mode}" is not carried by the bridge` };
  const microsToMs = (key: string): number | undefined => {
    const raw = options.get(key);
    if (raw === undefined) return undefined;
    if (!/^\d+$/.test(raw)) fail(`${what}: ${key} must be a whole number of microseconds (got "${raw}")`);
    // ffmpeg divides by 1000 as an integer.
    return Math.trunc(Number(raw) / 1000);
  };
  const pbkeylen = options.get('pbkeylen');
  const link: SrtLink = { mode, host: url.host, port: url.port };
  const latencyMs = microsToMs('latency');
  const rcvLatencyMs = microsToMs('rcvlatency');
  const peerLatencyMs = microsToMs('peerlatency');
  if (latencyMs !== undefined) link.latencyMs = latencyMs;
  if (rcvLatencyMs !== undefined) link.rcvLatencyMs = rcvLatencyMs;
  if (peerLatencyMs !== undefined) link.peerLatencyMs = peerLatencyMs;
  const passphrase = options.get('passphrase');
  if (passphrase) link.passphrase = passphrase;
  // A key length means nothing without a passphrase (no encryption): it is left out then.
  if (pbkeylen !== undefined && link.passphrase) {
    if (!['16', '24', '32'].includes(pbkeylen)) fail(`${what}: pbkeylen must be 16, 24 or 32`);
    link.pbkeylen = Number(pbkeylen) as 16 | 24 | 32;
  }
  const streamId = options.get('streamid');
  if (streamId) link.streamId = streamId;
  if (mode === 'caller' && link.host === '') fail(`${what}: an SRT caller needs a host`);
  return { link };
}
