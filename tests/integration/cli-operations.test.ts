import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Schemas } from '../../openapi/client/index.ts';
import { makeTestMedia } from '../fixtures/media/lavfi.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { insertJob } from '../support/jobs.ts';
import { cliHome, tokenOf, type CliHome } from './cli-run.ts';

/**
 * The operations commands as an engineer runs them: `diagnostics`, `tools ping`, `alarms`, `stats
 * events --download`, `settings`, `dashboard --once`, `timers`, and the job tabs (`relays
 * media-info|trace|monitor|batch-results`) with `endpoints` — each a `mediaplane` process of its
 * own against the real API.
 */
let app: TestApp;
let home: CliHome;
let token: string;
let dir: string;
const SLOW = 180_000;
const cli = (args: string[]) => home.run(args, { token });

beforeAll(async () => {
  app = await startTestApp();
  await app.createUser({ username: 'chief', password: 'chief-password-1', role: 'ADMIN' });
  token = await tokenOf(app, 'chief', 'chief-password-1');
  home = cliHome(app);
  dir = mkdtempSync(path.join(tmpdir(), 'mediaplane-cli-operations-'));
});
afterAll(async () => {
  home?.remove();
  await app?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('mediaplane diagnostics and tools', () => {
  it("diagnostics --json: ffmpeg's real version, and the Internet connection off", async () => {
    const result = await cli(['diagnostics', '--json']);
    expect(result.exitCode, result.stderr).toBe(0);
    const { rows } = JSON.parse(result.stdout) as { rows: Array<{ key: string; value: string | null; ok: boolean }> };
    const row = (key: string) => rows.find((r) => r.key === key);
    const ffmpeg = execFileSync('ffmpeg', ['-version'], { encoding: 'utf8' }).split('\n')[0].replace(/\s+Copyright.*$/, '');
    expect(row('rixjobVersion')?.value).toContain(ffmpeg);
    expect(row('online')).toMatchObject({ value: 'off', ok: false });
  }, SLOW);

  it('tools ping 127.0.0.1 --count 2 --json: each reply as it comes, then the statistics', async () => {
    const result = await cli(['tools', 'ping', '127.0.0.1', '--count', '2', '--json']);
    expect(result.exitCode, result.stderr).toBe(0);
    const events = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string });
    expect(events.filter((e) => e.type === 'line' && (e as { kind?: string }).kind === 'reply')).toHaveLength(2);
    expect(events.some((e) => e.type === 'summary')).toBe(true);
    expect(events.at(-1)?.type).toBe('end');
  }, SLOW);

  it('refuses an address that is an option, before anything runs', async () => {
    const result = await cli(['tools', 'ping', '--', '-f']);
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toMatch(/address/i);
  }, SLOW);
});

