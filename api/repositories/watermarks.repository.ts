import { sql } from 'kysely';
import { MAX_ID } from '../../openapi/schemas/common.ts';
import type { Db } from '../db/database.ts';
import type { WatermarkRow } from '../db/tables.ts';

export type WatermarkListRow = WatermarkRow & { job_count: number };

export interface WatermarkColumns {
  name: string;
  file: string;
  alpha: number;
  scale_percent: number;
  image_width: number;
  image_height: number;
  scaled_width: number;
  scaled_height: number;
  resolution: { value: string; name: string; width: number; height: number };
  x: number;
  y: number;
}

export interface WatermarkListFilter {
  search?: string;
  sort: 'name' | 'id';
  order: 'asc' | 'desc';
  offset: number;
  limit: number;
}

/** A foreign-key violation: an encoding took the watermark while it was being deleted. */
export function isWatermarkInUseError(error: unknown): boolean {
  return (error as { code?: string } | undefined)?.code === '23503';
}

export class WatermarksRepository {
  constructor(private readonly db: Db) {}

  private query() {
    return this.db
      .selectFrom('watermarks')
      .selectAll('watermarks')
      .select((eb) => eb.selectFrom('jobs').select((j) => j.fn.countAll<string>().as('n')).whereRef('jobs.watermark_id', '=', 'watermarks.id').as('job_count'));
  }

  async list(filter: WatermarkListFilter): Promise<{ rows: WatermarkListRow[]; total: number }> {
    let base = this.db.selectFrom('watermarks');
    let query = this.query();
    if (filter.search) {
      const term = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const id = /^\d{1,10}$/.test(filter.search) && Number(filter.search) <= MAX_ID ? Number(filter.search) : undefined;
      base = base.where((eb) => eb.or([eb('name', 'ilike', term), ...(id !== undefined ? [eb('id', '=', id)] : [])]));
      query = query.where((eb) => eb.or([eb('watermarks.name', 'ilike', term), ...(id !== undefined ? [eb('watermarks.id', '=', id)] : [])]));
    }
    const sort = filter.sort === 'id' ? sql`watermarks.id` : sql`lower(watermarks.name)`;
    const [rows, total] = await Promise.all([
      query.orderBy(sort, filter.order).orderBy('watermarks.id', 'asc').offset(filter.offset).limit(filter.limit).execute(),
      base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows: rows.map(withCount), total: Number(total.n) };
  }

  async findById(id: number): Promise<WatermarkListRow | undefined> {
    const row = await this.query().where('watermarks.id', '=', id).executeTakeFirst();
    return row && withCount(row);
  }

  async insert(columns: WatermarkColumns): Promise<number> {
    const row = await this.db
      .insertInto('watermarks')
      .values({ ...columns, resolution: JSON.stringify(columns.resolution) })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async update(id: number, columns: WatermarkColumns): Promise<boolean> {
    const result = await this.db
      .updateTable('watermarks')
      .set({ ...columns, resolution: JSON.stringify(columns.resolution), updated_at: sql<Date>`now()` as never })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(id: number): Promise<boolean> {
    return Number((await this.db.deleteFrom('watermarks').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0;
  }

  /** The stored files some watermark uses. */
  async filesInUse(): Promise<Set<string>> {
    const rows = await this.db.selectFrom('watermarks').select('file').distinct().execute();
    return new Set(rows.map((r) => r.file));
  }

  async isFileInUse(file: string): Promise<boolean> {
    return (await this.db.selectFrom('watermarks').select('id').where('file', '=', file).limit(1).executeTakeFirst()) !== undefined;
  }
}

function withCount<T extends { job_count: string | number | null }>(row: T): T & { job_count: number } {
  return { ...row, job_count: Number(row.job_count ?? 0) };
}
