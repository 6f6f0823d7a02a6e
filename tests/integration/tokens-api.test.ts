import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';

interface TokenBody {
  id: number;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
}
interface CreatedBody {
  token: TokenBody;
  secret: string;
}

let app: TestApp;
let viewer: { id: number; username: string; password: string };
let viewerCookie: string;

async function createToken(cookie: string, name: string): Promise<CreatedBody> {
  const response = await app.request('/api/tokens', { method: 'POST', cookie, json: { name } });
  expect(response.status).toBe(201);
  return (await response.json()) as CreatedBody;
}

async function listTokens(cookie: string): Promise<{ text: string; items: TokenBody[] }> {
  const response = await app.request('/api/tokens', { cookie });
  expect(response.status).toBe(200);
  const text = await response.text();
  return { text, items: (JSON.parse(text) as { items: TokenBody[] }).items };
}

beforeAll(async () => {
  app = await startTestApp();
  viewer = await app.createUser({ username: 'viewer', permissions: { user: { level: 'USER_VIEW', hide: false } } });
  viewerCookie = await app.signIn(viewer.username, viewer.password);
});
afterAll(() => app.close());

describe('POST /api/tokens', () => {
  it('returns the secret once; the list shows the token without it', async () => {
    const created = await createToken(viewerCookie, 'ci pipeline');
    expect(created.secret).toMatch(/^mp_[\w-]{40,}$/);
    expect(created.token).toMatchObject({ name: 'ci pipeline', prefix: created.secret.slice(0, 10), lastUsedAt: null });
    expect(Number.isNaN(Date.parse(created.token.createdAt))).toBe(false);

    const list = await listTokens(viewerCookie);
    expect(list.items.find((t) => t.id === created.token.id)).toEqual(created.token);
    expect(list.text).not.toContain(created.secret);
    expect(list.text).not.toMatch(/secret|hash/i);
  });

  it('refuses a token without a name', async () => {
    const response = await app.request('/api/tokens', { method: 'POST', cookie: viewerCookie, json: { name: '   ' } });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: [expect.objectContaining({ path: 'body.name', message: 'Name is required' })] });
  });

  it('lists only the tokens of the signed-in user', async () => {
    const other = await app.createUser({ username: 'lister' });
    const otherCookie = await app.signIn(other.username, other.password);
    await createToken(otherCookie, 'lister token');
    const mine = await listTokens(viewerCookie);
    expect(mine.items.map((t) => t.name)).not.toContain('lister token');
    expect((await listTokens(otherCookie)).items.map((t) => t.name)).toEqual(['lister token']);
  });
});

describe('Authorization: Bearer <token>', () => {
  it('acts with the permissions of its user', async () => {
    const { secret } = await createToken(viewerCookie, 'reader');
    const response = await app.request('/api/users', { token: secret });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { items: Array<{ username: string }> }).items.map((u) => u.username)).toContain('viewer');
    const session = (await (await app.request('/api/auth/session', { token: secret })).json()) as { user: { username: string } };
    expect(session.user.username).toBe('viewer');
  });

  it('gets 403 on GET /api/users for a token of a user without USER_VIEW', async () => {
    const plain = await app.createUser({ username: 'plain' });
    const { secret } = await createToken(await app.signIn(plain.username, plain.password), 'plain token');
    const response = await app.request('/api/users', { token: secret });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { code: string }).code).toBe('FORBIDDEN');
  });

  it('notes when the token was last used', async () => {
    const created = await createToken(viewerCookie, 'used');
    expect((await app.request('/api/users', { token: created.secret })).status).toBe(200);
    const listed = (await listTokens(viewerCookie)).items.find((t) => t.id === created.token.id);
    expect(listed?.lastUsedAt).not.toBeNull();
  });

  it('answers 401 to an unknown token', async () => {
    const response = await app.request('/api/users', { token: 'mp_not-a-real-token' });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { code: string }).code).toBe('UNAUTHORIZED');
  });

  it('stops working when its user is disabled', async () => {
    const admin = await app.createUser({ username: 'token-admin', role: 'ADMIN' });
    const adminCookie = await app.signIn(admin.username, admin.password);
    const holder = await app.createUser({ username: 'holder', permissions: { user: { level: 'USER_VIEW', hide: false } } });
    const { secret } = await createToken(await app.signIn(holder.username, holder.password), 'holder token');
    expect((await app.request('/api/users', { token: secret })).status).toBe(200);
    expect((await app.request(`/api/users/${holder.id}/enabled`, { method: 'PUT', cookie: adminCookie, json: { enabled: false } })).status).toBe(200);
    expect((await app.request('/api/users', { token: secret })).status).toBe(401);
  });
});

