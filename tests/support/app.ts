import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { dataPaths } from '../../api/config.ts';
import { createApp } from '../../api/app.ts';
import type { Db } from '../../api/db/database.ts';
import { EventBus } from '../../api/events/event-bus.ts';
import { createServices, type Services } from '../../api/services/index.ts';
import type { UserPermissionMap } from '../../openapi/permissions.ts';
import { createTestDatabase } from './db.ts';

export interface TestApp {
  url: string;
  db: Db;
  databaseUrl: string;
  services: Services;
  /** Create a user directly (bypassing the API) and return its credentials. */
  createUser(input: { username: string; password?: string; role?: 'ADMIN' | 'USER'; permissions?: UserPermissionMap; enabled?: boolean }): Promise<{ id: number; username: string; password: string }>;
  /** Sign in through the API and return the session cookie header value. */
  signIn(username: string, password: string): Promise<string>;
  /** fetch against the app, with JSON by default. */
  request(path: string, init?: RequestInit & { cookie?: string; token?: string; json?: unknown }): Promise<Response>;
  close(): Promise<void>;
}

/** The real API (Express, services, repositories) on a real Postgres database of its own, on a free port. */
export async function startTestApp(options: { consoleDir?: string; devMode?: boolean } = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const events = new EventBus(database.url, database.db);
  await events.start();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'mediaplane-app-'));
  const services = createServices(database.db, events, { devMode: options.devMode ?? false, paths: dataPaths(dataDir), auth: { sessionIdleMinutes: 60, sessionMaxHours: 12 } });
  await services.nodes.upsert({ nodeId: 'test-node', name: 'local', ip: '127.0.0.1', version: 'test' });
  const app = createApp(services, { consoleDir: options.consoleDir, log: () => {} });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  const request: TestApp['request'] = (path, init = {}) => {
    const { cookie, token, json, headers, ...rest } = init;
    return fetch(`${url}${path}`, {
      ...rest,
      headers: {
        ...(json !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(cookie ? { cookie } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(headers as Record<string, string> | undefined),
      },
      ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
    });
  };

  return {
    url,
    db: database.db,
    databaseUrl: database.url,
    services,
    async createUser({ username, password = 'correct-horse-1', role = 'USER', permissions, enabled = true }) {
      const result = await services.admin.createOrReset(username, password);
      const row = await services.users.get((await database.db.selectFrom('users').select('id').where('username', '=', result.username).executeTakeFirstOrThrow()).id);
      await database.db
        .updateTable('users')
        .set({ role, enabled, permissions: JSON.stringify(permissions ?? {}) })
        .where('id', '=', row.id)
        .execute();
      return { id: row.id, username, password };
    },
    async signIn(username, password) {
      const response = await request('/api/auth/login', { method: 'POST', json: { username, password } });
      if (response.status !== 200) throw new Error(`sign-in of ${username} failed: ${response.status} ${await response.text()}`);
      const cookie = response.headers.get('set-cookie') ?? '';
      return cookie.split(';')[0];
    },
    request,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await events.stop();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
