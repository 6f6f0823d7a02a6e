import { Socket } from 'node:net';
import { lookup } from 'node:dns/promises';
import { readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { execa } from 'execa';
import { sql } from 'kysely';
import { PRODUCT_VERSION } from '../../openapi/version.ts';
import type { DIAGNOSTIC_KEYS } from '../../openapi/schemas/diagnostics.ts';
import { geoIpDatabaseVersion } from '../auth/geoip.ts';
import type { Db } from '../db/database.ts';

type Key = (typeof DIAGNOSTIC_KEYS)[number];
const require = createRequire(import.meta.url);

/** Each program gets this long to answer; all run at once. */
const CHECK_TIMEOUT_MS = 3000;
/** The Internet check: a DNS lookup, then a TCP connect, each bounded to this. */
const INTERNET_STEP_MS = 2000;
/** Where the Internet Connection row connects: MEDIAPLANE_INTERNET_CHECK as host:port (tests keep it on loopback). */
const INTERNET_TARGET = 'www.google.com:443';

function targetOf(text: string): { host: string; port: number } {
  const match = /^(.+):(\d{1,5})$/.exec(text.trim());
  return match ? { host: match[1].replace(/^\[|\]$/g, ''), port: Number(match[2]) } : { host: text.trim(), port: 443 };
}

/** The first non-empty line a program prints for `args` (stdout, else stderr); null when it is missing or fails. */
export async function firstLine(command: string, args: string[], pick: (lines: string[]) => string | undefined = (l) => l[0]): Promise<string | null> {
  const result = await execa(command, args, { reject: false, timeout: CHECK_TIMEOUT_MS, stdin: 'ignore', all: true }).catch(() => undefined);
  if (!result || result.failed && result.exitCode === undefined) return null;
  if ((result as { code?: string }).code === 'ENOENT') return null;
  const lines = String(result.all ?? '').split('\n').map((l) => l.trim()).filter(Boolean);
  return pick(lines) ?? null;
}

async function devices(dir: string, pattern: RegExp, prefix = ''): Promise<string | null> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => pattern.test(n)).sort();
  return names.length ? names.map((n) => `${prefix}${n}`).join(', ') : null;
}

/** ffmpeg -version: the first line and the library versions. */
export function parseFfmpegVersion(lines: string[]): { engine: string | null; libraries: string | null } {
  const engine = lines.find((l) => /^ffmpeg version /.test(l)) ?? null;
  const libraries = lines
    .filter((l) => /^lib(avcodec|avformat|avfilter|avutil|swscale)\s/.test(l))
    .map((l) => {
      const [name, rest] = l.split(/\s+(.*)/);
      return `${name} ${rest.split('/')[0].replace(/\s+/g, '')}`;
    });
  return { engine: engine ? engine.replace(/\s+Copyright.*$/, '') : null, libraries: libraries.length ? libraries.join(', ') : null };
}

function expressVersion(): string | null {
  try {
    return `Express ${(require('express/package.json') as { version: string }).version}`;
  } catch {
    return null;
  }
}

/** Connect to host:port within `ms`; resolves true on connect. */
function connects(address: string, port: number, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(ms, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.connect(port, address);
  });
}

function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(fallback), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        resolve(fallback);
      },
    );
  });
}

/** The Diagnostic Check of spec 03: the versions of the server components, read on this machine. */
export class DiagnosticsService {
  private readonly internetTarget: { host: string; port: number };

  constructor(
    private readonly db: Db,
    internetTarget = process.env.MEDIAPLANE_INTERNET_CHECK || INTERNET_TARGET,
  ) {
    this.internetTarget = targetOf(internetTarget);
  }

