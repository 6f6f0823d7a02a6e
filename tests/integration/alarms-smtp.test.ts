import { copyFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../api/db/embedded.ts';
import { DELIVERY_GIVE_UP_MS } from '../../api/repositories/alarms.repository.ts';
import { AlarmDispatcher } from '../../api/services/alarm-dispatcher.ts';
import { createAlarmsService, type AlarmsService } from '../../api/services/alarms.service.ts';
import { makeTestMedia } from '../fixtures/media/lavfi.ts';
import { insertJob, waitFor } from '../support/jobs.ts';
import { createNodeHarness, type NodeHarness } from '../support/node-harness.ts';

/**
 * Alarm mails through a REAL SMTP server on loopback (smtp-server): a relay whose ffmpeg is killed
 * and whose source is gone runs out of restart attempts, and the FAILURE alarm arrives by mail;
 * a mail queued while the SMTP server is down arrives once it is up.
 */
interface Received {
  from: string;
  to: string[];
  raw: string;
}

let harness: NodeHarness;
let alarms: AlarmsService;
let dispatcher: AlarmDispatcher;
const servers: SMTPServer[] = [];

function startSmtp(port: number, inbox: Received[], auth?: { user: string; pass: string }): Promise<SMTPServer> {
  const server = new SMTPServer({
    authOptional: !auth,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(login, _session, callback) {
      if (auth && login.username === auth.user && login.password === auth.pass) return callback(null, { user: login.username });
      callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        inbox.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  servers.push(server);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

const deliveriesOf = (alarmName: string) =>
  harness.db
    .withTables<{ alarms: { id: number; alarm: string; job_id: number | null }; alarm_deliveries: { alarm_id: number; status: string; attempts: number; last_error: string | null; recipient: string } }>()
    .selectFrom('alarm_deliveries as d')
    .innerJoin('alarms as a', 'a.id', 'd.alarm_id')
    .select(['d.status', 'd.attempts', 'd.last_error', 'd.recipient', 'a.job_id'])
    .where('a.alarm', '=', alarmName)
    .execute();

beforeAll(async () => {
  harness = await createNodeHarness('alarms-smtp');
  alarms = createAlarmsService(harness.db, harness.paths);
  // No periodic pass within a test: the job's state changes on the bus wake it, and the tests below tick it themselves.
  dispatcher = new AlarmDispatcher(alarms.repo, alarms.settings, alarms, { tickMs: 3_600_000, bus: harness.bus, backoffBaseMs: 500, backoffMaxMs: 2000 });
  dispatcher.start();
}, 120_000);

afterAll(async () => {
  await dispatcher?.stop();
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(() => resolve(undefined)))));
  await harness?.close();
});

describe('alarm e-mails over SMTP', () => {
  it('mails the FAILURE alarm when a relay is killed and its restart attempts run out (woken by the job\'s state change, not a poll)', async () => {
    const inbox: Received[] = [];
    const smtp = await startSmtp(0, inbox, { user: 'alarms', pass: 's3cret-pass' });
    await alarms.updateSettings({
      general: { rixjobStop: false, rixjobStart: false, rixjobRestart: false, userStop: false, userStart: false, userRestart: false, email: true, smsEnabled: false, assignedRecipientUsers: [], recipientEmails: [{ id: 1, email: 'noc@example.test' }] },
      emailServer: { emailAddress: 'mediaplane@example.test', emailSmtpHost: '127.0.0.1', emailSmtpPort: (smtp.server.address() as AddressInfo).port, emailSecure: false, emailLogin: 'alarms', emailPassword: 's3cret-pass' },
    });
    expect((await alarms.getSettings()).emailServer).not.toHaveProperty('emailPassword');

    const source = path.join(harness.dir, 'alarm-source.ts');
    copyFileSync(await makeTestMedia(path.join(harness.dir, 'alarm-media.ts'), { seconds: 30, width: 160, height: 90 }), source);
    const job = await insertJob(
      harness.db,
      'relay',
      { name: 'alarmed-relay', alarmed: true, restartAttempts: 2, input: { type: 'uri', uri: source }, outputs: [{ type: 'udp', uri: `udp://127.0.0.1:${await freePort()}` }] } as never,
      { active: true, nodeId: harness.nodeId },
    );
    await harness.startNode();
    const pid = await waitFor(async () => {
      const status = await harness.db.selectFrom('job_status').selectAll().where('job_id', '=', job.id).executeTakeFirst();
      return status?.state === 'running' && status.pid ? status.pid : undefined;
    }, 'the relay running');
    // The source goes away and the process is killed: every restart fails until the attempts run out.
    rmSync(source);
    process.kill(pid, 'SIGKILL');

    const mail = await waitFor(async () => inbox.find((m) => /FAILURE/.test(m.raw)), 'the FAILURE alarm mail', 60_000);
    expect(mail.from).toBe('mediaplane@example.test');
    expect(mail.to).toEqual(['noc@example.test']);
    expect(mail.raw).toMatch(/Subject: Mediaplane alarm: relay alarmed-relay \(id:\d+\) FAILURE/);
    expect(mail.raw).toMatch(/restart attempts ran out/);
    // rixjob* alarms are off here: the FAILURE is the only mail, sent once.
    await dispatcher.tick();
    expect(inbox.filter((m) => /FAILURE/.test(m.raw))).toHaveLength(1);
    expect(await deliveriesOf('FAILURE')).toEqual([expect.objectContaining({ status: 'SENT', attempts: 1, recipient: 'noc@example.test', job_id: job.id })]);
    await harness.stopNodes();
  }, 90_000);

  it('keeps an alarm queued while the SMTP server is down and delivers it when the server is back', async () => {
    const port = await freePort();
    await alarms.updateSettings({ emailServer: { emailAddress: 'mediaplane@example.test', emailSmtpHost: '127.0.0.1', emailSmtpPort: port, emailSecure: false, emailLogin: '', emailPassword: '' } });
    const { repo } = alarms;
    await repo.raise({ type: 'SYSTEM', resource: 'cpu', alarm: 'CPU usage raised', cause: 'CPU usage 97 % reached the threshold 90 %' }, [
      { channel: 'EMAIL', recipient: 'oncall@example.test', subject: 'Mediaplane system alarm: CPU usage raised', body: 'CPU usage 97 % reached the threshold 90 %.' },
    ]);
    // Nothing listens: the attempts fail and the delivery stays queued with the socket's error.
    const failing = await waitFor(async () => {
      await dispatcher.tick();
      const [row] = await deliveriesOf('CPU usage raised');
      return row && row.attempts >= 2 ? row : undefined;
    }, 'two failed attempts');
    expect(failing.status).toBe('QUEUED');
    expect(failing.last_error).toMatch(/ECONNREFUSED/);

    const inbox: Received[] = [];
    await startSmtp(port, inbox);
    const mail = await waitFor(async () => (await dispatcher.tick(), inbox.find((m) => /CPU usage raised/.test(m.raw))), 'the queued mail', 30_000);
    expect(mail.to).toEqual(['oncall@example.test']);
    const [sent] = await waitFor(async () => {
      const rows = await deliveriesOf('CPU usage raised');
      return rows[0]?.status === 'SENT' ? rows : undefined;
    }, 'the delivery marked sent');
    expect(sent.attempts).toBeGreaterThanOrEqual(3);
    expect(inbox).toHaveLength(1);
  }, 60_000);

  it('gives a delivery up as FAILED once it has been refused for a day, keeping the last error', async () => {
    const port = await freePort();
    await alarms.updateSettings({ emailServer: { emailAddress: 'mediaplane@example.test', emailSmtpHost: '127.0.0.1', emailSmtpPort: port, emailSecure: false, emailLogin: '', emailPassword: '' } });
    await alarms.repo.raise({ type: 'SYSTEM', resource: 'disk', alarm: 'Disk usage raised', cause: 'Disk usage 95 % reached the threshold 90 %' }, [
      { channel: 'EMAIL', recipient: 'oncall@example.test', subject: 'Mediaplane system alarm: Disk usage raised', body: 'Disk usage 95 % reached the threshold 90 %.' },
    ]);
    // Queued a day ago (as if the SMTP server had been refusing it since): the next refusal is the last.
    await harness.db
      .withTables<{ alarm_deliveries: { created_at: Date; subject: string } }>()
      .updateTable('alarm_deliveries')
      .set({ created_at: new Date(Date.now() - DELIVERY_GIVE_UP_MS) })
      .where('subject', '=', 'Mediaplane system alarm: Disk usage raised')
      .execute();
    const [failed] = await waitFor(async () => {
      await dispatcher.tick();
      const rows = await deliveriesOf('Disk usage raised');
      return rows[0]?.status === 'FAILED' ? rows : undefined;
    }, 'the delivery given up');
    expect(failed.last_error).toMatch(/ECONNREFUSED/);
    expect(failed.attempts).toBeGreaterThanOrEqual(1);
  }, 30_000);
});
