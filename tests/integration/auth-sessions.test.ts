import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../api/auth/secrets.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import type { Schemas } from '../../openapi/client/index.ts';

type UserBody = Schemas['User'];
type ErrorBody = Schemas['Error'];

let app: TestApp;
let adminCookie: string;

const sessionStatus = async (cookie: string) => (await app.request('/api/auth/session', { cookie })).status;
const hashOf = (cookie: string) => sha256(cookie.slice(cookie.indexOf('=') + 1));

/** The form's save: the whole user, as GET returns it, with some fields changed. */
async function saveUser(id: number, changes: Record<string, unknown>, cookie = adminCookie): Promise<Response> {
  const current = (await (await app.request(`/api/users/${id}`, { cookie })).json()) as UserBody;
  const { role, ...rest } = current;
  const body = {
    username: rest.username,
    role: role.value,
    email: rest.email,
    phoneNumber: rest.phoneNumber,
    enabled: rest.enabled,
    permissions: rest.permissions,
    relaysLimit: rest.relaysLimit,
    encodingsLimit: rest.encodingsLimit,
    timeshiftPlayersLimit: rest.timeshiftPlayersLimit,
    timeshiftRecordersLimit: rest.timeshiftRecordersLimit,
    ...changes,
  };
  return app.request(`/api/users/${id}`, { method: 'PUT', cookie, json: body });
}

beforeAll(async () => {
  app = await startTestApp();
  const admin = await app.createUser({ username: 'admin', role: 'ADMIN' });
  adminCookie = await app.signIn(admin.username, admin.password);
});
afterAll(() => app.close());

