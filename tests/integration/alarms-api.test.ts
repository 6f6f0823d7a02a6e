import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../api/db/embedded.ts';
import type { Schemas } from '../../openapi/client/index.ts';
import type { UserPermissionMap } from '../../openapi/permissions.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { insertJob } from '../support/jobs.ts';

type ErrorBody = Schemas['Error'];

let app: TestApp;
let admin: string;

const call = async <T>(method: string, path: string, json?: unknown, cookie = admin): Promise<{ status: number; body: T }> => {
  const response = await app.request(`/api/alarms${path}`, { method, cookie, ...(json !== undefined ? { json } : {}) });
  return { status: response.status, body: (await response.json()) as T };
};
const userWith = async (username: string, permissions: UserPermissionMap) => {
  const user = await app.createUser({ username, permissions });
  return app.signIn(user.username, user.password);
};
const general = { rixjobStop: true, rixjobStart: false, rixjobRestart: true, userStop: false, userStart: true, userRestart: false, email: true, smsEnabled: false, assignedRecipientUsers: [], recipientEmails: [{ id: 1, email: 'noc@example.test' }] };
const emailServer = { emailAddress: 'alarms@example.test', emailSmtpHost: '127.0.0.1', emailSmtpPort: 2525, emailSecure: false, emailLogin: 'alarms', emailPassword: 'top-secret-1' };

beforeAll(async () => {
  app = await startTestApp();
  const user = await app.createUser({ username: 'admin', role: 'ADMIN' });
  admin = await app.signIn(user.username, user.password);
});
afterAll(() => app?.close());

