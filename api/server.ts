import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from './app.ts';
import type { LiveStreamSources } from './http/mpegts-streams.ts';
import { dataPaths, persistentValue, type ServerConfig } from './config.ts';
import { createDb, type Db } from './db/database.ts';
import { livePostmasterPort, startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded.ts';
import { migrateUp } from './db/migrate.ts';
import { EventBus } from './events/event-bus.ts';
import { LiveLogger } from './logging.ts';
import { startLocalNode } from './node/index.ts';
import { startNodeLogger } from './node/node-logger.ts';
import { registerNode } from './node/registration.ts';
import { TimersRepository } from './repositories/timers.repository.ts';
import { createServices, type Services } from './services/index.ts';
import { TimerScheduler } from './services/timer-scheduler.ts';
import { startAlarmWorkers } from './services/alarm-dispatcher.ts';
import { readNodeSystems } from './services/system-alarm-monitor.ts';

/** The console's build, under the package root: found from this module whether it runs from api/ or from the command's build (cli/dist). */
export const DEFAULT_CONSOLE_DIR = path.join(packageRoot(path.dirname(fileURLToPath(import.meta.url))), 'console/dist');

function packageRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export interface RunningServer {
  url: string;
  port: number;
  db: Db;
  services: Services;
  /** Set when this start created the first admin: shown once. */
  firstAdmin?: { username: string; password: string };
  stop(): Promise<void>;
}

/**
 * Open the database the config names: DATABASE_URL, or the embedded Postgres under the data
 * directory. With `joinRunning` (the CLI's create-admin and migrate), the Postgres of a server
 * already running on that directory is joined rather than taken over, which would stop it.
 */
export async function openDatabase(
  config: ServerConfig,
  log: (line: string) => void,
  options: { joinRunning?: boolean } = {},
): Promise<{ url: string; embedded?: EmbeddedDatabase }> {
  if (config.databaseUrl) return { url: config.databaseUrl };
  mkdirSync(config.dataDir, { recursive: true });
  const password = persistentValue(config.dataDir, 'postgres-password', () => randomBytes(18).toString('base64url'));
  const pgDir = path.join(config.dataDir, 'postgres');
  const url = (port: number) => `postgres://mediaplane:${encodeURIComponent(password)}@127.0.0.1:${port}/mediaplane`;
  if (options.joinRunning) {
    const port = await livePostmasterPort(pgDir);
    if (port) {
      log(`using the embedded Postgres of the server running on ${config.dataDir}`);
      return { url: url(port) };
    }
  }
  const embedded = await startEmbeddedPostgres({ dataDir: pgDir, password, log });
  await embedded.createDatabase('mediaplane');
  return { url: embedded.url('mediaplane'), embedded };
}

/** API + console + this machine's node (its reconciler runs the jobs placed here): what `mediaplane server` runs. */
export async function startServer(config: ServerConfig, sink: (line: string) => void = (line) => console.error(line)): Promise<RunningServer> {
  // The RixUI Log Settings (System settings) set this logger's level, loggers and target live.
  const logger = new LiveLogger(sink, dataPaths(config.dataDir).logsDir);
  const log = logger.line('server');
  const database = await openDatabase(config, log);
  const db = createDb(database.url, 20);
  const stops: Array<() => Promise<unknown>> = [async () => database.embedded?.stop(), () => db.destroy()];
  const stop = async () => {
    for (const fn of stops.reverse()) await fn().catch((error: Error) => log(`stopping: ${error.message}`));
  };
  try {
    for (const line of await migrateUp(db)) log(line);
    const events = new EventBus(database.url, db, logger.line('server.event-bus'));
    await events.start();
    stops.push(() => events.stop());
    const paths = dataPaths(config.dataDir);
    const services = createServices(db, events, {
      devMode: config.devMode,
      paths,
      auth: { sessionIdleMinutes: config.sessionIdleMinutes, sessionMaxHours: config.sessionMaxHours },
    });
    const stopSettings = await services.settings.start(logger);
    stops.push(async () => stopSettings());
    const firstAdmin = await services.admin.ensureFirstAdmin();

    const registration = await registerNode(services.nodes, { dataDir: config.dataDir, name: config.nodeName });
    const purge = setInterval(() => void services.auth.purgeExpiredSessions().catch(() => {}), 10 * 60_000);
    purge.unref();
    stops.push(async () => {
      registration.stop();
      clearInterval(purge);
    });

    // The node starts after the API listens; until then no job serves MPEG-TS.
    const liveStreams: LiveStreamSources = { fanout: () => undefined };
    const app = createApp(services, { consoleDir: config.consoleDir ?? DEFAULT_CONSOLE_DIR, log, liveStreams });
    const server: Server = await new Promise((resolve, reject) => {
      const listening = app.listen(config.port, config.host, () => resolve(listening));
      listening.on('error', reject);
    });
    stops.push(
      () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    );
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;

    const { node } = registration;
    const nodeLog = await startNodeLogger(db, events, paths.logsDir, sink);
    stops.push(async () => nodeLog.stop());
    const localNode = await startLocalNode({ db, databaseUrl: database.url, bus: events, nodeId: node.id, nodeName: node.name, paths, sampler: services.sampler, log: nodeLog.logger.line('node') });
    stops.push(() => localNode.stop());
    liveStreams.fanout = (key) => localNode.reconciler.runner(key)?.mpegts?.();
    // Tools asked of this node run here directly (other nodes' over the bus); timers fire from every API process, each firing once.
    services.tools.setLocalNode({ id: node.id, name: node.name }, localNode.tools);
    const timers = new TimerScheduler(new TimersRepository(db), events, { firedBy: `${node.name}:${process.pid}`, log });
    timers.start();
    stops.push(async () => timers.stop());
    stops.push(startAlarmWorkers(services.alarms, { log, bus: events, monitor: { read: () => readNodeSystems(services.samples, services.nodes, services.alarms.repo) } }));
    const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
    return { url: `http://${shownHost}:${port}`, port, db, services, firstAdmin, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
