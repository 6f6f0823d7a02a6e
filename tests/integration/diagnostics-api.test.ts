import { createServer, type AddressInfo } from 'node:net';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Schemas } from '../../openapi/client/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

/** GET /api/diagnostics and /api/diagnostics/internet: real readings of this machine. */
let app: TestApp;
let admin: string;

beforeAll(async () => {
  app = await startTestApp();
  const user = await app.createUser({ username: 'admin', role: 'ADMIN' });
  admin = await app.signIn(user.username, user.password);
});
afterAll(() => app.close());

describe('GET /api/diagnostics', () => {
  it('reads every row of the spec with this stack\'s equivalents, green when a value is present', async () => {
    const response = await app.request('/api/diagnostics', { cookie: admin });
    expect(response.status).toBe(200);
    const { rows } = (await response.json()) as Schemas['DiagnosticsReport'];
    const byLabel = Object.fromEntries(rows.map((r) => [r.label, r]));
    expect(rows.map((r) => r.label)).toEqual([
      'Node.js Version',
      'Node.js Name',
      'Express Version',
      'Database',
      'Internet Connection',
      'Mediaplane - Engine',
      'Media Library',
      'GPU Accelerator',
      'DVB Adapters',
      'DVB Components',
      'Capture Adapter',
      'Media Checker',
      'Ping',
      'MTR',
      'Firewall',
      'GeoIP',
    ]);
    expect(byLabel['Node.js Version']).toMatchObject({ value: process.version, ok: true });
    expect(byLabel['Database'].value).toMatch(/^PostgreSQL \d+/);
    const ffmpegFirstLine = execFileSync('ffmpeg', ['-version'], { encoding: 'utf8' }).split('\n')[0].replace(/\s+Copyright.*$/, '');
    expect(byLabel['Mediaplane - Engine'].value).toContain(ffmpegFirstLine);
    expect(byLabel['Media Library'].value).toMatch(/libavcodec \d+\.\d+\.\d+/);
    expect(byLabel['Media Checker'].value).toMatch(/^ffprobe version/);
    expect(byLabel['Ping'].value).toMatch(/iputils/);
    expect(byLabel['MTR'].value).toMatch(/^mtr \d/);
    expect(byLabel['Firewall'].value).toMatch(/^nftables v/);
    expect(byLabel['GeoIP']).toMatchObject({ ok: true });
    for (const row of rows) expect(row.ok).toBe(row.value !== null);
  });

  it('refuses a user without DIAGNOSTICS_CHECK_VIEW', async () => {
    const plain = await app.createUser({ username: 'plain', permissions: {} });
    const cookie = await app.signIn(plain.username, plain.password);
    expect((await app.request('/api/diagnostics', { cookie })).status).toBe(403);
    expect((await app.request('/api/diagnostics/internet', { cookie })).status).toBe(403);
  });
});

describe('GET /api/diagnostics/internet', () => {
  it('answers on or off within a few seconds', async () => {
    const started = Date.now();
    const response = await app.request('/api/diagnostics/internet', { cookie: admin });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Schemas['InternetCheck'];
    // The tests point the check at a closed loopback port (vitest.config.ts): nothing answers.
    expect(body).toMatchObject({ online: 'off', detail: '127.0.0.1 (127.0.0.1) port 9 did not answer within 2 s' });
    expect(Date.now() - started).toBeLessThan(6000);
  });

  it('is on when its host:port accepts a connection', async () => {
    const server = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      expect(await app.services.diagnostics.internet('127.0.0.1', port)).toMatchObject({ online: 'on', detail: `connected to 127.0.0.1 (127.0.0.1) port ${port}` });
    } finally {
      server.close();
    }
  });

  it('is off, quickly, for a host that does not resolve', async () => {
    const started = Date.now();
    const result = await app.services.diagnostics.internet('no-such-host.invalid');
    expect(result.online).toBe('off');
    expect(Date.now() - started).toBeLessThan(4500);
  });
});
