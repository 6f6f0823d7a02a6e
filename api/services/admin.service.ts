import { hiddenPermissions } from '../../openapi/permissions.ts';
import { hashPassword } from '../auth/passwords.ts';
import { newPassword } from '../auth/secrets.ts';
import type { SessionsRepository } from '../repositories/sessions.repository.ts';
import type { UsersRepository } from '../repositories/users.repository.ts';

/** The first admin, created on first start or (re)set from the terminal. */
export class AdminService {
  constructor(
    private readonly users: UsersRepository,
    private readonly sessions: SessionsRepository,
  ) {}

  /** On a database with no user at all, create `admin`; returns its one-time password. */
  async ensureFirstAdmin(): Promise<{ username: string; password: string } | undefined> {
    if ((await this.users.count()) > 0) return undefined;
    return this.createOrReset('admin');
  }

  /** Create an ADMIN with this name, or reset the existing one's password, role and enabled flag. */
  async createOrReset(username: string, password = newPassword()): Promise<{ username: string; password: string; created: boolean }> {
    const passwordHash = await hashPassword(password);
    const existing = await this.users.findByUsername(username);
    if (existing) {
      await this.users.update(existing.id, { password_hash: passwordHash, role: 'ADMIN', enabled: true, password_changed_at: new Date() });
      await this.sessions.deleteForUser(existing.id);
      return { username: existing.username, password, created: false };
    }
    await this.users.insert({ username, password_hash: passwordHash, role: 'ADMIN', enabled: true, permissions: JSON.stringify(hiddenPermissions()), email: null, phone_number: null });
    return { username, password, created: true };
  }
}
