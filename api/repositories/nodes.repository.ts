import type { Db } from '../db/database.ts';
import type { NodeRow } from '../db/tables.ts';

/** A node whose heartbeat is older than this is offline: its auto-placed jobs move elsewhere. */
export const NODE_STALE_SECONDS = 30;

/** Online: switched on, with a heartbeat younger than NODE_STALE_SECONDS. */
export function isNodeOnline(node: Pick<NodeRow, 'active' | 'heartbeat_at'>, now = Date.now()): boolean {
  return node.active && now - node.heartbeat_at.getTime() < NODE_STALE_SECONDS * 1000;
}

export class NodesRepository {
  constructor(private readonly db: Db) {}

  /** Register this machine's node, or refresh it: name, address, version and heartbeat. */
  upsert(node: { nodeId: string; name: string; ip: string; version: string }): Promise<NodeRow> {
    return this.db
      .insertInto('nodes')
      .values({ node_id: node.nodeId, name: node.name, ip: node.ip, version: node.version, heartbeat_at: new Date() })
      .onConflict((oc) => oc.column('node_id').doUpdateSet({ ip: node.ip, version: node.version, heartbeat_at: new Date() }))
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async heartbeat(nodeId: string): Promise<void> {
    await this.db.updateTable('nodes').set({ heartbeat_at: new Date() }).where('node_id', '=', nodeId).execute();
  }

  list(): Promise<NodeRow[]> {
    return this.db.selectFrom('nodes').selectAll().orderBy('name').orderBy('id').execute();
  }

  async count(): Promise<number> {
    return Number((await this.db.selectFrom('nodes').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  }
}
