import { sql } from 'kysely';
import pg from 'pg';
import type { Db } from '../db/database.ts';
import { JobRuntimeRepository } from '../repositories/job-runtime.repository.ts';
import { NODE_STALE_SECONDS } from '../repositories/nodes.repository.ts';

const LEADER_LOCK = 727_001;
const HOUR_MS = 3_600_000;

/**
 * One process of the cluster is the leader: the one holding a Postgres advisory lock on its own
 * connection (released by Postgres when that process dies). It places jobs whose node is "auto"
 * on the least loaded live node and moves them off nodes whose heartbeat is stale, and it keeps
 * the cluster's history trimmed: job events past each job's statistics days.
 */
export class Leader {
  private client?: pg.Client;
  private leading = false;
  private lastPurgeAt = 0;
  private purging?: Promise<unknown>;

  constructor(
    private readonly db: Db,
    private readonly connectionString: string,
    private readonly log: (line: string) => void = () => {},
    private readonly options: { eventsPurgeIntervalMs?: number } = {},
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
    const targets = homeless.map(() => {
      const [target] = [...load.entries()].sort((a, b) => a[1] - b[1] || a[0] - b[0])[0];
      load.set(target, (load.get(target) ?? 0) + 1);
      return target;
    });
    // One statement for all of them: a cluster that gains thousands of jobs at once (an import) is placed in one round trip.
    await sql`
      update jobs set assigned_node_id = placed.node_id
      from unnest(${homeless.map((job) => job.id)}::int[], ${targets}::int[]) as placed(job_id, node_id)
      where jobs.id = placed.job_id`.execute(this.db);
    return homeless.length + Number(pinned.numAffectedRows ?? 0);
  }

  /**
   * The leader's upkeep, asked for at every sweep: the events purge runs at once when this node
   * becomes the leader, then hourly, on its own (never holding up the sweep that asked).
   */
  maintain(): void {
    const every = this.options.eventsPurgeIntervalMs ?? HOUR_MS;
    if (!this.leading || this.purging || Date.now() - this.lastPurgeAt < every) return;
    this.lastPurgeAt = Date.now();
    this.purging = this.purgeOldEvents()
      .catch((error: Error) => this.log(`purging old job events: ${error.message}`))
      .finally(() => {
        this.purging = undefined;
      });
  }

  /**
   * Job events are kept as many days as each job's statistics setting says (1–30): the leader drops
   * the older ones. Returns how many it dropped, or null on a node that does not lead the cluster.
   */
  async purgeOldEvents(): Promise<number | null> {
    if (!this.leading) return null;
    const purged = await new JobRuntimeRepository(this.db).purgeOldEvents();
    if (purged > 0) this.log(`dropped ${purged} job event(s) older than their job's statistics days`);
    return purged;
  }

  async stop(): Promise<void> {
    await this.purging;
    this.leading = false;
    await this.client?.end().catch(() => {});
    this.client = undefined;
  }
}
