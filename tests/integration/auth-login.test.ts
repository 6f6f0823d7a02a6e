import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import type { Schemas } from '../../openapi/client/index.ts';

type ErrorBody = Schemas['Error'];

type HistoryPage = Schemas['LoginHistoryPage'];

let app: TestApp;
let adminCookie: string;

/** Sign in as if from `ip` (the API trusts X-Forwarded-For from loopback, as behind a local proxy). */
function login(username: string, password: string, options: { ip?: string; cookie?: string; userAgent?: string } = {}) {
  return app.request('/api/auth/login', {
    method: 'POST',
    json: { username, password },
    cookie: options.cookie,
    headers: { ...(options.ip ? { 'x-forwarded-for': options.ip } : {}), ...(options.userAgent ? { 'user-agent': options.userAgent } : {}) },
  });
}

const cookieOf = (response: Response) => (response.headers.get('set-cookie') ?? '').split(';')[0];

async function history(search: string): Promise<HistoryPage> {
  const response = await app.request(`/api/users/histories?search=${encodeURIComponent(search)}&size=100`, { cookie: adminCookie });
  expect(response.status).toBe(200);
  return (await response.json()) as HistoryPage;
}

beforeAll(async () => {
  app = await startTestApp();
  const admin = await app.createUser({ username: 'admin', role: 'ADMIN' });
  adminCookie = await app.signIn(admin.username, admin.password);
});
afterAll(() => app.close());

