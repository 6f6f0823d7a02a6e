import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { principalOf } from '../../api/auth/principal.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import type { Schemas } from '../../openapi/client/index.ts';

type UserBody = Schemas['User'];
type ErrorBody = Schemas['Error'];

let app: TestApp;
let adminCookie: string;
let adminId: number;
/** A user who holds USER_EDIT and nothing else. */
let editorCookie: string;
let editorId: number;

const newUser = (username: string, extra: Record<string, unknown> = {}) => ({ username, role: 'USER', password: 'a-good-password', confirm: 'a-good-password', ...extra });
const createAs = (cookie: string, body: Record<string, unknown>) => app.request('/api/users', { method: 'POST', cookie, json: body });

async function get(id: number): Promise<UserBody> {
  return (await (await app.request(`/api/users/${id}`, { cookie: adminCookie })).json()) as UserBody;
}

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

const saveAs = async (cookie: string, id: number, changes: Record<string, unknown>) =>
  app.request(`/api/users/${id}`, { method: 'PUT', cookie, json: formOf(await get(id), changes) });

beforeAll(async () => {
  app = await startTestApp();
  const admin = await app.createUser({ username: 'admin', role: 'ADMIN' });
  adminId = admin.id;
  adminCookie = await app.signIn(admin.username, admin.password);
  const editor = await app.createUser({ username: 'user-editor', permissions: { user: { level: 'USER_EDIT', hide: false } } });
  editorId = editor.id;
  editorCookie = await app.signIn(editor.username, editor.password);
});
afterAll(() => app.close());

describe('an editor who is not ADMIN (USER_EDIT only)', () => {
  it('cannot create an ADMIN', async () => {
    const response = await createAs(editorCookie, newUser('would-be-admin', { role: 'ADMIN' }));
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: 'GRANT_REFUSED', message: 'Only an ADMIN can give the ADMIN role.' });
  });

  it('cannot grant a permission it does not hold; the answer names it', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ relay: { level: 'RELAY_VIEW', hide: false } }, 'RELAY_VIEW'],
      [{ firewall: { level: 'FIREWALL_EDIT', hide: false } }, 'FIREWALL_EDIT'],
      [{ statistics: { level: 'STATISTICS_VIEW', hide: false } }, 'STATISTICS_VIEW'],
    ];
    for (const [permissions, name] of cases) {
      const response = await createAs(editorCookie, newUser(`refused-${name.toLowerCase()}`, { permissions }));
      expect(response.status, name).toBe(403);
      const body = (await response.json()) as ErrorBody;
      expect(body.code).toBe('GRANT_REFUSED');
      expect(body.message).toContain(name);
    }
    const list = (await (await app.request('/api/users?search=refused', { cookie: adminCookie })).json()) as { total: number };
    expect(list.total).toBe(0);
  });

  it('can grant USER_VIEW and USER_EDIT, which it holds', async () => {
    const viewer = await createAs(editorCookie, newUser('granted-view', { permissions: { user: { level: 'USER_VIEW', hide: false } } }));
    expect(viewer.status).toBe(201);
    expect(((await viewer.json()) as UserBody).grantedPermissions).toEqual(['USER_VIEW']);
    const editor = await createAs(editorCookie, newUser('granted-edit', { permissions: { user: { level: 'USER_EDIT', hide: false } } }));
    expect(editor.status).toBe(201);
  });

  it('can save a hidden resource at any level: hidden grants nothing', async () => {
    const response = await createAs(editorCookie, newUser('hidden-relay', { permissions: { relay: { level: 'RELAY_EDIT', hide: true } } }));
    expect(response.status).toBe(201);
    expect(((await response.json()) as UserBody).grantedPermissions).toEqual([]);
  });

  it('cannot give a user a permission it does not hold by an update', async () => {
    const target = ((await (await createAs(editorCookie, newUser('update-target'))).json()) as UserBody).id;
    const response = await saveAs(editorCookie, target, { permissions: { nodes: { level: 'NODE_VIEW', hide: false } } });
    expect(response.status).toBe(403);
    expect(((await response.json()) as ErrorBody).message).toContain('NODE_VIEW');
    expect((await get(target)).grantedPermissions).toEqual([]);
  });

  it("can change a user's e-mail without taking away the permissions that user holds", async () => {
    const created = await createAs(adminCookie, newUser('relay-operator', { permissions: { relay: { level: 'RELAY_VIEW', hide: false, viewLog: true } } }));
    const id = ((await created.json()) as UserBody).id;
    const response = await saveAs(editorCookie, id, { email: 'ops@example.com' });
    expect(response.status).toBe(200);
    expect(((await response.json()) as UserBody).grantedPermissions.sort()).toEqual(['RELAY_VIEW', 'RELAY_VIEW_LOG']);
    // ...but it cannot raise what that user holds beyond its own rights.
    const raised = await saveAs(editorCookie, id, { permissions: { relay: { level: 'RELAY_VIEW', hide: false, viewLog: true, viewDelete: true } } });
    expect(raised.status).toBe(403);
    expect(((await raised.json()) as ErrorBody).message).toContain('RELAY_VIEW_DELETE');
  });

  it('cannot change, disable or delete an ADMIN user', async () => {
    const other = await app.createUser({ username: 'other-admin', role: 'ADMIN' });
    const save = await saveAs(editorCookie, other.id, { email: 'x@example.com' });
    expect(save.status).toBe(403);
    expect(((await save.json()) as ErrorBody).code).toBe('GRANT_REFUSED');
    const disable = await app.request(`/api/users/${other.id}/enabled`, { method: 'PUT', cookie: editorCookie, json: { enabled: false } });
    expect(disable.status).toBe(403);
    const remove = await app.request(`/api/users/${other.id}`, { method: 'DELETE', cookie: editorCookie });
    expect(remove.status).toBe(403);
    expect((await get(other.id)).enabled).toBe(true);
  });

  it('cannot use GET /api/users/histories without USER_EDIT: a USER_VIEW user gets 403', async () => {
    const viewer = await app.createUser({ username: 'history-viewer', permissions: { user: { level: 'USER_VIEW', hide: false } } });
    const cookie = await app.signIn(viewer.username, viewer.password);
    expect((await app.request('/api/users/histories', { cookie })).status).toBe(403);
    expect((await app.request('/api/users/histories', { cookie: editorCookie })).status).toBe(200);
    expect((await createAs(cookie, newUser('by-a-viewer'))).status).toBe(403);
  });
});

