import { randomUUID } from 'node:crypto';
import { hostname, networkInterfaces } from 'node:os';
import { PRODUCT_VERSION } from '../../openapi/version.ts';
import { persistentValue } from '../config.ts';
import type { NodeRow } from '../db/tables.ts';
import type { NodesRepository } from '../repositories/nodes.repository.ts';

const HEARTBEAT_MS = 10_000;

function primaryAddress(): string {
  for (const addresses of Object.values(networkInterfaces())) {
    for (const address of addresses ?? []) if (address.family === 'IPv4' && !address.internal) return address.address;
  }
  return '127.0.0.1';
}

/**
 * Register this machine as a node of the cluster (or refresh its row) and keep its heartbeat
 * going: a node whose heartbeat goes stale is offline and the leader moves its auto jobs.
 */
export async function registerNode(nodes: NodesRepository, options: { dataDir: string; name: string }): Promise<{ node: NodeRow; stop: () => void }> {
  const nodeId = persistentValue(options.dataDir, 'node-id', () => `${hostname()}-${randomUUID().slice(0, 8)}`);
  const node = await nodes.upsert({ nodeId, name: options.name, ip: primaryAddress(), version: PRODUCT_VERSION });
  const heartbeat = setInterval(() => void nodes.heartbeat(nodeId).catch(() => {}), HEARTBEAT_MS);
  heartbeat.unref();
  return { node, stop: () => clearInterval(heartbeat) };
}
