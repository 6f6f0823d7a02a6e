import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import type { Schemas } from '../../openapi/client/index.ts';

type UserBody = Schemas['User'];

type UserPage = Schemas['UserPage'];

let app: TestApp;
let adminCookie: string;

const newUser = (username: string, extra: Record<string, unknown> = {}) => ({ username, role: 'USER', password: 'a-good-password', confirm: 'a-good-password', ...extra });

async function create(body: Record<string, unknown>): Promise<UserBody> {
  const response = await app.request('/api/users', { method: 'POST', cookie: adminCookie, json: body });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as UserBody;
}

async function get(id: number): Promise<UserBody> {
  const response = await app.request(`/api/users/${id}`, { cookie: adminCookie });
  expect(response.status).toBe(200);
  return (await response.json()) as UserBody;
}

async function list(query: string): Promise<UserPage> {
  const response = await app.request(`/api/users?${query}`, { cookie: adminCookie });
  expect(response.status).toBe(200);
  return (await response.json()) as UserPage;
}

/** The form's body for a stored user: the whole user, with some fields changed. */
function formOf(user: UserBody, changes: Record<string, unknown> = {}) {
  return {
    username: user.username,
    role: user.role.value,
    email: user.email,
    phoneNumber: user.phoneNumber,
    enabled: user.enabled,
    permissions: user.permissions,
    relaysLimit: user.relaysLimit,
    encodingsLimit: user.encodingsLimit,
    timeshiftPlayersLimit: user.timeshiftPlayersLimit,
    timeshiftRecordersLimit: user.timeshiftRecordersLimit,
    ...changes,
  };
}

const update = (id: number, body: Record<string, unknown>) => app.request(`/api/users/${id}`, { method: 'PUT', cookie: adminCookie, json: body });

beforeAll(async () => {
  app = await startTestApp();
  const admin = await app.createUser({ username: 'admin', role: 'ADMIN' });
  adminCookie = await app.signIn(admin.username, admin.password);
});
afterAll(() => app.close());

describe('POST /api/users', () => {
  it('creates a user that GET returns, without its password', async () => {
    const created = await create(
      newUser('operator', {
        email: 'operator@example.com',
        phoneNumber: '+1-555-0100',
        permissions: { relay: { level: 'RELAY_VIEW', hide: false, viewLog: true }, user: { level: 'USER_VIEW', hide: false } },
        relaysLimit: 10,
      }),
    );
    expect(created).toMatchObject({
      username: 'operator',
      role: { value: 'USER', name: 'User' },
      email: 'operator@example.com',
      phoneNumber: '+1-555-0100',
      enabled: true,
      relaysLimit: 10,
      encodingsLimit: 0,
    });
    expect(created.grantedPermissions.sort()).toEqual(['RELAY_VIEW', 'RELAY_VIEW_LOG', 'USER_VIEW']);
    expect(created.permissions.relay).toEqual({ level: 'RELAY_VIEW', hide: false, viewOnOff: false, viewRestart: false, viewEdit: false, viewLog: true, viewDelete: false });
    expect(created.permissions.firewall).toEqual({ level: 'FIREWALL_VIEW', hide: true });

    const response = await app.request(`/api/users/${created.id}`, { cookie: adminCookie });
    const text = await response.text();
    expect(JSON.parse(text)).toEqual(created);
    expect(text).not.toMatch(/password|argon2/i);

    expect(await app.signIn('operator', 'a-good-password')).toMatch(/^mp_session=/);
  });

  it('stores an empty e-mail and phone number as none', async () => {
    const created = await create(newUser('no-contact', { email: '', phoneNumber: '' }));
    expect(created.email).toBeNull();
    expect(created.phoneNumber).toBeNull();
  });

  it('creates a disabled user when asked to', async () => {
    const created = await create(newUser('born-disabled', { enabled: false }));
    expect(created.enabled).toBe(false);
    expect((await app.request('/api/auth/login', { method: 'POST', json: { username: 'born-disabled', password: 'a-good-password' } })).status).toBe(401);
  });

  it('answers 409 USERNAME_TAKEN for a taken username, whatever its case', async () => {
    await create(newUser('Taken.Name'));
    const response = await app.request('/api/users', { method: 'POST', cookie: adminCookie, json: newUser('taken.name') });
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({
      code: 'USERNAME_TAKEN',
      message: 'username: Username taken.name is already taken.',
      details: [{ path: 'body.username', message: 'Username is already taken' }],
    });
  });

  it('answers 409 to one of two simultaneous creations of the same username', async () => {
    const responses = await Promise.all([0, 1, 2].map(() => app.request('/api/users', { method: 'POST', cookie: adminCookie, json: newUser('racer') })));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409]);
    for (const response of responses.filter((r) => r.status === 409)) expect(((await response.json()) as { code: string }).code).toBe('USERNAME_TAKEN');
  });

  it('clears the View sub-flags on save when the level is Edit', async () => {
    const created = await create(newUser('editor-level', { permissions: { relay: { level: 'RELAY_EDIT', hide: false, viewLog: true, viewDelete: true } } }));
    expect(created.permissions.relay).toEqual({ level: 'RELAY_EDIT', hide: false });
    expect(created.grantedPermissions).toEqual(expect.arrayContaining(['RELAY_EDIT', 'RELAY_VIEW', 'RELAY_VIEW_LOG', 'RELAY_VIEW_DELETE', 'RELAY_VIEW_ON_OFF']));
    const saved = await update(created.id, formOf(created, { permissions: { encoding: { level: 'ENCODING_EDIT', hide: false, viewOnOff: true } } }));
    expect(((await saved.json()) as UserBody).permissions.encoding).toEqual({ level: 'ENCODING_EDIT', hide: false });
  });
});

