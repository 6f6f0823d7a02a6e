import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import type { Schemas } from '../../openapi/client/index.ts';

type ErrorBody = Schemas['Error'];

let app: TestApp;
let adminCookie: string;
let existingId: number;

const valid = { username: 'valid-user', role: 'USER', password: 'a-good-password', confirm: 'a-good-password' };

async function post(body: Record<string, unknown>): Promise<{ status: number; body: ErrorBody }> {
  const response = await app.request('/api/users', { method: 'POST', cookie: adminCookie, json: body });
  return { status: response.status, body: (await response.json()) as ErrorBody };
}

async function put(body: Record<string, unknown>): Promise<{ status: number; body: ErrorBody }> {
  const response = await app.request(`/api/users/${existingId}`, { method: 'PUT', cookie: adminCookie, json: body });
  return { status: response.status, body: (await response.json()) as ErrorBody };
}

/** The 400 answer carries exactly these field messages. */
function expectIssues(result: { status: number; body: ErrorBody }, issues: Array<[string, string]>) {
  expect(result.status).toBe(400);
  expect(result.body.code).toBe('VALIDATION_FAILED');
  expect(result.body.details?.map((d) => [d.path, d.message])).toEqual(issues);
  for (const [path, message] of issues) expect(result.body.message).toContain(`${path}: ${message}`);
}

beforeAll(async () => {
  app = await startTestApp();
  const admin = await app.createUser({ username: 'admin', role: 'ADMIN' });
  adminCookie = await app.signIn(admin.username, admin.password);
  existingId = (await app.createUser({ username: 'existing' })).id;
});
afterAll(() => app.close());

