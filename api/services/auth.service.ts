import { CredentialCache } from '../auth/credential-cache.ts';
import { countryOf } from '../auth/geoip.ts';
import { burnPasswordCheck, verifyPassword } from '../auth/passwords.ts';
import { principalOf, type ClientInfo, type Principal } from '../auth/principal.ts';
import { newSecret, sha256 } from '../auth/secrets.ts';
import type { UserRow } from '../db/tables.ts';
import type { EventBus } from '../events/event-bus.ts';
import { TooManyRequestsError, UnauthorizedError } from '../errors.ts';
import type { LoginHistoryRepository } from '../repositories/login-history.repository.ts';
import type { SessionsRepository } from '../repositories/sessions.repository.ts';
import type { TokensRepository } from '../repositories/tokens.repository.ts';
import type { UsersRepository } from '../repositories/users.repository.ts';

export interface AuthPolicy {
  sessionIdleMinutes: number;
  sessionMaxHours: number;
  /** Failed guesses per account within the window before it is throttled. */
  maxFailuresPerAccount: number;
  /** Failed guesses per address within the window before it is throttled. */
  maxFailuresPerAddress: number;
  throttleWindowMinutes: number;
}

export const DEFAULT_AUTH_POLICY: Omit<AuthPolicy, 'sessionIdleMinutes' | 'sessionMaxHours'> = {
  maxFailuresPerAccount: 5,
  maxFailuresPerAddress: 20,
  throttleWindowMinutes: 15,
};

export interface SignedIn {
  /** The raw session id, for the cookie; only its hash is stored. */
  sessionId: string;
  user: UserRow;
  expiresAt: Date;
}

const INVALID_CREDENTIALS = 'Invalid username or password.';
/** Touching last_seen_at on every request would write per request; once a minute is enough for the idle timeout. */
const TOUCH_EVERY_MS = 60_000;
/** Touch at least four times per idle timeout, so a short timeout cannot end a session in use. */
const TOUCHES_PER_IDLE_TIMEOUT = 4;

/** Topics whose events may change what a credential resolves to. */
const CREDENTIAL_TOPICS = new Set(['users', 'tokens']);

export class AuthService {
  private readonly sessionCache = new CredentialCache<{ principal: Principal; expiresAt: Date }>();
  private readonly tokenCache = new CredentialCache<Principal>();
  /** Recently presented credentials and their hashes (hashOfCredential). */
  private readonly credentialHashes = new Map<string, string>();

  constructor(
    private readonly users: UsersRepository,
    private readonly sessions: SessionsRepository,
    private readonly tokens: TokensRepository,
    private readonly history: LoginHistoryRepository,
    private readonly policy: AuthPolicy,
    events?: EventBus,
  ) {
    events?.subscribe((event) => {
      if (CREDENTIAL_TOPICS.has(event.topic)) this.forgetCredentials();
    });
  }

  /** Drop every credential resolved a moment ago: the next request of each reads Postgres again. */
  forgetCredentials(): void {
    this.sessionCache.clear();
    this.tokenCache.clear();
  }

  get idleTimeoutSeconds(): number {
    return this.policy.sessionIdleMinutes * 60;
  }

  /** Sign in with a password. Unknown user and wrong password answer alike, in time as in words. */
  async login(username: string, password: string, client: ClientInfo): Promise<SignedIn> {
    await this.refuseIfThrottled(username, client);
    const user = await this.users.findByUsername(username);
    if (!user) {
      await burnPasswordCheck(password);
      await this.record(username, null, client, false, 'bad_credentials');
      throw new UnauthorizedError(INVALID_CREDENTIALS, 'INVALID_CREDENTIALS');
    }
    if (!(await verifyPassword(user.password_hash, password))) {
      await this.record(username, user.id, client, false, 'bad_credentials');
      throw new UnauthorizedError(INVALID_CREDENTIALS, 'INVALID_CREDENTIALS');
    }
    if (!user.enabled) {
      await this.record(username, user.id, client, false, 'disabled');
      throw new UnauthorizedError('This account is disabled. Ask an administrator to enable it.', 'ACCOUNT_DISABLED');
    }
    await this.record(user.username, user.id, client, true, null);
    return this.openSession(user, client);
  }

  /** The alternate login: a personal API token opens a console session for its user. */
  async loginWithToken(token: string, client: ClientInfo): Promise<SignedIn> {
    await this.refuseIfThrottled(null, client);
    const found = await this.tokens.findLive(sha256(token));
    if (!found) {
      await this.record('(token)', null, client, false, 'bad_token');
      throw new UnauthorizedError('Invalid or revoked token.', 'INVALID_TOKEN');
    }
    if (!found.user.enabled) {
      await this.record(found.user.username, found.user.id, client, false, 'disabled');
      throw new UnauthorizedError('This account is disabled. Ask an administrator to enable it.', 'ACCOUNT_DISABLED');
    }
    await this.record(found.user.username, found.user.id, client, true, 'token');
    await this.tokens.touch(found.token.id);
    return this.openSession(found.user, client);
  }

