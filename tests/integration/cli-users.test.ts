import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { cliHome, tokenOf, type CliHome } from './cli-run.ts';

interface UserJson {
  id: number;
  username: string;
  role: { value: string };
  email: string | null;
  phoneNumber: string | null;
  enabled: boolean;
  relaysLimit: number;
  encodingsLimit: number;
  grantedPermissions: string[];
}

describe('mediaplane users', () => {
  let app: TestApp;
  let home: CliHome;
  let adminToken: string;
  const asAdmin = (args: string[]) => home.run(args, { token: adminToken });

  beforeAll(async () => {
    app = await startTestApp();
    await app.createUser({ username: 'chief', password: 'chief-password-1', role: 'ADMIN' });
    adminToken = await tokenOf(app, 'chief', 'chief-password-1');
    home = cliHome(app);
  });
  afterAll(async () => {
    home?.remove();
    await app?.close();
  });

  it('creates a user from flags and shows it with get --json', async () => {
    const created = await asAdmin(['users', 'create', '--username', 'operator', '--role', 'user', '--email', 'op@example.com', '--phone', '+1-555-0100', '--password', 'operator-pass-1', '--relays-limit', '5', '--json']);
    expect(created.stderr).toBe('');
    expect(created.exitCode).toBe(0);
    const { id } = JSON.parse(created.stdout) as UserJson;

    const got = await asAdmin(['users', 'get', String(id), '--json']);
    expect(got.exitCode).toBe(0);
    expect(JSON.parse(got.stdout)).toMatchObject({ id, username: 'operator', role: { value: 'USER' }, email: 'op@example.com', phoneNumber: '+1-555-0100', enabled: true, relaysLimit: 5 });
    // The password given signs in.
    await expect(app.signIn('operator', 'operator-pass-1')).resolves.toMatch(/^mp_session=/);
  }, 60_000);

  it('says "User N created." without --json, and lists users as a table with the counts', async () => {
    const created = await asAdmin(['users', 'create', '--username', 'viewer', '--role', 'USER', '--password', 'viewer-pass-1', '--disabled']);
    expect(created.stdout.trim()).toMatch(/^User \d+ created\.$/);

    const list = await asAdmin(['users', 'list']);
    expect(list.exitCode).toBe(0);
    const lines = list.stdout.trimEnd().split('\n');
    expect(lines[0].split(/\s+/)).toEqual(['ID', 'USERNAME', 'ROLE', 'E-MAIL', 'ENABLED']);
    expect(lines.find((line) => line.includes('viewer'))).toMatch(/viewer\s+USER\s+-\s+no$/);
    expect(lines.find((line) => line.includes('operator'))).toMatch(/operator\s+USER\s+op@example\.com\s+yes$/);
    expect(lines.at(-1)).toBe('Total users: 3   Active: 2   Failed: 1');
  }, 60_000);

  it('passes the list filters to the API', async () => {
    const result = await asAdmin(['users', 'list', '--enabled', 'false', '--json']);
    const page = JSON.parse(result.stdout) as { items: UserJson[] };
    expect(page.items.map((u) => u.username)).toEqual(['viewer']);

    const sorted = JSON.parse((await asAdmin(['users', 'list', '--sort', 'id', '--order', 'desc', '--size', '2', '--json'])).stdout) as { items: UserJson[]; size: number };
    expect(sorted.size).toBe(2);
    expect(sorted.items.map((u) => u.username)).toEqual(['viewer', 'operator']);
  }, 60_000);

  it('updates only the fields given, from flags and from a YAML file', async () => {
    const operator = JSON.parse((await asAdmin(['users', 'list', '--search', 'operator', '--json'])).stdout).items[0] as UserJson;
    const file = path.join(home.configDir, 'operator.yaml');
    writeFileSync(file, 'encodingsLimit: 7\npermissions:\n  relay: { level: RELAY_VIEW, hide: false }\n');

    const updated = await asAdmin(['users', 'update', String(operator.id), '--email', 'ops@example.com', '--file', file]);
    expect(updated.stdout.trim()).toBe(`User ${operator.id} updated.`);

    const after = JSON.parse((await asAdmin(['users', 'get', String(operator.id), '--json'])).stdout) as UserJson;
    expect(after).toMatchObject({ username: 'operator', email: 'ops@example.com', phoneNumber: '+1-555-0100', relaysLimit: 5, encodingsLimit: 7, enabled: true });
    expect(after.grantedPermissions).toContain('RELAY_VIEW');
    // No password was given, so the old one still signs in.
    await expect(app.signIn('operator', 'operator-pass-1')).resolves.toMatch(/^mp_session=/);
  }, 60_000);

  it('exits 1 with VALIDATION_FAILED and the field path when a field breaks a rule', async () => {
    const result = await asAdmin(['users', 'create', '--username', 'mailer', '--role', 'USER', '--email', 'not-an-address', '--password', 'mailer-pass-1']);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim()).toBe("VALIDATION_FAILED: body.email: This doesn't look like valid e-mail");
  }, 60_000);

  it('prints each issue on its own line when several fields break rules', async () => {
    const result = await asAdmin(['users', 'create', '--username', 'bad name', '--role', 'USER', '--password', 'short']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      'VALIDATION_FAILED: 2 fields break a rule:',
      '  body.username: Username may contain letters, digits and . _ @ - only',
      '  body.password: Password must be at least 8 characters',
    ]);
  }, 60_000);

  it('answers FORBIDDEN to a user without USER_EDIT', async () => {
    await app.createUser({ username: 'reader', password: 'reader-pass-1', permissions: { user: { level: 'USER_VIEW', hide: false } } });
    const token = await tokenOf(app, 'reader', 'reader-pass-1');
    const listed = await home.run(['users', 'list', '--json'], { token });
    expect(listed.exitCode).toBe(0);

    const result = await home.run(['users', 'create', '--username', 'sneaky', '--role', 'USER', '--password', 'sneaky-pass-1'], { token });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/^FORBIDDEN: You need USER_EDIT to do this\./);
  }, 60_000);

  it('disables a user, whose token then stops working', async () => {
    const user = await app.createUser({ username: 'leaver', password: 'leaver-pass-1', permissions: { user: { level: 'USER_VIEW', hide: false } } });
    const token = await tokenOf(app, 'leaver', 'leaver-pass-1');
    expect((await home.run(['users', 'list', '--json'], { token })).exitCode).toBe(0);

    const disabled = await asAdmin(['users', 'disable', String(user.id)]);
    expect(disabled.stdout.trim()).toBe(`User ${user.id} disabled.`);

    const refused = await home.run(['users', 'list'], { token });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/^UNAUTHORIZED: /);

    const enabled = await asAdmin(['users', 'enable', String(user.id), '--json']);
    expect(JSON.parse(enabled.stdout)).toMatchObject({ id: user.id, enabled: true });
  }, 60_000);

  it('deletes only with --yes when no one can be asked', async () => {
    const user = await app.createUser({ username: 'temp' });
    const refused = await asAdmin(['users', 'delete', String(user.id)]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/^CONFIRMATION_REQUIRED: /);

    const deleted = await asAdmin(['users', 'delete', String(user.id), '--yes']);
    expect(deleted.stdout.trim()).toBe(`User ${user.id} deleted.`);
    const gone = await asAdmin(['users', 'get', String(user.id)]);
    expect(gone.exitCode).toBe(1);
    expect(gone.stderr.trim()).toBe(`NOT_FOUND: User ${user.id} not found.`);
  }, 60_000);

  it('create-admin resets a password in the database directly; the new one signs in', async () => {
    await app.createUser({ username: 'forgetful', password: 'lost-password-1' });
    const result = await home.run(['users', 'create-admin', '--username', 'forgetful'], { env: { DATABASE_URL: app.databaseUrl } });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('Administrator forgetful reset');
    const password = /password: (\S+)/.exec(result.stdout)?.[1] ?? '';
    expect(password.length).toBeGreaterThanOrEqual(12);

    const cookie = await app.signIn('forgetful', password);
    const session = (await (await app.request('/api/auth/session', { cookie })).json()) as { user: UserJson };
    expect(session.user).toMatchObject({ username: 'forgetful', role: { value: 'ADMIN' }, enabled: true });
    await expect(app.signIn('forgetful', 'lost-password-1')).rejects.toThrow(/401/);
  }, 60_000);
});
