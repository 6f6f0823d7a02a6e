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
