import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENAPI_JSON_PATH } from '../../openapi/build.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

interface DocOperation {
  operationId: string;
  'x-permission'?: 'public' | 'authenticated' | 'admin' | { anyOf: string[] };
  parameters?: Array<{ name: string; in: string }>;
}

const document = JSON.parse(readFileSync(OPENAPI_JSON_PATH, 'utf8')) as { paths: Record<string, Record<string, DocOperation>> };
const all = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
);
/** A concrete URL for a templated path: every path parameter becomes 1. */
const concrete = (path: string) => path.replace(/\{[^}]+\}/g, '1');

describe('every operation in openapi.json', () => {
  let app: TestApp;
  let nobodyCookie: string;

  beforeAll(async () => {
    app = await startTestApp();
    // A signed-in user holding no permission at all.
    const nobody = await app.createUser({ username: 'nobody' });
    nobodyCookie = await app.signIn(nobody.username, nobody.password);
  });
  afterAll(() => app.close());

  it('declares its permission', () => {
    expect(all.length).toBeGreaterThan(0);
    const undeclared = all.filter(({ op }) => op['x-permission'] === undefined).map(({ op }) => op.operationId);
    expect(undeclared).toEqual([]);
  });

  it('answers 401 without a session, unless it is public', async () => {
    for (const { path, method, op } of all) {
      if (op['x-permission'] === 'public') continue;
      const response = await app.request(concrete(path), { method, ...(method === 'GET' ? {} : { json: {} }) });
      expect(response.status, `${method} ${path} (${op.operationId})`).toBe(401);
      expect(((await response.json()) as { code: string }).code).toBe('UNAUTHORIZED');
    }
  });

  it('answers 403 to a signed-in user without the permission it declares', async () => {
    const guarded = all.filter(({ op }) => typeof op['x-permission'] === 'object' || op['x-permission'] === 'admin');
    expect(guarded.length).toBeGreaterThan(0);
    for (const { path, method, op } of guarded) {
      const response = await app.request(concrete(path), { method, cookie: nobodyCookie, ...(method === 'GET' ? {} : { json: {} }) });
      expect(response.status, `${method} ${path} (${op.operationId})`).toBe(403);
      expect(((await response.json()) as { code: string }).code).toBe('FORBIDDEN');
    }
  });
});
