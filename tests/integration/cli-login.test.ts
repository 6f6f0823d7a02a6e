import { readFileSync, statSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { cliHome, type CliHome } from './cli-run.ts';

/** A port nothing listens on: one the system just handed out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface TokenList {
  items: Array<{ id: number; name: string; prefix: string }>;
}

describe('mediaplane login, tokens and logout', () => {
  let app: TestApp;
  let home: CliHome;

  beforeAll(async () => {
    app = await startTestApp();
    await app.createUser({ username: 'chief', password: 'chief-password-1', role: 'ADMIN' });
    home = cliHome(app);
  });
  afterAll(async () => {
    home?.remove();
    await app?.close();
  });

  it('signs in with the username and password from stdin and stores a token readable by its owner only', async () => {
    const login = await home.run(['login'], { input: 'chief\nchief-password-1\n' });
    expect(login.stderr).toBe('');
    expect(login.exitCode).toBe(0);
    expect(login.stdout).toContain(`Signed in to ${app.url} as chief.`);

    expect(statSync(home.configFile).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(readFileSync(home.configFile, 'utf8')) as { url: string; token: string };
    expect(stored.url).toBe(app.url);
    expect(stored.token).toMatch(/^mp_/);

    // The session of the sign-in was ended; only the token remains.
    const sessions = await app.db.selectFrom('sessions').select(['id_hash', 'user_agent']).execute();
    expect(sessions).toEqual([]);
  }, 60_000);

  it('then lists users as the API\'s JSON with the stored token', async () => {
    const result = await home.run(['users', 'list', '--json']);
    expect(result.exitCode).toBe(0);
    const page = JSON.parse(result.stdout) as { items: Array<{ id: number; username: string; role: { value: string }; enabled: boolean }>; counts: { total: number } };
    expect(page.counts.total).toBe(1);
    expect(page.items).toEqual([expect.objectContaining({ username: 'chief', role: expect.objectContaining({ value: 'ADMIN' }), enabled: true })]);
  }, 60_000);

  it('shows the token it made in tokens list --json', async () => {
    const result = await home.run(['tokens', 'list', '--json']);
    expect(result.exitCode).toBe(0);
    const { items } = JSON.parse(result.stdout) as TokenList;
    const stored = JSON.parse(readFileSync(home.configFile, 'utf8')) as { token: string };
    expect(items).toEqual([expect.objectContaining({ name: `cli@${hostname()}`, prefix: stored.token.slice(0, 10) })]);
  }, 60_000);

  it('creates a token whose secret it prints once, and revokes it', async () => {
    const created = await home.run(['tokens', 'create', 'ci-bot']);
    expect(created.exitCode).toBe(0);
    expect(created.stderr).toContain('it will not be shown again');
    const secret = created.stdout.trim();
    expect(secret).toMatch(/^mp_/);
    expect((await app.request('/api/auth/session', { token: secret })).status).toBe(200);

    const { items } = JSON.parse((await home.run(['tokens', 'list', '--json'])).stdout) as TokenList;
    const id = items.find((t) => t.name === 'ci-bot')?.id;
    const revoked = await home.run(['tokens', 'revoke', String(id)]);
    expect(revoked.stdout.trim()).toBe(`Token ${id} revoked.`);
    expect((await app.request('/api/auth/session', { token: secret })).status).toBe(401);
  }, 60_000);

  it('refuses a wrong password with the API\'s code and keeps the stored token', async () => {
    const before = readFileSync(home.configFile, 'utf8');
    const result = await home.run(['login', '--username', 'chief'], { input: 'wrong-password\n' });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/^INVALID_CREDENTIALS: /);
    expect(readFileSync(home.configFile, 'utf8')).toBe(before);
  }, 60_000);

  it('logs out: revokes the stored token and forgets it', async () => {
    const { token } = JSON.parse(readFileSync(home.configFile, 'utf8')) as { token: string };
    const result = await home.run(['logout']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(`Token "cli@${hostname()}" revoked`);
    expect((await app.request('/api/tokens', { token })).status).toBe(401);
    expect(JSON.parse(readFileSync(home.configFile, 'utf8'))).toEqual({ url: app.url });

    const after = await home.run(['users', 'list']);
    expect(after.exitCode).toBe(1);
    expect(after.stderr).toMatch(/^UNAUTHORIZED: /);
  }, 60_000);

  it('says UNREACHABLE with the reason when nothing answers at the URL', async () => {
    const port = await closedPort();
    const result = await home.run(['users', 'list', '--url', `http://127.0.0.1:${port}`]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr.trim()).toBe(`UNREACHABLE: cannot reach http://127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}`);
  }, 60_000);
});