describe('GET /api/users/{id}', () => {
  it('answers 404 NOT_FOUND for an unknown id', async () => {
    const response = await app.request('/api/users/999999', { cookie: adminCookie });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'NOT_FOUND', message: 'User 999999 not found.' });
  });

  it('answers 400 for an id that is not a number', async () => {
    const response = await app.request('/api/users/abc', { cookie: adminCookie });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { details: Array<{ path: string }> }).details[0].path).toBe('params.id');
  });
});

describe('PUT /api/users/{id}', () => {
  it('saves every field of the form', async () => {
    const created = await create(newUser('to-change'));
    const response = await update(
      created.id,
      formOf(created, {
        username: 'changed',
        email: 'changed@example.com',
        phoneNumber: '12-34',
        permissions: { firewall: { level: 'FIREWALL_EDIT', hide: false } },
        relaysLimit: 1000,
        encodingsLimit: 5,
        timeshiftPlayersLimit: 6,
        timeshiftRecordersLimit: 7,
      }),
    );
    expect(response.status).toBe(200);
    const saved = (await response.json()) as UserBody;
    expect(await get(created.id)).toEqual(saved);
    expect(saved).toMatchObject({ username: 'changed', email: 'changed@example.com', phoneNumber: '12-34', relaysLimit: 1000, encodingsLimit: 5, timeshiftPlayersLimit: 6, timeshiftRecordersLimit: 7 });
    expect(saved.grantedPermissions.sort()).toEqual(['FIREWALL_EDIT', 'FIREWALL_VIEW']);
    expect(Date.parse(saved.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));
  });

  it('keeps the password when none is typed', async () => {
    const created = await create(newUser('keeps-password'));
    expect((await update(created.id, formOf(created, { password: '', email: 'k@example.com' }))).status).toBe(200);
    expect(await app.signIn('keeps-password', 'a-good-password')).toMatch(/^mp_session=/);
  });

  it('changes only the case of its own username', async () => {
    const created = await create(newUser('lowercase'));
    const response = await update(created.id, formOf(created, { username: 'LowerCase' }));
    expect(response.status).toBe(200);
    expect(((await response.json()) as UserBody).username).toBe('LowerCase');
  });

  it('answers 409 USERNAME_TAKEN when renaming to a taken name, whatever its case', async () => {
    await create(newUser('occupied'));
    const created = await create(newUser('renamer'));
    const response = await update(created.id, formOf(created, { username: 'OCCUPIED' }));
    expect(response.status).toBe(409);
    expect(((await response.json()) as { code: string }).code).toBe('USERNAME_TAKEN');
  });

  it('leaves the stored user whole when the update fails', async () => {
    await create(newUser('blocker'));
    const created = await create(newUser('whole', { email: 'whole@example.com', relaysLimit: 3, permissions: { user: { level: 'USER_VIEW', hide: false } } }));
    const attempts = [
      // A validation failure among valid changes.
      formOf(created, { username: 'whole-renamed', email: 'not an e-mail', relaysLimit: 9, password: 'new-password-1', confirm: 'new-password-1' }),
      // A taken username with a new password and other changes.
      formOf(created, { username: 'blocker', email: 'new@example.com', password: 'new-password-1', confirm: 'new-password-1', enabled: false }),
    ];
    for (const body of attempts) {
      const response = await update(created.id, body);
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(await get(created.id)).toEqual(created);
    }
    expect(await app.signIn('whole', 'a-good-password')).toMatch(/^mp_session=/);
  });

  it('answers 404 for an unknown id', async () => {
    const created = await create(newUser('template'));
    const response = await update(999999, formOf(created, { username: 'ghost' }));
    expect(response.status).toBe(404);
  });
});

