import { sql } from 'kysely';
import { MAX_ID } from '../../openapi/schemas/common.ts';
import type { Db } from '../db/database.ts';
import type { NewUserRow, UserRow, UserRowUpdate } from '../db/tables.ts';

export interface UserListFilter {
  search?: string;
  enabled?: boolean;
  role?: string;
  sort: 'username' | 'id';
  order: 'asc' | 'desc';
  offset: number;
  limit: number;
}

/** Is this the unique violation of the case-insensitive username index (a name taken by a concurrent request)? */
export function isUsernameTakenError(error: unknown): boolean {
  const pgError = error as { code?: string; constraint?: string } | undefined;
  return pgError?.code === '23505' && pgError.constraint === 'users_username_lower';
}

export class UsersRepository {
  constructor(private readonly db: Db) {}

  /**
   * Run `change` in a transaction holding the one lock of user changes, with a repository bound to
   * it, so two changes checked against the same state (the last enabled ADMIN) cannot both pass.
   */
  withChangeLock<T>(change: (users: UsersRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtext('mediaplane.users'))`.execute(trx);
      return change(new UsersRepository(trx));
    });
  }

  findById(id: number): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByUsername(username: string): Promise<UserRow | undefined> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where(sql`lower(username)`, '=', username.toLowerCase())
      .executeTakeFirst();
  }

  async list(filter: UserListFilter): Promise<{ rows: UserRow[]; total: number; counts: { total: number; active: number; failed: number } }> {
    let query = this.db.selectFrom('users');
    if (filter.search) {
      const term = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const id = /^\d{1,10}$/.test(filter.search) && Number(filter.search) <= MAX_ID ? Number(filter.search) : undefined;
      query = query.where((eb) =>
        eb.or([eb('username', 'ilike', term), eb('email', 'ilike', term), ...(id !== undefined ? [eb('id', '=', id)] : [])]),
      );
    }
    if (filter.enabled !== undefined) query = query.where('enabled', '=', filter.enabled);
    if (filter.role) query = query.where('role', '=', filter.role);
    const sortColumn = filter.sort === 'id' ? sql`id` : sql`lower(username)`;
    const [rows, total, counts] = await Promise.all([
      query
        .selectAll()
        .orderBy(sortColumn, filter.order)
        .orderBy('id', 'asc')
        .offset(filter.offset)
        .limit(filter.limit)
        .execute(),
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      this.db
        .selectFrom('users')
        .select((eb) => [
          eb.fn.countAll<number>().as('total'),
          eb.fn.count<number>('id').filterWhere('enabled', '=', true).as('active'),
          eb.fn.count<number>('id').filterWhere('enabled', '=', false).as('failed'),
        ])
        .executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n), counts: { total: Number(counts.total), active: Number(counts.active), failed: Number(counts.failed) } };
  }

  insert(row: NewUserRow): Promise<UserRow> {
    return this.db.insertInto('users').values(row).returningAll().executeTakeFirstOrThrow();
  }

  update(id: number, changes: UserRowUpdate): Promise<UserRow | undefined> {
    return this.db
      .updateTable('users')
      .set({ ...changes, updated_at: sql<Date>`now()` as never })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  async delete(id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('users').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async countEnabledAdmins(exceptId?: number): Promise<number> {
    let query = this.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).where('role', '=', 'ADMIN').where('enabled', '=', true);
    if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
    return Number((await query.executeTakeFirstOrThrow()).n);
  }

  async count(): Promise<number> {
    return Number((await this.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  }
}