describe('session timeouts', () => {
  it('ends a session idle for longer than the idle timeout (60 minutes)', async () => {
    const user = await app.createUser({ username: 'idler' });
    const cookie = await app.signIn(user.username, user.password);
    await app.db
      .updateTable('sessions')
      .set({ last_seen_at: sql<Date>`now() - interval '61 minutes'` as never })
      .where('id_hash', '=', hashOf(cookie))
      .execute();
    const response = await app.request('/api/auth/session', { cookie });
    expect(response.status).toBe(401);
    expect(((await response.json()) as ErrorBody).code).toBe('UNAUTHORIZED');
  });

  it('keeps a session alive while it is used, and moves its idle clock', async () => {
    const user = await app.createUser({ username: 'busy' });
    const cookie = await app.signIn(user.username, user.password);
    await app.db
      .updateTable('sessions')
      .set({ last_seen_at: sql<Date>`now() - interval '59 minutes'` as never })
      .where('id_hash', '=', hashOf(cookie))
      .execute();
    expect(await sessionStatus(cookie)).toBe(200);
    const row = await app.db.selectFrom('sessions').select('last_seen_at').where('id_hash', '=', hashOf(cookie)).executeTakeFirstOrThrow();
    expect(Date.now() - row.last_seen_at.getTime()).toBeLessThan(60_000);
    expect(await sessionStatus(cookie)).toBe(200);
  });

  it('ends a session at its absolute timeout even while it is used', async () => {
    const user = await app.createUser({ username: 'marathon' });
    const cookie = await app.signIn(user.username, user.password);
    const session = (await (await app.request('/api/auth/session', { cookie })).json()) as { expiresAt: string };
    expect(Date.parse(session.expiresAt) - Date.now()).toBeGreaterThan(11.9 * 3_600_000);
    await app.db
      .updateTable('sessions')
      .set({ expires_at: sql<Date>`now() - interval '1 second'` as never, last_seen_at: sql<Date>`now()` as never })
      .where('id_hash', '=', hashOf(cookie))
      .execute();
    // The clock moved on by hours, not by the second a resolved session is kept for.
    app.services.auth.forgetCredentials();
    expect(await sessionStatus(cookie)).toBe(401);
  });

  it('enforces a short policy of a services instance made with one', async () => {
    const { AuthService } = await import('../../api/services/auth.service.ts');
    const { UsersRepository } = await import('../../api/repositories/users.repository.ts');
    const { SessionsRepository } = await import('../../api/repositories/sessions.repository.ts');
    const { TokensRepository } = await import('../../api/repositories/tokens.repository.ts');
    const { LoginHistoryRepository } = await import('../../api/repositories/login-history.repository.ts');
    const auth = new AuthService(new UsersRepository(app.db), new SessionsRepository(app.db), new TokensRepository(app.db), new LoginHistoryRepository(app.db), {
      sessionIdleMinutes: 1,
      sessionMaxHours: 1,
      maxFailuresPerAccount: 5,
      maxFailuresPerAddress: 20,
      throttleWindowMinutes: 15,
    });
    const user = await app.createUser({ username: 'short-policy' });
    const signedIn = await auth.login(user.username, user.password, { ip: '10.9.0.1', userAgent: 'test' });
    expect(signedIn.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(3_600_000);
    expect(await auth.principalForSession(signedIn.sessionId)).toBeDefined();
    // Used 50 s after its last request, a session with a 1-minute idle timeout starts a new minute.
    await app.db
      .updateTable('sessions')
      .set({ last_seen_at: sql<Date>`now() - interval '50 seconds'` as never })
      .where('id_hash', '=', sha256(signedIn.sessionId))
      .execute();
    auth.forgetCredentials(); // 50 s went by, not the second a resolved session is kept for
    expect(await auth.principalForSession(signedIn.sessionId)).toBeDefined();
    const row = await app.db.selectFrom('sessions').select('last_seen_at').where('id_hash', '=', sha256(signedIn.sessionId)).executeTakeFirstOrThrow();
    expect(Date.now() - row.last_seen_at.getTime()).toBeLessThan(30_000);
    // Left alone past the minute, it ends.
    await app.db
      .updateTable('sessions')
      .set({ last_seen_at: sql<Date>`now() - interval '61 seconds'` as never })
      .where('id_hash', '=', sha256(signedIn.sessionId))
      .execute();
    auth.forgetCredentials(); // a minute went by, not the second a resolved session is kept for
    expect(await auth.principalForSession(signedIn.sessionId)).toBeUndefined();
  });
});

describe('POST /api/auth/logout', () => {
  it('revokes the session and clears the cookie', async () => {
    const user = await app.createUser({ username: 'leaver' });
    const cookie = await app.signIn(user.username, user.password);
    const response = await app.request('/api/auth/logout', { method: 'POST', cookie });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(response.headers.get('set-cookie')).toMatch(/^mp_session=;.*Expires=Thu, 01 Jan 1970/);
    expect(await sessionStatus(cookie)).toBe(401);
    expect(await app.db.selectFrom('sessions').select('id_hash').where('id_hash', '=', hashOf(cookie)).executeTakeFirst()).toBeUndefined();
  });

  it('answers ok without a session', async () => {
    const response = await app.request('/api/auth/logout', { method: 'POST' });
    expect(response.status).toBe(200);
  });
});

describe('changes that end the sessions of a user', () => {
  it('a password change revokes every session of the user; the new password signs in', async () => {
    const user = await app.createUser({ username: 'rekeyed' });
    const laptop = await app.signIn(user.username, user.password);
    const phone = await app.signIn(user.username, user.password);
    const response = await saveUser(user.id, { password: 'a-new-password-2', confirm: 'a-new-password-2' });
    expect(response.status).toBe(200);
    expect(await sessionStatus(laptop)).toBe(401);
    expect(await sessionStatus(phone)).toBe(401);
    expect(await sessionStatus(adminCookie)).toBe(200); // the editor's own session is untouched
    expect((await app.request('/api/auth/login', { method: 'POST', json: { username: 'rekeyed', password: user.password } })).status).toBe(401);
    expect(await app.signIn('rekeyed', 'a-new-password-2')).toMatch(/^mp_session=/);
  });

  it('a role change revokes the sessions of the user', async () => {
    const user = await app.createUser({ username: 'promoted' });
    const cookie = await app.signIn(user.username, user.password);
    expect((await saveUser(user.id, { role: 'ADMIN' })).status).toBe(200);
    expect(await sessionStatus(cookie)).toBe(401);
  });

  it('disabling the user revokes its sessions (PUT /api/users/{id}/enabled)', async () => {
    const user = await app.createUser({ username: 'suspended' });
    const cookie = await app.signIn(user.username, user.password);
    const response = await app.request(`/api/users/${user.id}/enabled`, { method: 'PUT', cookie: adminCookie, json: { enabled: false } });
    expect(response.status).toBe(200);
    expect(await sessionStatus(cookie)).toBe(401);
    // Enabling again does not bring the old session back.
    await app.request(`/api/users/${user.id}/enabled`, { method: 'PUT', cookie: adminCookie, json: { enabled: true } });
    expect(await sessionStatus(cookie)).toBe(401);
  });

  it('disabling the user in the form revokes its sessions (PUT /api/users/{id})', async () => {
    const user = await app.createUser({ username: 'suspended-by-form' });
    const cookie = await app.signIn(user.username, user.password);
    expect((await saveUser(user.id, { enabled: false })).status).toBe(200);
    expect(await sessionStatus(cookie)).toBe(401);
  });

  it('a change of permissions applies to the open session at its next request', async () => {
    const user = await app.createUser({ username: 'growing' });
    const cookie = await app.signIn(user.username, user.password);
    expect((await app.request('/api/users', { cookie })).status).toBe(403);
    expect((await saveUser(user.id, { permissions: { user: { level: 'USER_VIEW', hide: false } } })).status).toBe(200);
    expect((await app.request('/api/users', { cookie })).status).toBe(200);
  });

  it('saving a user without changing password, role or enabled keeps its sessions', async () => {
    const user = await app.createUser({ username: 'steady' });
    const cookie = await app.signIn(user.username, user.password);
    expect((await saveUser(user.id, { email: 'steady@example.com' })).status).toBe(200);
    expect(await sessionStatus(cookie)).toBe(200);
  });
});

describe('cross-site writes', () => {
  it('refuses a write whose Origin is another host (403 CROSS_SITE_REQUEST)', async () => {
    const response = await app.request('/api/tokens', { method: 'POST', cookie: adminCookie, json: { name: 'csrf' }, headers: { origin: 'https://evil.example' } });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: 'CROSS_SITE_REQUEST', message: 'Cross-site requests are refused.' });
    const tokens = (await (await app.request('/api/tokens', { cookie: adminCookie })).json()) as { items: Array<{ name: string }> };
    expect(tokens.items.map((t) => t.name)).not.toContain('csrf');
  });

  it('refuses a sign-in from another site (login CSRF)', async () => {
    const user = await app.createUser({ username: 'csrf-victim' });
    const response = await app.request('/api/auth/login', { method: 'POST', json: { username: user.username, password: user.password }, headers: { origin: 'http://evil.example' } });
    expect(response.status).toBe(403);
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('allows a write from the same origin', async () => {
    const response = await app.request('/api/tokens', { method: 'POST', cookie: adminCookie, json: { name: 'same-origin' }, headers: { origin: app.url, 'sec-fetch-site': 'same-origin' } });
    expect(response.status).toBe(201);
  });

  it('refuses a write marked Sec-Fetch-Site: cross-site', async () => {
    const response = await app.request('/api/tokens', { method: 'POST', cookie: adminCookie, json: { name: 'fetch-site' }, headers: { 'sec-fetch-site': 'cross-site' } });
    expect(response.status).toBe(403);
    expect(((await response.json()) as ErrorBody).code).toBe('CROSS_SITE_REQUEST');
  });

  it('refuses a write from an opaque origin (Origin: null, as a sandboxed frame sends)', async () => {
    const response = await app.request('/api/auth/logout', { method: 'POST', cookie: adminCookie, headers: { origin: 'null' } });
    expect(response.status).toBe(403);
    expect(await sessionStatus(adminCookie)).toBe(200);
  });

  it('lets reads through from another origin (they change nothing)', async () => {
    const response = await app.request('/api/auth/session', { cookie: adminCookie, headers: { origin: 'https://evil.example' } });
    expect(response.status).toBe(200);
  });

  it('allows a write with no Origin at all (the CLI and automation)', async () => {
    const response = await app.request('/api/tokens', { method: 'POST', cookie: adminCookie, json: { name: 'cli' } });
    expect(response.status).toBe(201);
  });
});
