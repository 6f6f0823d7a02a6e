import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import type { Schemas } from '../../openapi/client/index.ts';

type ErrorBody = Schemas['Error'];

let app: TestApp;
let adminCookie: string;
let plainCookie: string;

/** An error answer as a client sees it: JSON `{ code, message, requestId }` and X-Request-Id equal to requestId. */
async function expectError(response: Response, status: number, code: string): Promise<ErrorBody> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await response.json()) as ErrorBody;
  expect(body.code).toBe(code);
  expect(typeof body.message).toBe('string');
  expect(body.message.length).toBeGreaterThan(0);
  expect(body.requestId).toBeTruthy();
  expect(response.headers.get('x-request-id')).toBe(body.requestId);
  return body;
}

beforeAll(async () => {
  app = await startTestApp();
  const admin = await app.createUser({ username: 'admin', role: 'ADMIN' });
  adminCookie = await app.signIn(admin.username, admin.password);
  const plain = await app.createUser({ username: 'plain' });
  plainCookie = await app.signIn(plain.username, plain.password);
});
afterAll(() => app.close());

describe('error answers', () => {
  it('400: a refused field comes with its path and rule', async () => {
    const body = await expectError(await app.request('/api/users', { method: 'POST', cookie: adminCookie, json: {} }), 400, 'VALIDATION_FAILED');
    expect(body.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'body.username', message: 'Username is required' })]));
  });

  it('400 MALFORMED_REQUEST: a body that is not JSON', async () => {
    const response = await app.request('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"username": "admin", ' });
    const body = await expectError(response, 400, 'MALFORMED_REQUEST');
    expect(body.message).toBe('The request body is not valid JSON.');
  });

  it('the API reference is served at /api/docs with its script and assets', async () => {
    const page = await app.request('/api/docs');
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/swagger-ui/i);
    expect((await app.request('/api/docs/init.js')).status).toBe(200);
    expect((await app.request('/api/docs/assets/swagger-ui.css')).status).toBe(200);
  });

  it('finds the session cookie among other cookies, quoted or not', async () => {
    const [name, value] = adminCookie.split(';')[0].split('=');
    for (const cookie of [`theme=dark; ${name}=${value}; other=1`, `${name}="${value}"`]) {
      expect((await app.request('/api/users', { headers: { cookie } })).status, cookie).toBe(200);
    }
    expect((await app.request('/api/users', { headers: { cookie: `x${name}=${value}` } })).status).toBe(401);
  });

  it('401 UNAUTHORIZED without a session', async () => {
    const body = await expectError(await app.request('/api/users'), 401, 'UNAUTHORIZED');
    expect(body.message).toBe('Sign in to continue.');
  });

  it('403 FORBIDDEN names the permission needed', async () => {
    const body = await expectError(await app.request('/api/users', { cookie: plainCookie }), 403, 'FORBIDDEN');
    expect(body.message).toBe('You need USER_VIEW or USER_EDIT to do this.');
  });

  it('404 NOT_FOUND as JSON for an unknown /api path', async () => {
    for (const [method, path] of [
      ['GET', '/api/no-such-thing'],
      ['POST', '/api/users/1/no-such-action'],
      ['GET', '/api'],
    ]) {
      const body = await expectError(await app.request(path, { method, cookie: adminCookie, ...(method === 'POST' ? { json: {} } : {}) }), 404, 'NOT_FOUND');
      expect(body.message).toBe(`${method} ${path} not found.`);
    }
  });

  it('404 NOT_FOUND for an unknown id', async () => {
    await expectError(await app.request('/api/users/424242', { cookie: adminCookie }), 404, 'NOT_FOUND');
  });

  it('409 with a stable code', async () => {
    await expectError(await app.request('/api/users', { method: 'POST', cookie: adminCookie, json: { username: 'ADMIN', role: 'USER', password: 'a-good-password', confirm: 'a-good-password' } }), 409, 'USERNAME_TAKEN');
  });

  it('413 PAYLOAD_TOO_LARGE for a body over 2 MB', async () => {
    const response = await app.request('/api/tokens', { method: 'POST', cookie: adminCookie, json: { name: 'x'.repeat(3 * 1024 * 1024) } });
    await expectError(response, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('keeps a sane X-Request-Id given by the caller, and replaces one that is not', async () => {
    const kept = await expectError(await app.request('/api/users', { headers: { 'x-request-id': 'trace-123.abc' } }), 401, 'UNAUTHORIZED');
    expect(kept.requestId).toBe('trace-123.abc');
    const replaced = await expectError(await app.request('/api/users', { headers: { 'x-request-id': 'has spaces <and> tags' } }), 401, 'UNAUTHORIZED');
    expect(replaced.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('gives every answer an X-Request-Id, successes too', async () => {
    const response = await app.request('/api/health');
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('a 500', () => {
  // An app of its own, whose database is broken on purpose.
  let broken: TestApp;
  let cookie: string;
  let user: { username: string; password: string };

  beforeAll(async () => {
    broken = await startTestApp();
    user = await broken.createUser({ username: 'victim', role: 'ADMIN' });
    cookie = await broken.signIn(user.username, user.password);
    return () => broken.close();
  });

  const expectGeneric = async (response: Response) => {
    expect(response.status).toBe(500);
    const text = await response.text();
    const body = JSON.parse(text) as ErrorBody;
    expect(body).toEqual({ code: 'INTERNAL', message: 'Something went wrong on the server. Quote the request id when reporting it.', requestId: response.headers.get('x-request-id') });
    expect(text).not.toMatch(/login_history|relation|select|insert|does not exist|\bat \S+:\d+|\.ts\b|Error:/i);
  };

  it('carries a generic message only, not the SQL error behind it', async () => {
    await sql`drop table login_history`.execute(broken.db);
    await expectGeneric(await broken.request('/api/auth/login', { method: 'POST', json: { username: user.username, password: user.password } }));
    // Other areas keep working.
    expect((await broken.request('/api/auth/session', { cookie })).status).toBe(200);
  });

  it('carries a generic message only when the database is gone', async () => {
    await broken.db.destroy();
    await expectGeneric(await broken.request('/api/health'));
    await expectGeneric(await broken.request('/api/auth/session', { cookie }));
  });
});

describe('a request body the API cannot read', () => {
  it('answers 415 UNSUPPORTED_MEDIA_TYPE for a charset it does not know, not a 500', async () => {
    const response = await app.request('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json; charset=klingon' }, body: '{}' });
    const body = await expectError(response, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect(body.message).toBe('The request body is in an encoding the API does not read; send UTF-8 JSON.');
  });

  it('answers 415 for a compressed body it does not inflate', async () => {
    const response = await app.request('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'br-unknown' }, body: '{}' });
    await expectError(response, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });
});

describe('a request line the API cannot read', () => {
  it('answers 400 MALFORMED_REQUEST for a path that is not valid percent-encoding', async () => {
    const body = await expectError(await app.request('/api/users/%E0%A4%A', { cookie: adminCookie }), 400, 'MALFORMED_REQUEST');
    expect(body.message).toBe('The request is malformed.');
  });
});

describe('input the database cannot hold', () => {
  it('refuses a text with a NUL character with 400 and its field, not a 500', async () => {
    const login = await expectError(await app.request('/api/auth/login', { method: 'POST', json: { username: 'ad\u0000min', password: 'x' } }), 400, 'VALIDATION_FAILED');
    expect(login.details).toEqual([expect.objectContaining({ path: 'body.username', message: 'Must not contain the NUL character' })]);
    const token = await expectError(await app.request('/api/tokens', { method: 'POST', cookie: adminCookie, json: { name: 'nul\u0000name' } }), 400, 'VALIDATION_FAILED');
    expect(token.details?.[0].path).toBe('body.name');
    const search = await expectError(await app.request(`/api/users?search=${encodeURIComponent('a\u0000b')}`, { cookie: adminCookie }), 400, 'VALIDATION_FAILED');
    expect(search.details?.[0].path).toBe('query.search');
  });

  it('answers 400 for an id beyond the range of ids, not a 500', async () => {
    for (const [method, path] of [
      ['GET', '/api/users/99999999999'],
      ['DELETE', '/api/users/99999999999'],
      ['DELETE', '/api/tokens/99999999999'],
    ]) {
      const body = await expectError(await app.request(path, { method, cookie: adminCookie }), 400, 'VALIDATION_FAILED');
      expect(body.details?.[0].path, `${method} ${path}`).toBe('params.id');
    }
  });

  it('searches the users for a number beyond the range of ids without failing', async () => {
    const response = await app.request('/api/users?search=99999999999', { cookie: adminCookie });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { items: unknown[] }).items).toEqual([]);
  });
});
