import type { Db } from '../db/database.ts';
import type { ApiTokenRow, UserRow } from '../db/tables.ts';

export class TokensRepository {
  constructor(private readonly db: Db) {}

  insert(token: { userId: number; name: string; tokenHash: string; prefix: string }): Promise<ApiTokenRow> {
    return this.db
      .insertInto('api_tokens')
      .values({ user_id: token.userId, name: token.name, token_hash: token.tokenHash, prefix: token.prefix })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  listForUser(userId: number): Promise<ApiTokenRow[]> {
    return this.db.selectFrom('api_tokens').selectAll().where('user_id', '=', userId).where('revoked_at', 'is', null).orderBy('id', 'desc').execute();
  }

  /** The live token with this hash and its user. */
  async findLive(tokenHash: string): Promise<{ token: ApiTokenRow; user: UserRow } | undefined> {
    const token = await this.db.selectFrom('api_tokens').selectAll().where('token_hash', '=', tokenHash).where('revoked_at', 'is', null).executeTakeFirst();
    if (!token) return undefined;
    const user = await this.db.selectFrom('users').selectAll().where('id', '=', token.user_id).executeTakeFirst();
    return user ? { token, user } : undefined;
  }

  async touch(id: number): Promise<void> {
    await this.db.updateTable('api_tokens').set({ last_used_at: new Date() }).where('id', '=', id).execute();
  }

  async revoke(userId: number, id: number): Promise<boolean> {
    const result = await this.db
      .updateTable('api_tokens')
      .set({ revoked_at: new Date() })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