describe('DELETE /api/tokens/{id}', () => {
  it('revokes the token: it stops working and leaves the list', async () => {
    const created = await createToken(viewerCookie, 'short-lived');
    expect((await app.request('/api/users', { token: created.secret })).status).toBe(200);
    const response = await app.request(`/api/tokens/${created.token.id}`, { method: 'DELETE', cookie: viewerCookie });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect((await app.request('/api/users', { token: created.secret })).status).toBe(401);
    expect((await listTokens(viewerCookie)).items.map((t) => t.id)).not.toContain(created.token.id);
    // Revoking it again: there is no such live token.
    expect((await app.request(`/api/tokens/${created.token.id}`, { method: 'DELETE', cookie: viewerCookie })).status).toBe(404);
  });

  it("answers 404 for another user's token id, which keeps working", async () => {
    const owner = await app.createUser({ username: 'owner', permissions: { user: { level: 'USER_VIEW', hide: false } } });
    const created = await createToken(await app.signIn(owner.username, owner.password), 'owned');
    const response = await app.request(`/api/tokens/${created.token.id}`, { method: 'DELETE', cookie: viewerCookie });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'NOT_FOUND', message: `Token ${created.token.id} not found.` });
    expect((await app.request('/api/users', { token: created.secret })).status).toBe(200);
  });

  it('can be revoked with the token itself', async () => {
    const created = await createToken(viewerCookie, 'self-revoking');
    expect((await app.request(`/api/tokens/${created.token.id}`, { method: 'DELETE', token: created.secret })).status).toBe(200);
    expect((await app.request('/api/users', { token: created.secret })).status).toBe(401);
  });
});

describe('POST /api/auth/token-login', () => {
  it('opens a session from a token', async () => {
    const { secret } = await createToken(viewerCookie, 'alternate login');
    const response = await app.request('/api/auth/token-login', { method: 'POST', json: { token: secret }, headers: { 'user-agent': 'TokenLoginAgent/1' } });
    expect(response.status).toBe(200);
    const setCookie = response.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^mp_session=.+HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Strict/i);
    const session = (await response.json()) as { user: { username: string }; idleTimeoutSeconds: number };
    expect(session.user.username).toBe('viewer');

    const cookie = setCookie.split(';')[0];
    const current = (await (await app.request('/api/auth/session', { cookie })).json()) as { user: { username: string } };
    expect(current.user.username).toBe('viewer');
    expect((await app.request('/api/users', { cookie })).status).toBe(200);

    const history = await app.db.selectFrom('login_history').selectAll().where('user_agent', '=', 'TokenLoginAgent/1').execute();
    expect(history.map((h) => ({ username: h.username, success: h.success, reason: h.reason }))).toEqual([{ username: 'viewer', success: true, reason: 'token' }]);
  });

  it('refuses an unknown or revoked token with 401 INVALID_TOKEN', async () => {
    const created = await createToken(viewerCookie, 'revoked before login');
    await app.request(`/api/tokens/${created.token.id}`, { method: 'DELETE', cookie: viewerCookie });
    for (const token of [created.secret, 'mp_unknown']) {
      const response = await app.request('/api/auth/token-login', { method: 'POST', json: { token } });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ code: 'INVALID_TOKEN', message: 'Invalid or revoked token.' });
      expect(response.headers.get('set-cookie')).toBeNull();
    }
  });
});

describe('a token revoked by another API process', () => {
  it('is refused here as soon as the revocation event arrives, not after its cached second', async () => {
    const created = await createToken(viewerCookie, 'revoked elsewhere');
    expect((await app.request('/api/users', { token: created.secret })).status).toBe(200);
    // Another process revokes it: the row changes and the event arrives over LISTEN/NOTIFY.
    await app.db.updateTable('api_tokens').set({ revoked_at: new Date() }).where('id', '=', created.token.id).execute();
    const arrived = new Promise<void>((resolve) => {
      const stop = app.services.events.subscribe((event) => {
        if (event.topic === 'tokens') (stop(), resolve());
      });
    });
    await app.services.events.publish({ topic: 'tokens', type: 'revoked', id: created.token.id });
    await arrived;
    expect((await app.request('/api/users', { token: created.secret })).status).toBe(401);
  });
});