describe('mediaplane alarms', () => {
  it('system get and set: a threshold over 100 % is refused with the field named, a good one is stored', async () => {
    const current = await cli(['alarms', 'system', 'get', '--json']);
    expect(current.exitCode, current.stderr).toBe(0);
    const items = (JSON.parse(current.stdout) as Schemas['SystemAlarmList']).items;
    expect(items.map((i) => i.name)).toEqual(expect.arrayContaining(['cpu', 'memory', 'disk']));

    const bad = path.join(dir, 'bad.yaml');
    writeFileSync(bad, 'items:\n  - { name: cpu, value: 120, email: true, sms: false }\n');
    const refused = await cli(['alarms', 'system', 'set', '--file', bad]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/VALIDATION_FAILED.*100/);

    const good = path.join(dir, 'good.json');
    writeFileSync(good, JSON.stringify({ items: [{ name: 'cpu', value: 85, email: true, sms: false }] }));
    const stored = await cli(['alarms', 'system', 'set', '--file', good]);
    expect(stored.exitCode, stored.stderr).toBe(0);
    expect(stored.stdout).toMatch(/cpu\s+85 %\s+on\s+off/);
  }, SLOW);

  it("job get and set: a job's own recipients", async () => {
    const job = await insertJob(app.db, 'relay', { name: 'alarmed relay', input: { type: 'uri', uri: 'udp://127.0.0.1:5000' }, outputs: [{ type: 'udp', uri: 'udp://127.0.0.1:5001' }] } as never);
    const got = await cli(['alarms', 'job', 'get', String(job.id), '--json']);
    expect(got.exitCode, got.stderr).toBe(0);
    const settings = JSON.parse(got.stdout) as Schemas['JobAlarmSettings'];
    const file = path.join(dir, 'job.json');
    const { jobId: _jobId, ...update } = settings;
    writeFileSync(file, JSON.stringify({ ...update, useNotDefaultRecipients: true, recipientEmails: [{ id: 1, email: 'desk@example.test' }] }));
    const set = await cli(['alarms', 'job', 'set', String(job.id), '--file', file, '--json']);
    expect(set.exitCode, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ jobId: job.id, useNotDefaultRecipients: true, recipientEmails: [{ email: 'desk@example.test' }] });
  }, SLOW);

  it('history-delete asks for --yes when not on a terminal, and empties the history with it', async () => {
    await app.services.alarms.repo.raise({ type: 'SYSTEM', resource: 'cpu', alarm: 'CPU usage raised', cause: 'CPU usage 97 % reached the threshold 85 %' }, []);
    expect((JSON.parse((await cli(['alarms', 'history', '--json'])).stdout) as Schemas['SentAlarmPage']).total).toBe(1);
    const refused = await cli(['alarms', 'history-delete']);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/CONFIRMATION_REQUIRED/);
    const deleted = await cli(['alarms', 'history-delete', '--yes']);
    expect(deleted.exitCode, deleted.stderr).toBe(0);
    const after = await cli(['alarms', 'history']);
    expect(after.stdout).toContain('No alarms sent');
  }, SLOW);
});

