import { sql } from 'kysely';
import { PRODUCT_VERSION } from '../../openapi/version.ts';
import type { Db } from '../db/database.ts';
import { NODE_STALE_SECONDS, type NodesRepository } from '../repositories/nodes.repository.ts';
import type { SettingsRepository } from '../repositories/settings.repository.ts';

export const FEATURES_KEY = 'features';
const DEFAULT_FEATURES: Record<string, boolean> = { ads: false };

export class SystemService {
  constructor(
    private readonly db: Db,
    private readonly nodes: NodesRepository,
    private readonly settings: SettingsRepository,
    private readonly devMode: boolean,
  ) {}

  async info() {
    const [features, nodeCount] = await Promise.all([this.settings.get<Record<string, boolean>>(FEATURES_KEY), this.nodes.count()]);
    return {
      product: 'Mediaplane' as const,
      backendVersion: PRODUCT_VERSION,
      runtime: `Node.js ${process.version}`,
      devMode: this.devMode,
      features: { ...DEFAULT_FEATURES, ...features },
      nodeCount,
    };
  }

  /** A node is online while its heartbeat is younger than NODE_STALE_SECONDS. */
  async listNodes() {
    const rows = await this.nodes.list();
    const now = Date.now();
    return {
      items: rows.map((n) => ({ id: n.id, name: n.name, nodeId: n.node_id, ip: n.ip, version: n.version, online: n.active && now - n.heartbeat_at.getTime() < NODE_STALE_SECONDS * 1000 })),
    };
  }

  async health() {
    await sql`select 1`.execute(this.db);
    return { status: 'ok' as const, database: 'ok' as const };
  }
}
