import { isIP } from 'node:net';
import path from 'node:path';

/**
 * Checks for everything a user's input turns into on ffmpeg's command line. Every value goes to
 * ffmpeg as its own argv entry (never through a shell), and these checks make sure a value is what
 * it claims to be: a host is a hostname or an IP address (so `-f` can never become an option), a
 * URL has an allowed scheme, a path is absolute, a name is a name.
 */

/** A job spec that cannot be turned into an ffmpeg command; the message says why, for the operator. */
export class FfmpegSpecError extends Error {
  override name = 'FfmpegSpecError';
}

export function fail(message: string): never {
  throw new FfmpegSpecError(message);
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
const HOST_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

export function isHostname(host: string): boolean {
  if (host.length === 0 || host.length > 253) return false;
  const labels = (host.endsWith('.') ? host.slice(0, -1) : host).split('.');
  return labels.every((label) => HOST_LABEL.test(label));
}

/** A host as a URL writes it: IPv6 in brackets. Throws unless it is a hostname or an IP address. */
export function assertHost(host: unknown, what: string): string {
  if (typeof host !== 'string' || host.length === 0) fail(`${what}: a host is required`);
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const family = isIP(bare);
  if (family === 6) return `[${bare}]`;
  if (family === 4 || isHostname(bare)) return bare;
  fail(`${what}: "${host}" is not a hostname or an IP address`);
}

/** An IP address (no hostname), e.g. for a local interface address. */
export function assertIp(ip: unknown, what: string): string {
  if (typeof ip !== 'string' || isIP(ip) === 0) fail(`${what}: "${String(ip)}" is not an IP address`);
  return ip;
}

/** Ports as the OS knows them. The spec's forms allow up to 65536, which no socket can use. */
export function assertPort(port: unknown, what: string): number {
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) {
    fail(`${what}: port must be a whole number from 1 to 65535 (got ${String(port)})`);
  }
  return port;
}

export function assertIntegerRange(value: unknown, min: number, max: number, what: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    fail(`${what} must be a whole number from ${min} to ${max} (got ${String(value)})`);
  }
  return value;
}

export function assertNumberRange(value: unknown, min: number, max: number, what: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    fail(`${what} must be a number from ${min} to ${max} (got ${String(value)})`);
  }
  return value;
}

/** Bitrates of the spec: 1 to 999999 kbit/s, step 1. */
export function assertBitrateKbps(value: unknown, what: string): number {
  return assertIntegerRange(value, 1, 999_999, `${what} (kbit/s)`);
}

/** Text that reaches ffmpeg inside one argv entry: no control characters (newlines included). */
export function assertPlainText(value: unknown, what: string, maxLength = 1024): string {
  if (typeof value !== 'string') fail(`${what} must be text`);
  if (CONTROL.test(value)) fail(`${what} must not contain control characters or line breaks`);
  if (value.length > maxLength) fail(`${what} is longer than ${maxLength} characters`);
  return value;
}

/** An absolute path on the node (files the engine reads or writes). */
export function assertAbsolutePath(value: unknown, what: string): string {
  const text = assertPlainText(value, what, 4096);
  if (!path.isAbsolute(text)) fail(`${what} must be an absolute path (got "${text}")`);
  return path.normalize(text);
}

/**
 * A directory ffmpeg writes a playlist and segments into. Besides being absolute, it must not hold
 * characters that the hls/dash muxers or the tee muxer read as syntax (`%` templates, `$` DASH
 * templates, `|[]:'\` of tee's option syntax).
 */