  async logout(sessionId: string | undefined): Promise<void> {
    if (!sessionId) return;
    const idHash = sha256(sessionId);
    this.sessionCache.forget(idHash);
    await this.sessions.delete(idHash);
  }

  /**
   * The principal behind a session cookie, or undefined when it is unknown, idle or expired.
   * `touch: false` checks without counting as activity (a live stream re-checking its session), and
   * always reads Postgres; a request reuses what its session resolved to a moment ago.
   */
  async principalForSession(sessionId: string, { touch = true }: { touch?: boolean } = {}): Promise<{ principal: Principal; expiresAt: Date } | undefined> {
    const idHash = this.hashOfCredential(sessionId);
    const cached = touch ? this.sessionCache.get(idHash) : undefined;
    if (cached && cached.expiresAt.getTime() > Date.now()) return cached;
    const found = await this.sessions.findActive(idHash, this.idleCutoff());
    if (!found || !found.user.enabled) return undefined;
    const touchEveryMs = Math.min(TOUCH_EVERY_MS, (this.policy.sessionIdleMinutes * 60_000) / TOUCHES_PER_IDLE_TIMEOUT);
    if (touch && Date.now() - found.lastSeenAt.getTime() > touchEveryMs) await this.sessions.touch(idHash);
    const resolved = { principal: principalOf(found.user, 'session', idHash), expiresAt: found.expiresAt };
    if (touch) this.sessionCache.put(idHash, resolved);
    return resolved;
  }

  /** The principal behind a personal API token (`Authorization: Bearer`). */
  async principalForToken(token: string, { touch = true }: { touch?: boolean } = {}): Promise<Principal | undefined> {
    const tokenHash = this.hashOfCredential(token);
    const cached = touch ? this.tokenCache.get(tokenHash) : undefined;
    if (cached) return cached;
    const found = await this.tokens.findLive(tokenHash);
    if (!found || !found.user.enabled) return undefined;
    if (touch && (!found.token.last_used_at || Date.now() - found.token.last_used_at.getTime() > TOUCH_EVERY_MS)) await this.tokens.touch(found.token.id);
    const principal = principalOf(found.user, 'token');
    if (touch) this.tokenCache.put(tokenHash, principal);
    return principal;
  }

  /**
   * A credential's hash (what Postgres and the credential caches know it by), remembered for the
   * credentials seen lately: every request presents one, and hashing it each time was a noticeable
   * part of a cached list request.
   */
  private hashOfCredential(secret: string): string {
    let hash = this.credentialHashes.get(secret);
    if (hash === undefined) {
      if (this.credentialHashes.size >= 10_000) this.credentialHashes.clear();
      hash = sha256(secret);
      this.credentialHashes.set(secret, hash);
    }
    return hash;
  }

  async purgeExpiredSessions(): Promise<number> {
    return this.sessions.deleteExpired(this.idleCutoff());
  }

  private idleCutoff(): Date {
    return new Date(Date.now() - this.policy.sessionIdleMinutes * 60_000);
  }

  private async openSession(user: UserRow, client: ClientInfo): Promise<SignedIn> {
    const sessionId = newSecret();
    const expiresAt = new Date(Date.now() + this.policy.sessionMaxHours * 3_600_000);
    await this.sessions.insert({ idHash: sha256(sessionId), userId: user.id, expiresAt, ip: client.ip, userAgent: client.userAgent.slice(0, 1000) });
    return { sessionId, user, expiresAt };
  }

  private async refuseIfThrottled(username: string | null, client: ClientInfo): Promise<void> {
    const windowMs = this.policy.throttleWindowMinutes * 60_000;
    const since = new Date(Date.now() - windowMs);
    const retryAfter = (oldest: Date | null) => Math.max(1, ((oldest?.getTime() ?? Date.now()) + windowMs - Date.now()) / 1000);
    const byAddress = await this.history.recentFailuresForIp(client.ip, since);
    if (byAddress.count >= this.policy.maxFailuresPerAddress) {
      await this.record(username ?? '(token)', null, client, false, 'throttled');
      const seconds = retryAfter(byAddress.oldest);
      throw new TooManyRequestsError(`Too many failed sign-in attempts from this address. Try again in ${Math.ceil(seconds / 60)} minute(s).`, seconds);
    }
    if (username) {
      const byAccount = await this.history.recentFailuresForUsername(username, since);
      if (byAccount.count >= this.policy.maxFailuresPerAccount) {
        await this.record(username, null, client, false, 'throttled');
        const seconds = retryAfter(byAccount.oldest);
        throw new TooManyRequestsError(`Too many failed sign-in attempts for this account. Try again in ${Math.ceil(seconds / 60)} minute(s).`, seconds);
      }
    }
  }

  private async record(username: string, userId: number | null, client: ClientInfo, success: boolean, reason: string | null): Promise<void> {
    await this.history.insert({ username, userId, ip: client.ip, location: countryOf(client.ip), userAgent: client.userAgent, success, reason });
  }
}
