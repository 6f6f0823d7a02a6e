/**
 * What a session or token hash resolved to a moment ago. Every API request is authenticated; without
 * this each one would cost a Postgres round trip before any work. An entry lives CREDENTIAL_TTL_MS at
 * most, and the whole cache is dropped at once when any user or token changes (the `users` and
 * `tokens` events, which reach every API process), so a revoked token, a disabled user or a changed
 * role is refused at the next request here and within CREDENTIAL_TTL_MS anywhere.
 */
export const CREDENTIAL_TTL_MS = 1000;
/** Distinct credentials kept at most; past it the cache starts over. */
const MAX_ENTRIES = 10_000;

export class CredentialCache<T> {
  private readonly entries = new Map<string, { at: number; value: T }>();

  get(hash: string, now = Date.now()): T | undefined {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (now - entry.at < CREDENTIAL_TTL_MS) return entry.value;
    this.entries.delete(hash);
    return undefined;
  }

  put(hash: string, value: T, now = Date.now()): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(hash, { at: now, value });
  }

  forget(hash: string): void {
    this.entries.delete(hash);
  }

  clear(): void {
    this.entries.clear();
  }
}
