import { sql, type Generated, type Selectable } from 'kysely';
import type { Db } from '../db/database.ts';

/** The table of migration 20261126T100000-streampool-servers. */
export interface StreampoolServersTable {
  id: Generated<number>;
  alias: string;
  publish_address: string;
  playback_address: string;
  api_key_sealed: string;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export type StreampoolServerRow = Selectable<StreampoolServersTable> & { usage_count: number };

export interface StreampoolServerColumns {
  alias: string;
  publish_address: string;
  playback_address: string;
  api_key_sealed: string;
}

export class StreampoolServersRepository {
  private readonly db;

  constructor(db: Db) {
    this.db = db.withTables<{ streampool_servers: StreampoolServersTable }>();
  }

  /** Usage: jobs (templates too) with an output whose deliveryOptions name the server. */
  private usage() {
    return sql<number>`(select count(*)::int from jobs j where j.config -> 'outputs' @> jsonb_build_array(jsonb_build_object('deliveryOptions', jsonb_build_array(jsonb_build_object('server', s.id)))))`;
  }

  list(): Promise<StreampoolServerRow[]> {
    return this.db.selectFrom('streampool_servers as s').selectAll('s').select(this.usage().as('usage_count')).orderBy('s.id').execute();
  }

  findById(id: number): Promise<StreampoolServerRow | undefined> {
    return this.db.selectFrom('streampool_servers as s').selectAll('s').select(this.usage().as('usage_count')).where('s.id', '=', id).executeTakeFirst();
  }

  async insert(columns: StreampoolServerColumns): Promise<number> {
    const row = await this.db.insertInto('streampool_servers').values(columns).returning('id').executeTakeFirstOrThrow();
    return row.id;
  }

  async update(id: number, columns: Partial<StreampoolServerColumns>): Promise<boolean> {
    const result = await this.db
      .updateTable('streampool_servers')
      .set({ ...columns, updated_at: sql<Date>`now()` })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('streampool_servers').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