// Spec 03 §5, messages verbatim, each with its field path.
describe('POST /api/users validation', () => {
  it('Username is required', async () => {
    expectIssues(await post({ ...valid, username: undefined }), [['body.username', 'Username is required']]);
    expectIssues(await post({ ...valid, username: '' }), [['body.username', 'Username is required']]);
    expectIssues(await post({ ...valid, username: '   ' }), [['body.username', 'Username is required']]);
  });

  it('Role is required', async () => {
    expectIssues(await post({ ...valid, role: undefined }), [['body.role', 'Role is required']]);
    expectIssues(await post({ ...valid, role: '' }), [['body.role', 'Role is required']]);
  });

  it("This doesn't look like valid e-mail", async () => {
    expectIssues(await post({ ...valid, email: 'not-an-email' }), [['body.email', "This doesn't look like valid e-mail"]]);
    expectIssues(await post({ ...valid, email: 'a@' }), [['body.email', "This doesn't look like valid e-mail"]]);
  });

  it('E-mail is too long (over 100 characters)', async () => {
    const email = `${'a'.repeat(89)}@example.com`; // 101 characters
    expect(email).toHaveLength(101);
    expectIssues(await post({ ...valid, email }), [['body.email', 'E-mail is too long']]);
    const longest = `${'a'.repeat(88)}@example.com`;
    expect((await post({ ...valid, username: 'longest-email', email: longest })).status).toBe(201);
  });

  it("This doesn't look like phone number", async () => {
    for (const phoneNumber of ['abc', '+', '12 34', '++1', '1+2']) {
      expectIssues(await post({ ...valid, phoneNumber }), [['body.phoneNumber', "This doesn't look like phone number"]]);
    }
    expect((await post({ ...valid, username: 'phoned', phoneNumber: '+420-123-456' })).status).toBe(201);
  });

  it('Phone number is too long (over 100 characters)', async () => {
    expectIssues(await post({ ...valid, phoneNumber: '1'.repeat(101) }), [['body.phoneNumber', 'Phone number is too long']]);
    expect((await post({ ...valid, username: 'long-phone', phoneNumber: '1'.repeat(100) })).status).toBe(201);
  });

  it('Password is required', async () => {
    expectIssues(await post({ ...valid, password: undefined, confirm: undefined }), [
      ['body.password', 'Password is required'],
      ['body.confirm', 'Confirm password is required'],
    ]);
    expectIssues(await post({ ...valid, password: '', confirm: '' }), [
      ['body.password', 'Password is required'],
      ['body.confirm', 'Confirm password is required'],
    ]);
  });

  it('Confirm password is required', async () => {
    expectIssues(await post({ ...valid, confirm: undefined }), [['body.confirm', 'Confirm password is required']]);
    expectIssues(await post({ ...valid, confirm: '' }), [['body.confirm', 'Confirm password is required']]);
  });

  it('refuses a confirmation that differs from the password', async () => {
    expectIssues(await post({ ...valid, confirm: 'something-else' }), [['body.confirm', 'Passwords do not match']]);
  });

  it('reports every broken field at once', async () => {
    const result = await post({ email: 'x', phoneNumber: 'y' });
    expect(result.status).toBe(400);
    expect(result.body.details?.map((d) => d.path).sort()).toEqual(['body.confirm', 'body.email', 'body.password', 'body.phoneNumber', 'body.role', 'body.username']);
  });

  it('takes each limit as a whole number from 0 to 1000', async () => {
    const limits = [
      ['relaysLimit', 'Relays limit'],
      ['encodingsLimit', 'Encodings limit'],
      ['timeshiftPlayersLimit', 'Playbacks limit'],
      ['timeshiftRecordersLimit', 'Recorders limit'],
    ] as const;
    for (const [field, label] of limits) {
      expectIssues(await post({ ...valid, [field]: -1 }), [[`body.${field}`, `${label} must be at least 0`]]);
      expectIssues(await post({ ...valid, [field]: 1001 }), [[`body.${field}`, `${label} must be at most 1000`]]);
      expectIssues(await post({ ...valid, [field]: 2.5 }), [[`body.${field}`, `${label} must be a whole number`]]);
      expectIssues(await post({ ...valid, [field]: '10' }), [[`body.${field}`, `${label} must be a whole number`]]);
    }
    const edges = await post({ ...valid, username: 'edge-limits', relaysLimit: 0, encodingsLimit: 1000, timeshiftPlayersLimit: 1, timeshiftRecordersLimit: 999 });
    expect(edges.status).toBe(201);
    expect(edges.body).toMatchObject({ relaysLimit: 0, encodingsLimit: 1000, timeshiftPlayersLimit: 1, timeshiftRecordersLimit: 999 });
  });

  it('refuses a level that is not one of the resource', async () => {
    const result = await post({ ...valid, permissions: { statistics: { level: 'STATISTICS_EDIT', hide: false } } });
    expect(result.status).toBe(400);
    expect(result.body.details?.[0].path).toBe('body.permissions.statistics.level');
  });

  it('creates nothing when a field is refused', async () => {
    await post({ ...valid, username: 'never-created', email: 'bad' });
    const list = (await (await app.request('/api/users?search=never-created', { cookie: adminCookie })).json()) as { total: number };
    expect(list.total).toBe(0);
  });
});

describe('PUT /api/users/{id} validation', () => {
  const form = { username: 'existing', role: 'USER', enabled: true };

  it('does not require a password', async () => {
    expect((await put(form)).status).toBe(200);
    expect((await put({ ...form, password: '' })).status).toBe(200);
  });

  it('Confirm password is required when a password is typed', async () => {
    expectIssues(await put({ ...form, password: 'a-new-password' }), [['body.confirm', 'Confirm password is required']]);
    expectIssues(await put({ ...form, password: 'a-new-password', confirm: '' }), [['body.confirm', 'Confirm password is required']]);
  });

  it('refuses a confirmation that differs from the typed password', async () => {
    expectIssues(await put({ ...form, password: 'a-new-password', confirm: 'another' }), [['body.confirm', 'Passwords do not match']]);
  });

  it('Username is required and Role is required', async () => {
    expectIssues(await put({ ...form, username: '', role: undefined }), [
      ['body.username', 'Username is required'],
      ['body.role', 'Role is required'],
    ]);
  });

  it('applies the e-mail, phone and limit rules as on creation', async () => {
    expectIssues(await put({ ...form, email: 'nope', phoneNumber: 'x', relaysLimit: 1001 }), [
      ['body.email', "This doesn't look like valid e-mail"],
      ['body.phoneNumber', "This doesn't look like phone number"],
      ['body.relaysLimit', 'Relays limit must be at most 1000'],
    ]);
  });
});