describe('/api/alarms', () => {
  it('stores the general settings and never returns the e-mail or SMS password', async () => {
    const put = await call<Schemas['AlarmSettings']>('PUT', '/settings', { general, emailServer });
    expect(put.status).toBe(200);
    const { body } = await call<Schemas['AlarmSettings']>('GET', '/settings');
    expect(body.general).toEqual(general);
    expect(body.emailServer).toEqual({ emailAddress: 'alarms@example.test', emailSmtpHost: '127.0.0.1', emailSmtpPort: 2525, emailSecure: false, emailLogin: 'alarms', emailPasswordSet: true });
    expect(JSON.stringify(body)).not.toContain('top-secret-1');
    const stored = await app.db.selectFrom('system_settings').select('value').where('key', '=', 'alarms.email').executeTakeFirstOrThrow();
    expect(JSON.stringify(stored.value)).not.toContain('top-secret-1');
    // Leaving the password out keeps it.
    await call('PUT', '/settings', { emailServer: { ...emailServer, emailPassword: undefined, emailSmtpPort: 25 } });
    expect((await call<Schemas['AlarmSettings']>('GET', '/settings')).body.emailServer).toMatchObject({ emailSmtpPort: 25, emailPasswordSet: true });
  });

  it('refuses an SMTP port over 65535 and negative SMS counts, naming the field', async () => {
    const port = await call<ErrorBody>('PUT', '/settings', { emailServer: { ...emailServer, emailSmtpPort: 70000 } });
    expect(port.status).toBe(400);
    expect(port.body.details).toContainEqual(expect.objectContaining({ path: 'body.emailServer.emailSmtpPort', message: 'SMTP port must be at most 65535' }));
    const sms = await call<ErrorBody>('PUT', '/settings', { smsProvider: { smsUrl: '', smsMethod: 'GET', smsBody: '', smsLogin: '', amountOfSms: -1, numberOfTimeUnits: 1, timeUnit: 'MINS' } });
    expect(sms.status).toBe(400);
    expect(sms.body.details).toContainEqual(expect.objectContaining({ path: 'body.smsProvider.amountOfSms', message: 'Amount of SMS must be at least 0' }));
  });

  it('lists the system thresholds in Resources and Services and checks their limits', async () => {
    const { body } = await call<Schemas['SystemAlarmList']>('GET', '/system');
    expect(body.items.map((i) => `${i.group}:${i.name}:${i.unit}`)).toEqual(['Resources:cpu:%', 'Resources:memory:%', 'Resources:disk:%', 'Services:failedJobs:jobs', 'Services:bandwidth:Mbit/s']);
    const over = await call<ErrorBody>('PUT', '/system', { items: [{ name: 'cpu', value: 101, email: true, sms: false }] });
    expect(over.status).toBe(400);
    expect(over.body.details).toEqual([{ path: 'body.items.0.value', message: 'CPU usage must be at most 100' }]);
    const big = await call<ErrorBody>('PUT', '/system', { items: [{ name: 'bandwidth', value: 1_000_000_001, email: true, sms: false }] });
    expect(big.body.details).toEqual([{ path: 'body.items.0.value', message: 'Bandwidth must be at most 1000000000' }]);
    const negative = await call<ErrorBody>('PUT', '/system', { items: [{ name: 'disk', value: -1, email: true, sms: false }] });
    expect(negative.body.details).toContainEqual(expect.objectContaining({ path: 'body.items.0.value', message: 'Value must be at least 0' }));
    const ok = await call<Schemas['SystemAlarmList']>('PUT', '/system', { items: [{ name: 'bandwidth', value: 1_000_000_000, email: true, sms: true }] });
    expect(ok.status).toBe(200);
    expect(ok.body.items.find((i) => i.name === 'bandwidth')).toMatchObject({ value: 1_000_000_000, email: true, sms: true });
  });

  it('keeps per-job overrides beside the defaults', async () => {
    const job = await insertJob(app.db, 'relay', { name: 'alarm-card', alarmed: true, input: { type: 'uri', uri: 'udp://239.0.0.1:1234' }, outputs: [{ type: 'udp', uri: 'udp://127.0.0.1:5000' }] } as never);
    const initial = await call<Schemas['JobAlarmSettings']>('GET', `/jobs/${job.id}`);
    expect(initial.body).toMatchObject({ ...general, jobId: job.id, useNotDefaultAlarmSettingOptions: false });
    const own = { ...general, userStop: true, useNotDefaultAlarmSettingOptions: true, useNotDefaultRecipients: false };
    expect((await call<Schemas['JobAlarmSettings']>('PUT', `/jobs/${job.id}`, own)).body).toMatchObject({ userStop: true, jobId: job.id });
    expect((await app.services.alarms.effectiveJobSettings(job.id)).userStop).toBe(true);
    expect((await call<ErrorBody>('GET', '/jobs/999999')).status).toBe(404);
    const cards = await call<Schemas['AlarmCardPage']>('GET', '');
    expect(cards.body.items).toEqual([{ jobId: job.id, jobName: 'alarm-card', jobType: 'relay', alarmed: true, sentEmailAlarmCount: 0, sentSmsAlarmCount: 0 }]);
    expect((await call<Schemas['SentAlarmPage']>('GET', '/history')).body).toMatchObject({ items: [], total: 0 });
  });

  it('answers 502 with the reason when the test mail cannot reach the SMTP server', async () => {
    await call('PUT', '/settings', { emailServer: { ...emailServer, emailSmtpPort: await freePort() } });
    const { status, body } = await call<ErrorBody>('POST', '/test-email', { address: 'me@example.test' });
    expect(status).toBe(502);
    expect(body.code).toBe('SMTP_FAILED');
    expect(body.message).toMatch(/ECONNREFUSED/);
  });

  it('lets ALARMS_VIEW read and only ALARMS_EDIT change; others get 403', async () => {
    const viewer = await userWith('alarm-viewer', { alarms: { level: 'ALARMS_VIEW', hide: false } });
    expect((await call('GET', '/settings', undefined, viewer)).status).toBe(200);
    expect((await call('GET', '/history', undefined, viewer)).status).toBe(200);
    expect((await call('PUT', '/settings', { general }, viewer)).status).toBe(403);
    expect((await call('DELETE', '/history', undefined, viewer)).status).toBe(403);
    const editor = await userWith('alarm-editor', { alarms: { level: 'ALARMS_EDIT', hide: false } });
    expect((await call('PUT', '/settings', { general }, editor)).status).toBe(200);
    expect((await call('DELETE', '/history', undefined, editor)).status).toBe(200);
    const nobody = await userWith('no-alarms', { relay: { level: 'RELAY_EDIT', hide: false } });
    expect((await call('GET', '', undefined, nobody)).status).toBe(403);
  });
});
