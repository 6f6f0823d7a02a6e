import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { dataPaths, type DataPaths } from '../../api/config.ts';
import type { Db } from '../../api/db/database.ts';
import { EventBus } from '../../api/events/event-bus.ts';
import { startLocalNode, type LocalNode } from '../../api/node/index.ts';
import { NodesRepository } from '../../api/repositories/nodes.repository.ts';
import { createTestDatabase } from './db.ts';

type NodeOptions = Parameters<typeof startLocalNode>[0];

/**
 * What the node-side integration tests share: a database of their own, the event bus on it, a
 * temporary data directory, this machine registered as a node, and the local nodes they start.
 */
export interface NodeHarness {
  db: Db;
  databaseUrl: string;
  bus: EventBus;
  dir: string;
  paths: DataPaths;
  nodeId: number;
  /** A node reconciler (sweeping every second) on this harness's database; stopped by `stopNodes`. */
  startNode(options?: Partial<NodeOptions>): Promise<LocalNode>;
  /** After each test: stop the nodes it started and switch every job off. */
  stopNodes(): Promise<void>;
  close(): Promise<void>;
}

export async function createNodeHarness(name: string): Promise<NodeHarness> {
  const database = await createTestDatabase();
  const bus = new EventBus(database.url, database.db);
  await bus.start();
  const dir = mkdtempSync(path.join(tmpdir(), `mediaplane-${name}-`));
  const paths = dataPaths(dir);
  const nodeId = (await new NodesRepository(database.db).upsert({ nodeId: `${name}-node`, name: 'local', ip: '127.0.0.1', version: 'test' })).id;
  const nodes: LocalNode[] = [];
  return {
    db: database.db,
    databaseUrl: database.url,
    bus,
    dir,
    paths,
    nodeId,
    async startNode(options = {}) {
      const node = await startLocalNode({ db: database.db, databaseUrl: database.url, bus, nodeId, nodeName: 'local', paths, sweepIntervalMs: 1000, log: () => {}, ...options });
      nodes.push(node);
      return node;
    },
    async stopNodes() {
      await Promise.all(nodes.splice(0).map((node) => node.stop()));
      await database.db.updateTable('jobs').set({ active: false }).execute();
    },
    async close() {
      await Promise.all(nodes.splice(0).map((node) => node.stop()));
      await bus.stop();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
