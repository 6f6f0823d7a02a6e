import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

export interface StatisticsEventRow {
  id: number;
  at: string;
  type: string;
  reason: string | null;
}

export interface StatisticsJobRow {
  id: number;
  kind: 'relay' | 'encoding';
  name: string;
  active: boolean;
  statistics_days: number | null;
  /** The events since `since`, oldest first. */
  events: StatisticsEventRow[];
  /** The last event before `since` that sets a condition (not RESTART or FAILOVER): how the window starts. */
  before: StatisticsEventRow | null;
}

export interface TaskCounts {
  activeTasks: number;
  allTasks: number;
  servicesUp: number;
  servicesDown: number;
}

/** The reads of the statistics cards and of the dashboard's task counts (Kysely only). */
export class StatisticsRepository {
  constructor(private readonly db: Db) {}

  /** Every job with statistics on, with its events since `since`, in ONE query. */
  async jobsWithEvents(since: Date): Promise<StatisticsJobRow[]> {
    const result = await sql<StatisticsJobRow>`
      select j.id, j.kind, j.name, j.active, (j.config->>'statisticsDays')::int as statistics_days,
        coalesce((
          select json_agg(json_build_object('id', e.id, 'at', e.at, 'type', e.type, 'reason', e.reason) order by e.at, e.id)
          from job_events e where e.job_id = j.id and e.at >= ${since}
        ), '[]'::json) as events,
        (
          select json_build_object('id', p.id, 'at', p.at, 'type', p.type, 'reason', p.reason)
          from job_events p
          where p.job_id = j.id and p.at < ${since} and p.type not in ('RESTART', 'FAILOVER')
          order by p.at desc, p.id desc limit 1
        ) as before
      from jobs j
      where not j.is_template and coalesce((j.config->>'statistics')::boolean, false)
      order by lower(j.name), j.id`.execute(this.db);
    return result.rows;
  }

  /** Jobs (templates left out) on a node, or on every node when `nodeId` is absent. */
  async taskCounts(nodeId?: number): Promise<TaskCounts> {
    const onNode = nodeId === undefined ? sql`true` : sql`coalesce(j.assigned_node_id, j.node_id) = ${nodeId}`;
    const result = await sql<{ active: string; total: string; up: string; down: string }>`
      select count(*) filter (where j.active) as active, count(*) as total,
        count(*) filter (where j.active and s.state = 'running') as up,
        count(*) filter (where j.active and coalesce(s.state, 'stopped') <> 'running') as down
      from jobs j left join job_status s on s.job_id = j.id
      where not j.is_template and ${onNode}`.execute(this.db);
    const row = result.rows[0];
    return { activeTasks: Number(row?.active ?? 0), allTasks: Number(row?.total ?? 0), servicesUp: Number(row?.up ?? 0), servicesDown: Number(row?.down ?? 0) };
  }

  /** The counts of `taskCounts` for every node in one query, and their sum (jobs on no node included). */
  async taskCountsByNode(): Promise<{ total: TaskCounts; byNode: Map<number, TaskCounts> }> {
    const result = await sql<{ node: number | null; active: string; total: string; up: string; down: string }>`
      select coalesce(j.assigned_node_id, j.node_id) as node, count(*) filter (where j.active) as active, count(*) as total,
        count(*) filter (where j.active and s.state = 'running') as up,
        count(*) filter (where j.active and coalesce(s.state, 'stopped') <> 'running') as down
      from jobs j left join job_status s on s.job_id = j.id
      where not j.is_template
      group by 1`.execute(this.db);
    const total: TaskCounts = { activeTasks: 0, allTasks: 0, servicesUp: 0, servicesDown: 0 };
    const byNode = new Map<number, TaskCounts>();
    for (const row of result.rows) {
      const counts = { activeTasks: Number(row.active), allTasks: Number(row.total), servicesUp: Number(row.up), servicesDown: Number(row.down) };
      for (const key of Object.keys(total) as Array<keyof TaskCounts>) total[key] += counts[key];
      if (row.node !== null) byNode.set(Number(row.node), counts);
    }
    return { total, byNode };
  }
}