  async report() {
    const [database, ffmpeg, nvidia, vainfo, dvbAdapters, dvblast, dvbv5, capture, ffprobe, ping, mtr, nft] = await Promise.all([
      within(sql<{ version: string }>`select version() as version`.execute(this.db).then((r) => r.rows[0]?.version.split(',')[0] ?? null), CHECK_TIMEOUT_MS, null),
      execa('ffmpeg', ['-hide_banner', '-version'], { reject: false, timeout: CHECK_TIMEOUT_MS, stdin: 'ignore' })
        .then((r) => (r.exitCode === 0 ? parseFfmpegVersion(String(r.stdout).split('\n').map((l) => l.trim())) : { engine: null, libraries: null }))
        .catch(() => ({ engine: null, libraries: null })),
      firstLine('nvidia-smi', ['--query-gpu=name,driver_version', '--format=csv,noheader']),
      firstLine('vainfo', ['--version']),
      devices('/dev/dvb', /^adapter\d+$/),
      firstLine('dvblast', ['--version']),
      firstLine('dvbv5-scan', ['--version']),
      devices('/dev', /^video\d+$/, '/dev/'),
      firstLine('ffprobe', ['-version'], (l) => l.find((x) => x.startsWith('ffprobe version'))?.replace(/\s+Copyright.*$/, '')),
      firstLine('ping', ['-V'], (l) => l.find((x) => /ping/i.test(x))),
      firstLine('mtr', ['--version'], (l) => l.find((x) => /^mtr/i.test(x))),
      firstLine('nft', ['--version'], (l) => l.find((x) => /^nftables/i.test(x))),
    ]);
    const gpu = nvidia ? `NVIDIA ${nvidia}` : vainfo;
    const dvbComponents = [dvblast, dvbv5].filter(Boolean).join(', ') || null;
    let geoip: string | null = null;
    try {
      require.resolve('geoip-country/data/geoip-country.dat');
      geoip = geoIpDatabaseVersion();
    } catch {
      geoip = null;
    }
    const rows: Array<{ key: Key; label: string; value: string | null }> = [
      { key: 'javaVersion', label: 'Node.js Version', value: process.version },
      { key: 'javaName', label: 'Node.js Name', value: `${process.release.name} (V8 ${process.versions.v8}, ${process.platform} ${process.arch})` },
      { key: 'tomcatVersion', label: 'Express Version', value: expressVersion() },
      { key: 'mysqlVersion', label: 'Database', value: database },
      { key: 'online', label: 'Internet Connection', value: null },
      { key: 'rixjobVersion', label: 'Mediaplane - Engine', value: ffmpeg.engine ? `Mediaplane ${PRODUCT_VERSION}, ${ffmpeg.engine}` : null },
      { key: 'gstreamerVersion', label: 'Media Library', value: ffmpeg.libraries },
      { key: 'vaapiVersion', label: 'GPU Accelerator', value: gpu },
      { key: 'dvbAdapters', label: 'DVB Adapters', value: dvbAdapters },
      { key: 'dvbVersion', label: 'DVB Components', value: dvbComponents },
      { key: 'captureCards', label: 'Capture Adapter', value: capture },
      { key: 'ffmpegVersion', label: 'Media Checker', value: ffprobe },
      { key: 'pingVersion', label: 'Ping', value: ping },
      { key: 'mtrVersion', label: 'MTR', value: mtr },
      { key: 'iptablesVersion', label: 'Firewall', value: nft },
      { key: 'geoipVersion', label: 'GeoIP', value: geoip },
    ];
    return { rows: rows.map((r) => ({ ...r, ok: r.value !== null && r.value !== '' })), checkedAt: new Date().toISOString() };
  }

  /** On when a well-known host resolves and accepts a TCP connection, each step bounded to 2 s. */
  async internet(host = this.internetTarget.host, port = this.internetTarget.port) {
    const started = Date.now();
    const elapsedMs = () => Date.now() - started;
    const address = await within(lookup(host).then((r) => r.address), INTERNET_STEP_MS, null);
    if (!address) return { online: 'off' as const, detail: `${host} did not resolve within ${INTERNET_STEP_MS / 1000} s`, elapsedMs: elapsedMs() };
    const ok = await connects(address, port, INTERNET_STEP_MS);
    return ok
      ? { online: 'on' as const, detail: `connected to ${host} (${address}) port ${port}`, elapsedMs: elapsedMs() }
      : { online: 'off' as const, detail: `${host} (${address}) port ${port} did not answer within ${INTERNET_STEP_MS / 1000} s`, elapsedMs: elapsedMs() };
  }
}
