import type { Command } from 'commander';
import { createApiClient, type ApiClient } from '../openapi/client/index.ts';
import { PRODUCT_VERSION } from '../openapi/version.ts';
import { readConfig, type StoredConfig } from './config.ts';
import { CliError } from './output.ts';

export const DEFAULT_URL = 'http://localhost:8080';

/** The global options every API command takes. */
export interface GlobalOptions {
  url?: string;
  token?: string;
}

export interface Target {
  /** The API base URL, without a trailing slash. */
  url: string;
  token?: string;
}

/** The API could not be reached at all: no answer, as opposed to an error answer. */
export class UnreachableError extends Error {
  readonly code = 'UNREACHABLE';
  constructor(url: string, reason: string) {
    super(`cannot reach ${url}: ${reason}`);
    this.name = 'UnreachableError';
  }
}

export function normaliseUrl(url: string): string {
  const trimmed = url.trim().replace(/\/+$/, '');
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    throw new CliError('INVALID_URL', `the API URL (--url, MEDIAPLANE_URL or the stored config) must be an http(s) URL such as ${DEFAULT_URL}, not ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new CliError('INVALID_URL', `the API URL must use http or https, not ${parsed.protocol.replace(/:$/, '')}`);
  return trimmed;
}

/**
 * Where to send requests and with which token: `--url`/`--token`, then MEDIAPLANE_URL /
 * MEDIAPLANE_TOKEN, then the stored config, then http://localhost:8080. The stored token is only
 * sent to the URL it was made for, so pointing the CLI at another server never leaks it there.
 */
export function resolveTarget(options: GlobalOptions, env: NodeJS.ProcessEnv = process.env, stored: StoredConfig = readConfig(env)): Target {
  const url = normaliseUrl(options.url || env.MEDIAPLANE_URL || stored.url || DEFAULT_URL);
  const storedToken = stored.token && stored.url && normaliseUrl(stored.url) === url ? stored.token : undefined;
  const token = options.token || env.MEDIAPLANE_TOKEN || storedToken;
  return { url, ...(token ? { token } : {}) };
}

/** Why fetch failed, in the words of the system call (`connect ECONNREFUSED 127.0.0.1:1`), not undici's "fetch failed". */
function reasonOf(error: unknown): string {
  let current = error as { message?: string; cause?: unknown; errors?: unknown[] } | undefined;
  let reason = current?.message ?? String(error);
  for (let depth = 0; current && depth < 5; depth += 1) {
    if (current.message && current.message !== 'fetch failed') reason = current.message;
    if (Array.isArray(current.errors) && current.errors.length) {
      reason = current.errors.map((e) => (e as Error).message).join(', ');
      break;
    }
    current = current.cause as typeof current;
  }
  return reason;
}

export interface ClientOptions {
  /** Keep the session cookie the API sets and send it back: what `login` needs between sign-in and sign-out. */
  keepSession?: boolean;
}

/** The generated API client, aimed at `target`; a failure to connect becomes an UnreachableError. */
export function createCliClient(target: Target, options: ClientOptions = {}): ApiClient {
  const fetchOrUnreachable: typeof fetch = async (input, init) => {
    try {
      return await fetch(input, init);
    } catch (error) {
      if ((error as Error)?.name === 'AbortError') throw error;
      throw new UnreachableError(target.url, reasonOf(error));
    }
  };
  const client = createApiClient({
    baseUrl: target.url,
    token: target.token,
    headers: { 'User-Agent': `mediaplane-cli/${PRODUCT_VERSION}` },
    fetch: fetchOrUnreachable,
  });
  if (options.keepSession) {
    const cookies = new Map<string, string>();
    client.use({
      onRequest({ request }) {
        if (cookies.size) request.headers.set('cookie', [...cookies].map(([name, value]) => `${name}=${value}`).join('; '));
        return request;
      },
      onResponse({ response }) {
        for (const line of response.headers.getSetCookie()) {
          const [pair] = line.split(';');
          const at = pair.indexOf('=');
          if (at <= 0) continue;
          const name = pair.slice(0, at).trim();
          const value = pair.slice(at + 1).trim();
          const expired = /;\s*expires=Thu, 01 Jan 1970/i.test(line) || /;\s*max-age=0\b/i.test(line);
          if (expired || value === '') cookies.delete(name);
          else cookies.set(name, value);
        }
        return response;
      },
    });
  }
  return client;
}

/** The target and client for a command, from its options merged with the global ones. */
export function contextOf(command: Command): { target: Target; client: ApiClient } {
  const target = resolveTarget(command.optsWithGlobals<GlobalOptions>());
  return { target, client: createCliClient(target) };
}