describe('POST /api/auth/login', () => {
  it('sets an httpOnly SameSite=Strict session cookie and returns the Session', async () => {
    const user = await app.createUser({ username: 'alice', permissions: { user: { level: 'USER_VIEW', hide: false } } });
    const response = await login('alice', user.password);
    expect(response.status).toBe(200);

    const setCookie = response.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^mp_session=[\w-]{20,};/);
    expect(setCookie).toMatch(/;\s*HttpOnly/i);
    expect(setCookie).toMatch(/;\s*SameSite=Strict/i);
    expect(setCookie).toMatch(/;\s*Path=\//i);
    expect(setCookie).not.toMatch(/;\s*Secure/i); // plain http here; Secure behind TLS

    const text = await response.text();
    expect(text).not.toMatch(/password|argon2/i);
    const session = JSON.parse(text) as { user: { id: number; username: string; grantedPermissions: string[] }; expiresAt: string; idleTimeoutSeconds: number };
    expect(session.user).toMatchObject({ id: user.id, username: 'alice', grantedPermissions: ['USER_VIEW'] });
    expect(session.idleTimeoutSeconds).toBe(3600);
    const hoursLeft = (Date.parse(session.expiresAt) - Date.now()) / 3_600_000;
    expect(hoursLeft).toBeGreaterThan(11.9);
    expect(hoursLeft).toBeLessThanOrEqual(12);

    const current = await app.request('/api/auth/session', { cookie: cookieOf(response) });
    expect(current.status).toBe(200);
    expect(((await current.json()) as { user: { username: string } }).user.username).toBe('alice');
  });

  it('signs in whatever the case of the username', async () => {
    const user = await app.createUser({ username: 'CaseUser' });
    const response = await login('caseuser', user.password);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { user: { username: string } }).user.username).toBe('CaseUser');
  });

  it('gives a new session id at each sign-in, and the old cookie stops working', async () => {
    const user = await app.createUser({ username: 'rotating' });
    const first = cookieOf(await login(user.username, user.password));
    const again = await login(user.username, user.password, { cookie: first });
    expect(again.status).toBe(200);
    const second = cookieOf(again);
    expect(second).not.toBe(first);

    expect((await app.request('/api/auth/session', { cookie: first })).status).toBe(401);
    expect((await app.request('/api/auth/session', { cookie: second })).status).toBe(200);
  });

  it('answers the same for an unknown user and a wrong password', async () => {
    const user = await app.createUser({ username: 'bob' });
    const wrongPassword = await login(user.username, 'not-the-password', { ip: '10.0.1.1' });
    const unknownUser = await login('nobody-by-this-name', 'not-the-password', { ip: '10.0.1.1' });
    expect(wrongPassword.status).toBe(401);
    expect(unknownUser.status).toBe(401);
    const a = (await wrongPassword.json()) as ErrorBody;
    const b = (await unknownUser.json()) as ErrorBody;
    expect(a.code).toBe('INVALID_CREDENTIALS');
    expect({ code: a.code, message: a.message }).toEqual({ code: b.code, message: b.message });
    expect(a.message).toBe('Invalid username or password.');
    expect(wrongPassword.headers.get('set-cookie')).toBeNull();
    expect(unknownUser.headers.get('set-cookie')).toBeNull();
  });

  it('answers 400 with the field when the username or password is missing', async () => {
    const response = await app.request('/api/auth/login', { method: 'POST', json: { username: '' } });
    expect(response.status).toBe(400);
    const body = (await response.json()) as ErrorBody & { details: Array<{ path: string; message: string }> };
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'body.username', message: 'Username is required' }),
        expect.objectContaining({ path: 'body.password', message: 'Password is required' }),
      ]),
    );
  });

  it('refuses a disabled user, with a message that says so, and opens no session', async () => {
    const user = await app.createUser({ username: 'dormant', enabled: false });
    const response = await login(user.username, user.password, { ip: '10.0.1.2' });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: 'ACCOUNT_DISABLED', message: 'This account is disabled. Ask an administrator to enable it.' });
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('throttles an account after 5 failed attempts: the 6th answers 429 with Retry-After, even with the right password', async () => {
    const user = await app.createUser({ username: 'guessed' });
    for (let i = 0; i < 5; i++) expect((await login(user.username, `wrong-${i}`, { ip: `10.0.2.${i + 1}` })).status).toBe(401);

    const response = await login(user.username, user.password, { ip: '10.0.2.99' });
    expect(response.status).toBe(429);
    const retryAfter = Number(response.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    const body = (await response.json()) as ErrorBody;
    expect(body.code).toBe('TOO_MANY_ATTEMPTS');
    expect(body.message).toMatch(/^Too many failed sign-in attempts for this account\. Try again in \d+ minute\(s\)\.$/);
    expect(response.headers.get('set-cookie')).toBeNull();

    // The throttle is per account: another account signs in from the same address.
    const other = await app.createUser({ username: 'unaffected' });
    expect((await login(other.username, other.password, { ip: '10.0.2.99' })).status).toBe(200);
  });

  it('throttles an address after 20 failed attempts across different usernames', async () => {
    for (let i = 0; i < 20; i++) expect((await login(`someone-${i}`, 'guess', { ip: '10.0.3.1' })).status).toBe(401);

    const user = await app.createUser({ username: 'behind-nat' });
    const refused = await login(user.username, user.password, { ip: '10.0.3.1' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await refused.json()) as ErrorBody).message).toMatch(/^Too many failed sign-in attempts from this address\. Try again in \d+ minute\(s\)\.$/);

    // The same user from another address is not held back.
    expect((await login(user.username, user.password, { ip: '10.0.3.2' })).status).toBe(200);
  });

  it('resets the failure count of an account on a successful sign-in', async () => {
    const user = await app.createUser({ username: 'forgetful' });
    for (let i = 0; i < 4; i++) expect((await login(user.username, 'wrong', { ip: '10.0.4.1' })).status).toBe(401);
    expect((await login(user.username, user.password, { ip: '10.0.4.1' })).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await login(user.username, 'wrong', { ip: '10.0.4.1' })).status).toBe(401);
    // 8 failures in the window, but only 4 since the last success.
    expect((await login(user.username, user.password, { ip: '10.0.4.1' })).status).toBe(200);
  });

  it('records every attempt in the login history with username, ip, user agent, success and reason', async () => {
    const user = await app.createUser({ username: 'historian' });
    const disabled = await app.createUser({ username: 'historian-off', enabled: false });
    await login(user.username, user.password, { ip: '10.0.5.1', userAgent: 'HistoryAgent/1.0 (ok)' });
    await login(user.username, 'wrong', { ip: '10.0.5.1', userAgent: 'HistoryAgent/1.0 (wrong)' });
    await login('historian-ghost', 'wrong', { ip: '10.0.5.1', userAgent: 'HistoryAgent/1.0 (ghost)' });
    await login(disabled.username, disabled.password, { ip: '10.0.5.1', userAgent: 'HistoryAgent/1.0 (off)' });

    const page = await history('HistoryAgent/1.0');
    const rows = page.items.map(({ username, ip, userAgent, success, reason }) => ({ username, ip, userAgent, success, reason }));
    expect(rows).toEqual([
      { username: 'historian-off', ip: '10.0.5.1', userAgent: 'HistoryAgent/1.0 (off)', success: false, reason: 'disabled' },
      { username: 'historian-ghost', ip: '10.0.5.1', userAgent: 'HistoryAgent/1.0 (ghost)', success: false, reason: 'bad_credentials' },
      { username: 'historian', ip: '10.0.5.1', userAgent: 'HistoryAgent/1.0 (wrong)', success: false, reason: 'bad_credentials' },
      { username: 'historian', ip: '10.0.5.1', userAgent: 'HistoryAgent/1.0 (ok)', success: true, reason: null },
    ]);
    expect(page.total).toBe(4);
  });

  it('records a throttled attempt in the login history', async () => {
    const user = await app.createUser({ username: 'hammered' });
    for (let i = 0; i < 5; i++) await login(user.username, 'wrong', { ip: '10.0.6.1' });
    expect((await login(user.username, user.password, { ip: '10.0.6.1' })).status).toBe(429);
    const page = await history('hammered');
    expect(page.items[0]).toMatchObject({ username: 'hammered', success: false, reason: 'throttled' });
    expect(page.total).toBe(6);
  });

  it('gives the country of the address from the local GeoIP database, none for a private address', async () => {
    const user = await app.createUser({ username: 'traveller' });
    await login(user.username, user.password, { ip: '8.8.8.8' });
    await login(user.username, user.password, { ip: '10.0.7.1' });
    const page = await history('traveller');
    expect(page.items.map(({ ip, location }) => ({ ip, location }))).toEqual([
      { ip: '10.0.7.1', location: null },
      { ip: '8.8.8.8', location: 'US' },
    ]);
    // The history search finds a country too.
    expect((await history('US')).items.some((item) => item.username === 'traveller')).toBe(true);
  });
});