describe('mediaplane stats and settings', () => {
  it('stats events --download writes the CSV the console links to', async () => {
    const job = await insertJob(app.db, 'relay', { name: 'stats relay', statistics: true, input: { type: 'uri', uri: 'udp://127.0.0.1:5002' }, outputs: [{ type: 'udp', uri: 'udp://127.0.0.1:5003' }] } as never);
    const file = path.join(dir, 'events.csv');
    const result = await cli(['stats', 'events', 'relay', String(job.id), '--download', file]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(readFileSync(file, 'utf8').split('\n')[0]).toMatch(/time/i);
  }, SLOW);

  it('settings get application --json', async () => {
    const result = await cli(['settings', 'get', 'application', '--json']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(Object.keys(JSON.parse(result.stdout) as object)).toEqual(expect.arrayContaining(['applicationIp', 'applicationUrl']));
  }, SLOW);
});

describe('mediaplane relays: the job tabs and the endpoints', () => {
  it('media-info --uri, trace, monitor and batch-results of a relay, as tables and as JSON', async () => {
    const source = await makeTestMedia(path.join(dir, 'source.ts'), { seconds: 2, width: 160, height: 90 });
    const probed = await cli(['relays', 'media-info', '--uri', source]);
    expect(probed.exitCode, probed.stderr).toBe(0);
    expect(probed.stdout).toMatch(/video\s+h264\s+160x90/);
    expect(probed.stdout).toMatch(/audio\s+\S+\s+--\s+\d+ Hz/);

    const created = await cli(['relays', 'create', '--file', writeJson('relay.json', { name: 'tabs relay', input: { type: 'uri', uri: source }, outputs: [{ type: 'hls', uri: 'cli/tabs' }] }), '--json']);
    expect(created.exitCode, created.stderr).toBe(0);
    const id = (JSON.parse(created.stdout) as Schemas['Job']).id;

    const trace = await cli(['relays', 'trace', String(id), '--json']);
    expect(trace.exitCode, trace.stderr).toBe(0);
    expect((JSON.parse(trace.stdout) as Schemas['TraceResult']).traces.map((t) => t.key)).toEqual(expect.arrayContaining(['format', 'streams']));

    const monitor = await cli(['relays', 'monitor', String(id)]);
    expect(monitor.exitCode, monitor.stderr).toBe(0);
    expect(monitor.stdout).toContain('State: never ran');
    expect(monitor.stdout).toMatch(/1 HLS\s+hls\s+http:\/\/127\.0\.0\.1:\d+\/streams\/cli\/tabs\/index\.m3u8/);

    const batch = await cli(['relays', 'batch-results', String(id)]);
    expect(batch.exitCode, batch.stderr).toBe(0);
    expect(batch.stdout).toContain('No batch results');
  }, SLOW);

  it('endpoints set and get, refusing a URL that is not one', async () => {
    const refused = await cli(['endpoints', 'set', '--runprox-url', 'not a url', '--dvb-url', 'http://astra.example.com:8000']);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/runproxUrl.*Runprox URL must be a URL/);
    const set = await cli(['endpoints', 'set', '--runprox-url', 'http://runprox.example.com:8080', '--dvb-url', 'http://astra.example.com:8000']);
    expect(set.exitCode, set.stderr).toBe(0);
    const got = await cli(['endpoints', 'get', '--json']);
    expect(JSON.parse(got.stdout)).toEqual({ runproxUrl: 'http://runprox.example.com:8080', astraUrl: 'http://astra.example.com:8000' });
  }, SLOW);
});

describe('mediaplane dashboard, timers and settings set', () => {
  it("dashboard --once --json: one live reading of the server's node", async () => {
    const result = await cli(['dashboard', '--once', '--json']);
    expect(result.exitCode, result.stderr).toBe(0);
    const reading = JSON.parse(result.stdout) as Schemas['DashboardStatus'];
    expect(reading).toMatchObject({ live: true, nodeName: 'local' });
    expect(reading.cpuCoreCount).toBeGreaterThanOrEqual(1);
    expect(reading.memoryTotal).toBeGreaterThan(0);
  }, SLOW);

  it('timers create, list, disable and delete; a minute past 59 is refused', async () => {
    const refused = await cli(['timers', 'create', '--name', 'bad', '--action', 'STOP', '--type', 'HOURLY', '--time', '75', '--task-type', 'relay', '--jobs', 'all', '--enabled']);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/VALIDATION_FAILED.*time/);
    const created = await cli(['timers', 'create', '--name', 'night stop', '--action', 'STOP', '--type', 'DAILY', '--time', '02:30', '--task-type', 'relay', '--jobs', 'all', '--enabled', '--json']);
    expect(created.exitCode, created.stderr).toBe(0);
    const timer = JSON.parse(created.stdout) as Schemas['Timer'];
    expect(timer).toMatchObject({ name: 'night stop', action: { value: 'STOP' }, type: { value: 'DAILY' }, time: '02:30', allJobs: true, actived: true });
    expect(timer.nextRunAt).not.toBeNull();
    const list = await cli(['timers', 'list']);
    expect(list.stdout).toMatch(/night stop/);
    const disabled = await cli(['timers', 'disable', String(timer.id), '--json']);
    expect(JSON.parse(disabled.stdout)).toMatchObject({ actived: false, nextRunAt: null });
    const deleted = await cli(['timers', 'delete', String(timer.id), '--yes']);
    expect(deleted.exitCode, deleted.stderr).toBe(0);
    expect((await cli(['timers', 'get', String(timer.id)])).exitCode).toBe(1);
  }, SLOW);

  it('settings set application from a file, read back with get', async () => {
    const file = writeJson('application.json', { applicationIp: '192.0.2.10', applicationUrl: 'https://media.example.com' });
    const set = await cli(['settings', 'set', 'application', '--file', file]);
    expect(set.exitCode, set.stderr).toBe(0);
    expect(JSON.parse((await cli(['settings', 'get', 'application', '--json'])).stdout)).toEqual({ applicationIp: '192.0.2.10', applicationUrl: 'https://media.example.com' });
  }, SLOW);
});

function writeJson(name: string, value: unknown): string {
  const at = path.join(dir, name);
  writeFileSync(at, JSON.stringify(value));
  return at;
}
