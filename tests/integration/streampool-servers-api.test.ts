import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { insertJob } from '../support/jobs.ts';

/** Streampool Server Settings: keys sealed at rest and masked to 9 characters, usage counts, permissions. */
let app: TestApp;
let admin: string;
let viewer: string;
const API_KEY = 'sk-live-0123456789-abcdefghi';

beforeAll(async () => {
  app = await startTestApp();
  const a = await app.createUser({ username: 'admin', role: 'ADMIN' });
  admin = await app.signIn(a.username, a.password);
  const v = await app.createUser({ username: 'pool-viewer', permissions: { streampools: { level: 'STREAM_POOL_VIEW', hide: false } } as never });
  viewer = await app.signIn(v.username, v.password);
});
afterAll(() => app.close());

type Server = { id: number; alias: string; publishAddress: string; playbackAddress: string; apiKey: string; usageCount: number };

describe('/api/settings/streampool-servers', () => {
  let server: Server;

  it('refuses a server without an API key', async () => {
    const response = await app.request('/api/settings/streampool-servers', { method: 'POST', cookie: admin, json: { alias: 'eu-1' } });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toBe('apiKey: API key is required');
  });

  it('creates a server and shows only the last 9 characters of its key; the database holds it sealed', async () => {
    const response = await app.request('/api/settings/streampool-servers', {
      method: 'POST',
      cookie: admin,
      json: { alias: 'eu-1', publishAddress: 'rtmp://publish.example.com/live', playbackAddress: 'https://play.example.com', apiKey: API_KEY },
    });
    expect(response.status).toBe(201);
    server = (await response.json()) as Server;
    expect(server).toMatchObject({ alias: 'eu-1', publishAddress: 'rtmp://publish.example.com/live', usageCount: 0 });
    expect(server.apiKey.endsWith('abcdefghi')).toBe(true);
    expect(server.apiKey).not.toContain('0123456789');
    const row = await app.db.selectFrom('streampool_servers' as never).select('api_key_sealed' as never).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain('abcdefghi');
  });

  it('counts the jobs whose deliveries use the server', async () => {
    await insertJob(app.db, 'encoding', {
      name: 'to-pool',
      input: { type: 'uri', uri: 'udp://239.0.0.1:1234' },
      outputs: [{ type: 'udp', uri: 'udp://239.0.0.2:1234', deliveryOptions: [{ deliveryType: 'STREAMPOOL', server: server.id, streamPool: 'main' }] }],
    } as never);
    const list = (await (await app.request('/api/settings/streampool-servers', { cookie: viewer })).json()) as { items: Server[] };
    expect(list.items).toEqual([{ ...server, usageCount: 1 }]);
  });

  it('keeps the stored key when the masked value comes back, and refuses to delete a used server', async () => {
    const updated = await app.request(`/api/settings/streampool-servers/${server.id}`, { method: 'PUT', cookie: admin, json: { ...server, alias: 'eu-2' } });
    expect(updated.status).toBe(200);
    expect(((await updated.json()) as Server).apiKey).toBe(server.apiKey);
    const removed = await app.request(`/api/settings/streampool-servers/${server.id}`, { method: 'DELETE', cookie: admin });
    expect(removed.status).toBe(409);
  });

  it('lets a STREAM_POOL_VIEW user read but not write', async () => {
    const response = await app.request('/api/settings/streampool-servers', { method: 'POST', cookie: viewer, json: { apiKey: 'x' } });
    expect(response.status).toBe(403);
  });

  it('answers 404 for an unknown server', async () => {
    const response = await app.request('/api/settings/streampool-servers/999', { method: 'PUT', cookie: admin, json: { apiKey: 'x' } });
    expect(response.status).toBe(404);
  });
});