export function assertOutputDirectory(value: unknown, what: string): string {
  const dir = assertAbsolutePath(value, what);
  if (/[%$|[\]:'\\\s]/.test(dir)) fail(`${what} must not contain spaces or any of % $ | [ ] : ' \\ (got "${dir}")`);
  return dir.length > 1 && dir.endsWith('/') ? dir.slice(0, -1) : dir;
}

/** Names of encoders, decoders, options: letters, digits and `_`, `-`, `.`, `:` (stream specifiers). */
export function assertName(value: unknown, what: string): string {
  if (typeof value !== 'string' || !/^[A-Za-z0-9_][A-Za-z0-9_.:-]{0,63}$/.test(value)) {
    fail(`${what}: "${String(value)}" is not a valid name`);
  }
  return value;
}

export interface ParsedUrl {
  scheme: string;
  /** Text before `@` in the authority, undefined when there is no `@`. */
  userinfo?: string;
  /** Host as written (IPv6 in brackets); may be empty (e.g. `udp://@:1234`). */
  host: string;
  port?: number;
  path: string;
  /** Without the leading `?`; undefined when the URL has none. */
  query?: string;
  fragment?: string;
}

const URL_SHAPE = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/;

/**
 * Parse `scheme://[userinfo@]host[:port][/path][?query][#fragment]` and check each part.
 * `allowEmptyHost` is for receivers that bind to every interface (`udp://@:1234`, `srt://:9000?mode=listener`).
 */
export function parseUrl(raw: unknown, allowedSchemes: readonly string[], what: string, options: { allowEmptyHost?: boolean } = {}): ParsedUrl {
  const text = assertPlainText(raw, what, 4096);
  if (/\s/.test(text)) fail(`${what}: a URL must not contain spaces`);
  const match = URL_SHAPE.exec(text);
  if (!match) fail(`${what}: "${text}" is not a URL (expected ${allowedSchemes.map((s) => `${s}://`).join(', ')})`);
  const scheme = match[1].toLowerCase();
  if (!allowedSchemes.includes(scheme)) fail(`${what}: the scheme "${scheme}://" is not allowed here (allowed: ${allowedSchemes.join(', ')})`);
  let authority = match[2];
  let userinfo: string | undefined;
  const at = authority.lastIndexOf('@');
  if (at >= 0) {
    userinfo = authority.slice(0, at);
    authority = authority.slice(at + 1);
  }
  let host = authority;
  let port: number | undefined;
  const hostPort = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(authority);
  if (!hostPort) fail(`${what}: "${authority}" is not a host with an optional port`);
  host = hostPort[1];
  if (hostPort[2] !== undefined) {
    if (hostPort[2] === '') fail(`${what}: the port is empty`);
    port = assertPort(Number(hostPort[2]), what);
  }
  if (host === '') {
    if (!options.allowEmptyHost) fail(`${what}: a host is required`);
  } else {
    host = assertHost(host, what);
  }
  return { scheme, userinfo, host, port, path: match[3], query: match[4], fragment: match[5] };
}

export function formatUrl(url: ParsedUrl): string {
  const auth = url.userinfo !== undefined ? `${url.userinfo}@` : '';
  const port = url.port !== undefined ? `:${url.port}` : '';
  const query = url.query !== undefined && url.query !== '' ? `?${url.query}` : '';
  const fragment = url.fragment !== undefined ? `#${url.fragment}` : '';
  return `${url.scheme}://${auth}${url.host}${port}${url.path}${query}${fragment}`;
}

export function queryKeys(query: string | undefined): Set<string> {
  const keys = new Set<string>();
  for (const pair of (query ?? '').split('&')) if (pair) keys.add(pair.split('=')[0]);
  return keys;
}

/** Add `key=value` pairs to the query, keeping any the URL already sets (the operator's choice wins). */
export function withQueryDefaults(url: ParsedUrl, params: Array<[string, string | number]>): ParsedUrl {
  const present = queryKeys(url.query);
  const added = params.filter(([key]) => !present.has(key)).map(([key, value]) => `${key}=${encodeURIComponent(String(value))}`);
  if (added.length === 0) return url;
  const query = [url.query, ...added].filter((part) => part !== undefined && part !== '').join('&');
  return { ...url, query };
}