describe('yourself', () => {
  it('you cannot delete yourself', async () => {
    const response = await app.request(`/api/users/${editorId}`, { method: 'DELETE', cookie: editorCookie });
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ code: 'SELF_DELETE', message: 'You cannot delete yourself.' });
  });

  it('you cannot disable yourself, by the switch or by the form', async () => {
    const bySwitch = await app.request(`/api/users/${editorId}/enabled`, { method: 'PUT', cookie: editorCookie, json: { enabled: false } });
    expect(bySwitch.status).toBe(409);
    expect(await bySwitch.json()).toMatchObject({ code: 'SELF_DISABLE', message: 'You cannot disable yourself.' });
    const byForm = await saveAs(editorCookie, editorId, { enabled: false });
    expect(byForm.status).toBe(409);
    expect(((await byForm.json()) as ErrorBody).code).toBe('SELF_DISABLE');
    expect((await get(editorId)).enabled).toBe(true);
  });
});

describe('the last enabled ADMIN', () => {
  // A database of its own: exactly one ADMIN to start with.
  let own: TestApp;
  let rootId: number;
  let rootCookie: string;

  beforeAll(async () => {
    own = await startTestApp();
    const root = await own.createUser({ username: 'root', role: 'ADMIN' });
    rootId = root.id;
    rootCookie = await own.signIn(root.username, root.password);
    return () => own.close();
  });

  const ownForm = async (id: number, changes: Record<string, unknown>) => {
    const user = (await (await own.request(`/api/users/${id}`, { cookie: rootCookie })).json()) as UserBody;
    return own.request(`/api/users/${id}`, { method: 'PUT', cookie: rootCookie, json: formOf(user, changes) });
  };

  it('cannot be demoted', async () => {
    const response = await ownForm(rootId, { role: 'USER' });
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ code: 'LAST_ADMIN', message: 'This is the last enabled ADMIN user; keep it.' });
  });

  it('cannot be disabled', async () => {
    const response = await ownForm(rootId, { enabled: false });
    expect(response.status).toBe(409);
    expect(((await response.json()) as ErrorBody).code).toMatch(/^(LAST_ADMIN|SELF_DISABLE)$/);
    // A disabled ADMIN is not a second one; and a principal of it, authenticated before it was
    // disabled, acts with what is left of it: nothing.
    const disabledAdmin = await own.createUser({ username: 'disabled-admin', role: 'ADMIN', enabled: false });
    const stale = principalOf({ ...(await own.db.selectFrom('users').selectAll().where('id', '=', disabledAdmin.id).executeTakeFirstOrThrow()), enabled: true }, 'session');
    await expect(own.services.users.setEnabled(stale, rootId, false)).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    await expect(own.services.users.delete(stale, rootId)).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    const after = (await (await own.request(`/api/users/${rootId}`, { cookie: rootCookie })).json()) as UserBody;
    expect(after).toMatchObject({ enabled: true, role: { value: 'ADMIN' } });
  });

  it('can be demoted, disabled or deleted while another ADMIN is enabled', async () => {
    const second = await own.createUser({ username: 'second-admin', role: 'ADMIN' });
    const secondCookie = await own.signIn(second.username, second.password);
    const demote = await own.request(`/api/users/${second.id}`, {
      method: 'PUT',
      cookie: secondCookie,
      json: { username: 'second-admin', role: 'USER', enabled: true, permissions: { user: { level: 'USER_EDIT', hide: false } } },
    });
    expect(demote.status).toBe(200);
    const third = await own.createUser({ username: 'third-admin', role: 'ADMIN' });
    expect((await own.request(`/api/users/${third.id}/enabled`, { method: 'PUT', cookie: rootCookie, json: { enabled: false } })).status).toBe(200);
    expect((await own.request(`/api/users/${third.id}`, { method: 'DELETE', cookie: rootCookie })).status).toBe(200);
  });

  it('survives two ADMINs deleting each other at the same time', async () => {
    for (let round = 0; round < 3; round++) {
      const a = await own.createUser({ username: `twin-a-${round}`, role: 'ADMIN' });
      const b = await own.createUser({ username: `twin-b-${round}`, role: 'ADMIN' });
      const aCookie = await own.signIn(a.username, a.password);
      // Leave a and b the only enabled ADMINs.
      const others = await own.db.selectFrom('users').select('id').where('role', '=', 'ADMIN').where('enabled', '=', true).where('id', 'not in', [a.id, b.id]).execute();
      for (const other of others) {
        expect((await own.request(`/api/users/${other.id}/enabled`, { method: 'PUT', cookie: aCookie, json: { enabled: false } })).status).toBe(200);
      }
      const bCookie = await own.signIn(b.username, b.password);
      const responses = await Promise.all([
        own.request(`/api/users/${b.id}`, { method: 'DELETE', cookie: aCookie }),
        own.request(`/api/users/${a.id}`, { method: 'DELETE', cookie: bCookie }),
      ]);
      // One wins; the other is refused as the last ADMIN (or, when it comes late, as a user who no longer exists).
      const statuses = responses.map((r) => r.status).sort();
      expect(statuses[0]).toBe(200);
      expect([401, 409]).toContain(statuses[1]);
      const admins = await own.db.selectFrom('users').select('username').where('role', '=', 'ADMIN').where('enabled', '=', true).execute();
      expect(admins).toHaveLength(1);
    }
  });
});

describe('an ADMIN editor', () => {
  it('can grant any permission and the ADMIN role', async () => {
    const response = await createAs(adminCookie, newUser('deputy', { role: 'ADMIN' }));
    expect(response.status).toBe(201);
    const deputy = (await response.json()) as UserBody;
    expect(deputy.role).toEqual({ value: 'ADMIN', name: 'Admin' });
    expect(deputy.grantedPermissions).toContain('DIAGNOSTICS_CHECK_VIEW');
    expect(adminId).toBeGreaterThan(0);
  });
});
