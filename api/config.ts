import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Everything the server reads from its environment, resolved once. */
export interface ServerConfig {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl?: string;
  devMode: boolean;
  sessionIdleMinutes: number;
  sessionMaxHours: number;
  /** Serve the built console from this directory (absent: API only). */
  consoleDir?: string;
  nodeName: string;
}

function intFrom(value: string | undefined, fallback: number): number {
  const parsed = Number.parseInt(value ?? '', 10);
  return Number.isFinite(parsed) && parsed > 0 ? parsed : fallback;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env, overrides: Partial<ServerConfig> = {}): ServerConfig {
  return {
    host: env.MEDIAPLANE_HOST ?? '0.0.0.0',
    port: intFrom(env.PORT ?? env.MEDIAPLANE_PORT, 8080),
    dataDir: path.resolve(env.MEDIAPLANE_DATA_DIR ?? 'data'),
    databaseUrl: env.DATABASE_URL || undefined,
    devMode: env.MEDIAPLANE_DEV === '1' || env.MEDIAPLANE_DEV === 'true',
    sessionIdleMinutes: intFrom(env.MEDIAPLANE_SESSION_IDLE_MINUTES, 60),
    sessionMaxHours: intFrom(env.MEDIAPLANE_SESSION_MAX_HOURS, 12),
    nodeName: env.MEDIAPLANE_NODE_NAME ?? 'local',
    ...overrides,
  };
}

/** Where a node keeps what its jobs write and read, all under the data directory. */
export interface DataPaths {
  /** Segmented outputs (hls, dash, cmaf), served at /streams/. */
  streamsDir: string;
  /** AES-128 keys of encrypted HLS outputs. */
  keysDir: string;
  /** Uploaded watermark images. */
  watermarksDir: string;
  /**
   * The node's local storage root: the files jobs name by a path inside it (subtitle files,
   * replacement video and audio). A path outside it is refused.
   */
  mediaDir: string;
  /** One log file per job. */
  logsDir: string;
  /** Process records of running jobs (for recovery after a crash). */
  runDir: string;
}

export function dataPaths(dataDir: string): DataPaths {
  return {
    streamsDir: path.join(dataDir, 'streams'),
    keysDir: path.join(dataDir, 'keys'),
    watermarksDir: path.join(dataDir, 'watermarks'),
    mediaDir: path.join(dataDir, 'media'),
    logsDir: path.join(dataDir, 'logs'),
    runDir: path.join(dataDir, 'run'),
  };
}

/** A value kept in a file of the data directory, made on first use (mode 0600: some are secrets). */
export function persistentValue(dataDir: string, name: string, make: () => string): string {
  const file = path.join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const value = make();
  writeFileSync(file, `${value}\n`, { mode: 0o600 });
  return value;
}
