import type { Db } from '../db/database.ts';
import type { LoginHistoryRow } from '../db/tables.ts';

export interface LoginAttempt {
  username: string;
  userId: number | null;
  ip: string;
  location: string | null;
  userAgent: string;
  success: boolean;
  reason: string | null;
}

/** Reasons that count towards throttling: a guess that failed. */
export const FAILED_GUESS_REASONS = ['bad_credentials', 'disabled', 'bad_token'];

export class LoginHistoryRepository {
  constructor(private readonly db: Db) {}

  async insert(attempt: LoginAttempt): Promise<void> {
    await this.db
      .insertInto('login_history')
      .values({
        username: attempt.username.slice(0, 200),
        user_id: attempt.userId,
        ip: attempt.ip,
        location: attempt.location,
        user_agent: attempt.userAgent,
        success: attempt.success,
        reason: attempt.reason,
      })
      .execute();
  }

  /** Failed guesses for this username since `since` and after its last success, with the oldest of them. */
  async recentFailuresForUsername(username: string, since: Date): Promise<{ count: number; oldest: Date | null }> {
    const lastSuccess = this.db
      .selectFrom('login_history')
      .select((eb) => eb.fn.max('created_at').as('t'))
      .where((eb) => eb(eb.fn('lower', ['username']), '=', username.toLowerCase()))
      .where('success', '=', true);
    const row = await this.db
      .selectFrom('login_history')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('created_at').as('oldest')])
      .where((eb) => eb(eb.fn('lower', ['username']), '=', username.toLowerCase()))
      .where('success', '=', false)
      .where('reason', 'in', FAILED_GUESS_REASONS)
      .where('created_at', '>', since)
      .where((eb) => eb.or([eb(lastSuccess, 'is', null), eb('created_at', '>', lastSuccess)]))
      .executeTakeFirstOrThrow();
    return { count: Number(row.n), oldest: (row.oldest as Date | null) ?? null };
  }

  async recentFailuresForIp(ip: string, since: Date): Promise<{ count: number; oldest: Date | null }> {
    const row = await this.db
      .selectFrom('login_history')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('created_at').as('oldest')])
      .where('ip', '=', ip)
      .where('success', '=', false)
      .where('reason', 'in', FAILED_GUESS_REASONS)
      .where('created_at', '>', since)
      .executeTakeFirstOrThrow();
    return { count: Number(row.n), oldest: (row.oldest as Date | null) ?? null };
  }

  async list(filter: { search?: string; order: 'asc' | 'desc'; offset: number; limit: number }): Promise<{ rows: LoginHistoryRow[]; total: number }> {
    let query = this.db.selectFrom('login_history');
    if (filter.search) {
      const term = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query = query.where((eb) => eb.or([eb('username', 'ilike', term), eb('ip', 'ilike', term), eb('location', 'ilike', term), eb('user_agent', 'ilike', term)]));
    }
    const [rows, total] = await Promise.all([
      query.selectAll().orderBy('created_at', filter.order).orderBy('id', filter.order).offset(filter.offset).limit(filter.limit).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }
}
