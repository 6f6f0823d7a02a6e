import { sql } from 'kysely';
import pg from 'pg';
import type { Db } from '../db/database.ts';
import { NODE_STALE_SECONDS } from '../repositories/nodes.repository.ts';

const LEADER_LOCK = 727_001;

/**
 * One process of the cluster is the leader: the one holding a Postgres advisory lock on its own
 * connection (released by Postgres when that process dies). It places jobs whose node is "auto"
 * on the least loaded live node and moves them off nodes whose heartbeat is stale.
 */
export class Leader {
  private client?: pg.Client;
  private leading = false;

  constructor(
    private readonly db: Db,
    private readonly connectionString: string,
    private readonly log: (line: string) => void = () => {},
  ) {}

  get isLeader(): boolean {
    return this.leading;
  }

  /** Try to become the leader (again after a lost connection). */
  async campaign(): Promise<boolean> {
    if (this.leading) return true;
    if (!this.client) {
      const client = new pg.Client({ connectionString: this.connectionString });
      client.on('error', () => {
        this.leading = false;
        this.client = undefined;
      });
      await client.connect();
      this.client = client;
    }
    const result = await this.client.query<{ ok: boolean }>('select pg_try_advisory_lock($1) as ok', [LEADER_LOCK]);
    this.leading = result.rows[0]?.ok === true;
    if (this.leading) this.log('this node leads the cluster: it places jobs');
    return this.leading;
  }

  /** Pinned jobs go to their node; auto jobs without a live node go to the least loaded live one. */
  async placeJobs(): Promise<number> {
    if (!this.leading) return 0;
    const pinned = await sql`
      update jobs set assigned_node_id = node_id
      where node_id is not null and assigned_node_id is distinct from node_id and not is_template`.execute(this.db);
    const live = await this.db
      .selectFrom('nodes')
      .select(['nodes.id'])
      .where('active', '=', true)
      .where('heartbeat_at', '>', sql<Date>`now() - make_interval(secs => ${NODE_STALE_SECONDS})`)
      .execute();
    if (live.length === 0) return Number(pinned.numAffectedRows ?? 0);
    const liveIds = live.map((n) => n.id);
    const homeless = await this.db
      .selectFrom('jobs')
      .select('id')
      .where('node_id', 'is', null)
      .where('is_template', '=', false)
      .where((eb) => eb.or([eb('assigned_node_id', 'is', null), eb('assigned_node_id', 'not in', liveIds)]))
      .orderBy('id')
      .execute();
    if (homeless.length === 0) return Number(pinned.numAffectedRows ?? 0);
    const loads = await this.db
      .selectFrom('jobs')
      .select(['assigned_node_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('active', '=', true)
      .where('assigned_node_id', 'in', liveIds)
      .groupBy('assigned_node_id')
      .execute();
    const load = new Map<number, number>(liveIds.map((id) => [id, 0]));
    for (const row of loads) load.set(row.assigned_node_id as number, Number(row.n));
    for (const job of homeless) {
      const [target] = [...load.entries()].sort((a, b) => a[1] - b[1] || a[0] - b[0])[0];
      await this.db.updateTable('jobs').set({ assigned_node_id: target }).where('id', '=', job.id).execute();
      load.set(target, (load.get(target) ?? 0) + 1);
    }
    return homeless.length + Number(pinned.numAffectedRows ?? 0);
  }

  async stop(): Promise<void> {
    this.leading = false;
    await this.client?.end().catch(() => {});
    this.client = undefined;
  }
}
