import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LiveLogger } from '../../api/logging.ts';
import { startNodeLogger } from '../../api/node/node-logger.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { waitFor } from '../support/jobs.ts';

/** System settings: application, log and feature settings, with their rules and permissions. */
let app: TestApp;
let admin: string;
let settingsViewer: string;
let settingsEditor: string;

beforeAll(async () => {
  app = await startTestApp();
  const a = await app.createUser({ username: 'admin', role: 'ADMIN' });
  admin = await app.signIn(a.username, a.password);
  const v = await app.createUser({ username: 'viewer', permissions: { settings: { level: 'SETTINGS_VIEW', hide: false } } as never });
  settingsViewer = await app.signIn(v.username, v.password);
  const e = await app.createUser({ username: 'editor', permissions: { settings: { level: 'SETTINGS_EDIT', hide: false } } as never });
  settingsEditor = await app.signIn(e.username, e.password);
});
afterAll(() => app.close());

describe('/api/settings/application', () => {
  it('refuses an IP that is not an IP literal and a URL that is not a URL', async () => {
    const response = await app.request('/api/settings/application', { method: 'PUT', cookie: admin, json: { applicationIp: '10.0.0.300', applicationUrl: 'not a url' } });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { details: Array<{ path: string; message: string }> };
    expect(body.details.map((d) => d.path).sort()).toEqual(['body.applicationIp', 'body.applicationUrl']);
  });

  it('saves an IPv4 or IPv6 literal and a URL; a SETTINGS_VIEW user reads but cannot save', async () => {
    const value = { applicationIp: '2001:db8::10', applicationUrl: 'https://media.example.com' };
    expect((await app.request('/api/settings/application', { method: 'PUT', cookie: settingsEditor, json: value })).status).toBe(200);
    expect(await (await app.request('/api/settings/application', { cookie: settingsViewer })).json()).toEqual(value);
    expect((await app.request('/api/settings/application', { method: 'PUT', cookie: settingsViewer, json: value })).status).toBe(403);
  });
});

describe('/api/settings/logs/{target}', () => {
  it('gives new loggers ids and applies RixUI settings to a running logger without a restart', async () => {
    const lines: string[] = [];
    const logger = new LiveLogger((line) => lines.push(line));
    const stop = await app.services.settings.start(logger);
    const log = logger.line('server.event-bus');
    log('before');
    expect(lines).toEqual(['before']);
    const response = await app.request('/api/settings/logs/rixui', {
      method: 'PUT',
      cookie: admin,
      json: { logLevel: 'INFO', logTarget: 'CONSOLE', logMaxSizeInMegaBytes: 5, loggers: [{ loggerName: 'server.event-bus', logLevel: 'ERROR' }] },
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { loggers: unknown[] }).loggers).toEqual([{ id: 1, loggerName: 'server.event-bus', logLevel: 'ERROR' }]);
    await waitFor(async () => logger.levelOf('server.event-bus') === 'ERROR', 'the logger following the settings');
    log('after: hidden at ERROR');
    logger.line('server')('other loggers keep INFO');
    expect(lines).toEqual(['before', 'other loggers keep INFO']);
    stop();
  });

  it('keeps Rixjob settings apart, with NOTICE as the default level', async () => {
    expect(await (await app.request('/api/settings/logs/rixjob', { cookie: settingsViewer })).json()).toEqual({ logLevel: 'NOTICE', logTarget: 'FILE', logMaxSizeInMegaBytes: 10, loggers: [] });
  });

  it("applies Rixjob settings to the node's logger without a restart: FILE writes rixjob.log, CONSOLE the console", async () => {
    const logsDir = mkdtempSync(path.join(tmpdir(), 'mediaplane-rixjob-'));
    const lines: string[] = [];
    const { logger, stop } = await startNodeLogger(app.db, app.services.events, logsDir, (line) => lines.push(line));
    try {
      // The default: NOTICE, to the file. A plain line of a component counts as INFO: below NOTICE.
      logger.write('node', 'WARNING', 'written to the file');
      logger.line('node')('an INFO line, below NOTICE');
      expect(readFileSync(path.join(logsDir, 'rixjob.log'), 'utf8')).toMatch(/^\S+ WARNING \[node\] written to the file\n$/);
      expect(lines).toEqual([]);

      const response = await app.request('/api/settings/logs/rixjob', { method: 'PUT', cookie: admin, json: { logLevel: 'INFO', logTarget: 'CONSOLE', logMaxSizeInMegaBytes: 5, loggers: [{ loggerName: 'node.srt', logLevel: 'ERROR' }] } });
      expect(response.status).toBe(200);
      await waitFor(async () => logger.current.logTarget === 'CONSOLE', "the node's logger following the settings");
      logger.line('node')('now on the console');
      logger.line('node.srt')('hidden at ERROR');
      expect(lines).toEqual(['now on the console']);
    } finally {
      stop();
      rmSync(logsDir, { recursive: true, force: true });
    }
  });

  it('refuses a max size below 1 MB and a logger without a name', async () => {
    const response = await app.request('/api/settings/logs/rixjob', { method: 'PUT', cookie: admin, json: { logLevel: 'INFO', logTarget: 'FILE', logMaxSizeInMegaBytes: 0, loggers: [{ loggerName: '', logLevel: 'INFO' }] } });
    expect(response.status).toBe(400);
    const messages = ((await response.json()) as { details: Array<{ message: string }> }).details.map((d) => d.message);
    expect(messages).toEqual(expect.arrayContaining(['Log max size must be at least 1 MB', 'Logger name is required']));
  });
});

describe('/api/settings/features', () => {
  it('is for ADMIN only', async () => {
    expect((await app.request('/api/settings/features', { cookie: settingsEditor })).status).toBe(403);
  });

  it('turns the ads feature on for the shell and sets a global job feature for the job features catalogue', async () => {
    const response = await app.request('/api/settings/features', {
      method: 'PUT',
      cookie: admin,
      json: { features: [{ name: 'ads', status: true }, { name: 'staleTimeoutSeconds', status: true, value: '30' }] },
    });
    expect(response.status).toBe(200);
    const info = (await (await app.request('/api/system/info', { cookie: admin })).json()) as { features: Record<string, boolean> };
    expect(info.features.ads).toBe(true);
    const catalogue = (await (await app.request('/api/job-features', { cookie: admin })).json()) as { items: Array<{ name: string; global: boolean; globalValue: string | null }> };
    expect(catalogue.items.find((f) => f.name === 'staleTimeoutSeconds')).toMatchObject({ global: true, globalValue: '30' });
  });

  it('refuses a number feature without a number', async () => {
    const response = await app.request('/api/settings/features', { method: 'PUT', cookie: admin, json: { features: [{ name: 'udpTtl', status: true, value: 'abc' }] } });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toBe('features.0.value: udpTtl needs a number');
  });
});
