import type { Db } from '../db/database.ts';
import type { UserRow } from '../db/tables.ts';

export interface SessionWithUser {
  idHash: string;
  expiresAt: Date;
  lastSeenAt: Date;
  user: UserRow;
}

export class SessionsRepository {
  constructor(private readonly db: Db) {}

  async insert(session: { idHash: string; userId: number; expiresAt: Date; ip: string; userAgent: string }): Promise<void> {
    await this.db
      .insertInto('sessions')
      .values({ id_hash: session.idHash, user_id: session.userId, expires_at: session.expiresAt, ip: session.ip, user_agent: session.userAgent })
      .execute();
  }

  /** The session and its user, if it has neither expired nor been idle past `idleSince`. */
  async findActive(idHash: string, idleSince: Date): Promise<SessionWithUser | undefined> {
    const row = await this.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .selectAll('users')
      .select(['sessions.id_hash', 'sessions.expires_at', 'sessions.last_seen_at'])
      .where('sessions.id_hash', '=', idHash)
      .where('sessions.expires_at', '>', new Date())
      .where('sessions.last_seen_at', '>', idleSince)
      .executeTakeFirst();
    if (!row) return undefined;
    const { id_hash, expires_at, last_seen_at, ...user } = row;
    return { idHash: id_hash, expiresAt: expires_at, lastSeenAt: last_seen_at, user: user as UserRow };
  }

  async touch(idHash: string): Promise<void> {
    await this.db.updateTable('sessions').set({ last_seen_at: new Date() }).where('id_hash', '=', idHash).execute();
  }

  async delete(idHash: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
  }

  async deleteForUser(userId: number): Promise<void> {
    await this.db.deleteFrom('sessions').where('user_id', '=', userId).execute();
  }

  async deleteExpired(idleSince: Date): Promise<number> {
    const result = await this.db
      .deleteFrom('sessions')
      .where((eb) => eb.or([eb('expires_at', '<=', new Date()), eb('last_seen_at', '<=', idleSince)]))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
