import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlarmDispatcher } from '../../api/services/alarm-dispatcher.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { insertJob, waitFor } from '../support/jobs.ts';

/**
 * SMS alarms through a REAL HTTP provider on loopback: the URL and body templates are filled in,
 * the user's phone number receives them, and amountOfSms per numberOfTimeUnits is respected (the
 * rest waits in the queue, nothing is dropped).
 */
interface Hit {
  method: string;
  url: string;
  body: string;
}

let app: TestApp;
let provider: Server;
let providerUrl: string;
let dispatcher: AlarmDispatcher;
const hits: Hit[] = [];

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => resolve(body));
  });

type Db = TestApp['db'];
const events = (db: Db) => db.withTables<{ alarm_deliveries: { id: number; channel: string; status: string; attempts: number; last_error: string | null; recipient: string } }>();

beforeAll(async () => {
  provider = createServer(async (req, res) => {
    hits.push({ method: req.method ?? '', url: req.url ?? '', body: await readBody(req) });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"queued"}');
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
  app = await startTestApp();
  const { alarms } = app.services;
  dispatcher = new AlarmDispatcher(alarms.repo, alarms.settings, alarms, { tickMs: 200 });
  dispatcher.start();
}, 120_000);

afterAll(async () => {
  await dispatcher?.stop();
  await app?.close();
  await new Promise((resolve) => provider?.close(resolve));
});

describe('SMS alarms', () => {
  it('sends the job alarms to the recipient users\' phones through the provider, at most amountOfSms per time unit', async () => {
    const user = await app.createUser({ username: 'oncall' });
    await app.db.updateTable('users').set({ phone_number: '+420-777-123456', email: 'oncall@example.test' }).where('id', '=', user.id).execute();
    await app.services.alarms.updateSettings({
      general: { rixjobStop: false, rixjobStart: false, rixjobRestart: false, userStop: true, userStart: true, userRestart: true, email: false, smsEnabled: true, assignedRecipientUsers: [{ id: user.id, username: 'oncall' }], recipientEmails: [] },
      smsProvider: { smsUrl: `${providerUrl}/send?user={login}&key={password}`, smsMethod: 'POST', smsBody: '{"to":"{to}","text":"{text}"}', smsLogin: 'headend', smsPassword: 'p@ss word', amountOfSms: 2, numberOfTimeUnits: 1, timeUnit: 'HOURS' },
    });
    const settings = await app.services.alarms.getSettings();
    expect(settings.smsProvider).toMatchObject({ smsLogin: 'headend', smsPasswordSet: true });
    expect(JSON.stringify(settings)).not.toContain('p@ss word');

    await dispatcher.tick(); // the cursor starts after the events that exist now
    const job = await insertJob(app.db, 'relay', { name: 'sms-relay', alarmed: true, input: { type: 'uri', uri: 'udp://239.0.0.1:1234' }, outputs: [{ type: 'udp', uri: 'udp://127.0.0.1:5000' }] } as never);
    for (const type of ['START', 'STOP', 'START']) {
      await app.db.insertInto('job_events').values({ job_id: job.id, type, actor_kind: 'user', actor_id: user.id, actor_name: 'oncall' }).execute();
    }

    await waitFor(async () => hits.length >= 2, 'two SMS at the provider');
    const queued = await waitFor(async () => {
      const rows = await events(app.db).selectFrom('alarm_deliveries').selectAll().where('channel', '=', 'SMS').orderBy('id').execute();
      return rows.length === 3 && rows[2].last_error ? rows : undefined;
    }, 'the third SMS held back');
    expect(queued.map((d) => d.status)).toEqual(['SENT', 'SENT', 'QUEUED']);
    expect(queued[2]).toMatchObject({ attempts: 0, last_error: 'rate limit: at most 2 SMS per 60 minutes', recipient: '+420-777-123456' });
    await dispatcher.tick();
    expect(hits).toHaveLength(2);

    expect(hits[0].method).toBe('POST');
    expect(hits[0].url).toBe('/send?user=headend&key=p%40ss%20word');
    const sms = JSON.parse(hits[0].body) as { to: string; text: string };
    expect(sms.to).toBe('+420-777-123456');
    expect(sms.text).toMatch(/^Mediaplane alarm: relay sms-relay \(id:\d+\) START\nSTART by user oncall\./);
    expect(JSON.parse(hits[1].body).text).toMatch(/STOP by user oncall/);

    // The history shows the three alarms with their SMS, and the card counts the sent ones.
    const history = await app.services.alarms.history({ page: 1, size: 25, order: 'asc' });
    expect(history.items.map((a) => [a.alarm, a.count])).toEqual([['userStart', 1], ['userStop', 1], ['userStart', 0]]);
    const cards = await app.services.alarms.cards({ page: 1, size: 8 });
    expect(cards.items).toEqual([expect.objectContaining({ jobName: 'sms-relay', sentSmsAlarmCount: 2, sentEmailAlarmCount: 0 })]);
  }, 60_000);
});
