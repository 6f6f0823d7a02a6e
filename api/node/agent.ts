import { dataPaths, type ServerConfig } from '../config.ts';
import { createDb } from '../db/database.ts';
import { pendingMigrations } from '../db/migrate.ts';
import { EventBus } from '../events/event-bus.ts';
import { NodesRepository } from '../repositories/nodes.repository.ts';
import { startLocalNode } from './index.ts';
import { startNodeLogger } from './node-logger.ts';
import { registerNode } from './registration.ts';

/**
 * `mediaplane agent`: a node alone, without API or console, against the cluster's shared Postgres.
 * It registers this machine, keeps its heartbeat and runs the jobs the leader places here; its
 * lines follow the Rixjob Log Settings (api/node/node-logger.ts).
 */
export async function startAgent(config: ServerConfig, log: (line: string) => void): Promise<{ nodeName: string; stop: () => Promise<void> }> {
  if (!config.databaseUrl) throw new Error('mediaplane agent needs DATABASE_URL: the Postgres of the cluster the server uses');
  const db = createDb(config.databaseUrl, 5);
  const stops: Array<() => Promise<unknown>> = [() => db.destroy()];
  const stop = async () => {
    for (const fn of stops.reverse()) await fn().catch((error: Error) => log(`stopping: ${error.message}`));
  };
  try {
    const pending = await pendingMigrations(db);
    if (pending.length) throw new Error(`the database lacks migrations ${pending.join(', ')}: start the server of this version (or run mediaplane migrate) first`);
    const bus = new EventBus(config.databaseUrl, db, log);
    await bus.start();
    stops.push(() => bus.stop());
    const registration = await registerNode(new NodesRepository(db), { dataDir: config.dataDir, name: config.nodeName });
    stops.push(async () => registration.stop());
    const paths = dataPaths(config.dataDir);
    const nodeLog = await startNodeLogger(db, bus, paths.logsDir, log);
    stops.push(async () => nodeLog.stop());
    const localNode = await startLocalNode({
      db,
      databaseUrl: config.databaseUrl,
      bus,
      nodeId: registration.node.id,
      nodeName: registration.node.name,
      paths,
      log: nodeLog.logger.line('node'),
    });
    stops.push(() => localNode.stop());
    return { nodeName: registration.node.name, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