describe('GET /api/users', () => {
  let page: (query: string) => Promise<UserPage>;

  beforeAll(async () => {
    // A database of its own, so the list holds exactly what this block creates.
    const own = await startTestApp();
    const admin = await own.createUser({ username: 'root', role: 'ADMIN' });
    const cookie = await own.signIn(admin.username, admin.password);
    for (const username of ['bob', 'Alice', 'carol', 'Dave', 'eve']) {
      const response = await own.request('/api/users', { method: 'POST', cookie, json: newUser(username, { email: `${username.toLowerCase()}@corp.example`, enabled: username !== 'eve' }) });
      expect(response.status).toBe(201);
    }
    page = async (query) => {
      const response = await own.request(`/api/users?${query}`, { cookie });
      expect(response.status).toBe(200);
      return (await response.json()) as UserPage;
    };
    return () => own.close();
  });

  it('sorts by username, whatever its case, with the Total/Active/Failed counts', async () => {
    const all = await page('');
    expect(all.items.map((u) => u.username)).toEqual(['Alice', 'bob', 'carol', 'Dave', 'eve', 'root']);
    expect(all).toMatchObject({ total: 6, page: 1, size: 25, counts: { total: 6, active: 5, failed: 1 } });
    expect((await page('order=desc')).items.map((u) => u.username)).toEqual(['root', 'eve', 'Dave', 'carol', 'bob', 'Alice']);
  });

  it('pages through the list', async () => {
    const second = await page('size=2&page=2');
    expect(second.items.map((u) => u.username)).toEqual(['carol', 'Dave']);
    expect(second).toMatchObject({ total: 6, page: 2, size: 2 });
    expect((await page('size=2&page=4')).items).toEqual([]);
  });

  it('searches the username and e-mail without regard to case, or an exact id', async () => {
    expect((await page('search=ALI')).items.map((u) => u.username)).toEqual(['Alice']);
    const byEmail = await page('search=corp.example');
    expect(byEmail.items.map((u) => u.username)).toEqual(['Alice', 'bob', 'carol', 'Dave', 'eve']);
    expect(byEmail.total).toBe(5);
    // The counts of the footer are of every user, not of the search.
    expect(byEmail.counts).toEqual({ total: 6, active: 5, failed: 1 });
    const carol = (await page('search=carol')).items[0];
    expect((await page(`search=${carol.id}`)).items.map((u) => u.username)).toEqual(['carol']);
    expect((await page('search=nobody-matches')).items).toEqual([]);
  });

  it('takes % and _ in a search literally', async () => {
    expect((await page('search=%25')).items).toEqual([]);
    expect((await page('search=_')).items).toEqual([]);
  });

  it('filters by enabled', async () => {
    expect((await page('enabled=false')).items.map((u) => u.username)).toEqual(['eve']);
    expect((await page('enabled=true')).total).toBe(5);
  });

  it('refuses a page size over 500', async () => {
    const response = await app.request('/api/users?size=501', { cookie: adminCookie });
    expect(response.status).toBe(400);
  });
});

describe('DELETE /api/users/{id}', () => {
  it('deletes the user, ends its sessions and its tokens', async () => {
    const created = await create(newUser('doomed', { permissions: { user: { level: 'USER_VIEW', hide: false } } }));
    const cookie = await app.signIn('doomed', 'a-good-password');
    const token = ((await (await app.request('/api/tokens', { method: 'POST', cookie, json: { name: 't' } })).json()) as { secret: string }).secret;
    const response = await app.request(`/api/users/${created.id}`, { method: 'DELETE', cookie: adminCookie });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect((await app.request(`/api/users/${created.id}`, { cookie: adminCookie })).status).toBe(404);
    expect((await app.request('/api/auth/session', { cookie })).status).toBe(401);
    expect((await app.request('/api/users', { token })).status).toBe(401);
    expect((await list('search=doomed')).items).toEqual([]);
    // Its login history stays.
    const history = (await (await app.request('/api/users/histories?search=doomed', { cookie: adminCookie })).json()) as { total: number };
    expect(history.total).toBe(1);
  });
});
