import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertJob } from '../support/jobs.ts';
import { screenshot, signIn, startConsole, type ConsoleHarness } from './support/console.ts';

let harness: ConsoleHarness;
let admin: Page;
let jobId: number;
const ADMIN = { username: 'admin', password: 'admin-password-1' };
const poll = { timeout: 15_000, interval: 100 };

type Db = ConsoleHarness['app']['db'];
const deliveries = (db: Db) => db.withTables<{ alarm_deliveries: { id: number; status: string; attempts: number; sent_at: Date | null; last_error: string | null } }>();

beforeAll(async () => {
  harness = await startConsole();
  await harness.app.createUser({ ...ADMIN, role: 'ADMIN' });
  const job = await insertJob(harness.app.db, 'relay', { name: 'news relay', alarmed: true, input: { type: 'uri', uri: 'udp://239.0.0.1:1234' } } as never);
  jobId = job.id;
  const { repo } = harness.app.services.alarms;
  const email = (subject: string) => ({ channel: 'EMAIL' as const, recipient: 'noc@example.test', subject, body: subject });
  await repo.raise({ type: 'JOB', jobId, jobName: 'news relay', jobType: 'relay', alarm: 'userStop', cause: null }, [email('stop')]);
  await repo.raise({ type: 'JOB', jobId, jobName: 'news relay', jobType: 'relay', alarm: 'FAILURE', cause: 'input_unreachable: Connection refused' }, [email('failure'), { channel: 'SMS', recipient: '+420-777-123456', subject: 'failure', body: 'failure' }]);
  await repo.raise({ type: 'SYSTEM', resource: 'cpu', alarm: 'CPU usage raised', cause: 'CPU usage 97 % reached the threshold 90 %' }, [email('cpu')]);
  // Two mails and the SMS went out; the CPU mail waits for the SMTP server.
  const rows = await deliveries(harness.app.db).selectFrom('alarm_deliveries').select('id').orderBy('id').execute();
  await deliveries(harness.app.db).updateTable('alarm_deliveries').set({ status: 'SENT', attempts: 1, sent_at: new Date() }).where('id', 'in', rows.slice(0, 3).map((r) => r.id)).execute();
  await deliveries(harness.app.db).updateTable('alarm_deliveries').set({ attempts: 3, last_error: 'connect ECONNREFUSED 127.0.0.1:25' }).where('id', '=', rows[3].id).execute();
  ({ page: admin } = await harness.newPage());
  await admin.goto('/login');
  await signIn(admin, ADMIN.username, ADMIN.password);
}, 180_000);

afterAll(async () => {
  await harness?.close();
});

describe('console: alarms', () => {
  it('shows the sent alarms with their deliveries, newest first, and sorts them by date', async () => {
    await admin.goto('/my/alarms/history');
    await admin.getByRole('heading', { name: 'Sent Alarms' }).waitFor();
    const table = admin.getByRole('table', { name: 'Sent alarms' });
    await expect.poll(() => table.locator('tbody tr').count(), poll).toBe(3);
    const firstRow = await table.locator('tbody tr').first().innerText();
    expect(firstRow).toContain('CPU usage raised');
    expect(firstRow).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
    expect(firstRow).toMatch(/QUEUED\s*\(3 attempts\)/);
    const failure = await table.locator('tbody tr').filter({ hasText: 'FAILURE' }).innerText();
    expect(failure).toContain('news relay');
    expect(failure).toContain('+420-777-123456');
    expect(failure).toContain('input_unreachable: Connection refused');
    expect(await admin.locator('.alarm-history-panel').evaluate((el) => getComputedStyle(el).maxHeight)).toBe('800px');
    await screenshot(admin, 'alarms-history');

    await table.getByRole('button', { name: /Time/ }).click();
    await expect.poll(async () => (await table.locator('tbody tr').first().innerText()).includes('userStop'), poll).toBe(true);
  });

  it('shows a card per alarmed job with its sent e-mail and SMS counts', async () => {
    await admin.goto('/my/alarms');
    const card = admin.locator('.alarm-card').filter({ hasText: 'news relay' });
    await card.waitFor();
    expect(await card.innerText()).toMatch(/E-mail\s*2/);
    expect(await card.innerText()).toMatch(/SMS\s*1/);
    expect(await admin.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true);
  });

  it('overrides the alarm settings of one job from its card', async () => {
    await admin.goto('/my/alarms');
    await admin.locator('.alarm-card').filter({ hasText: 'news relay' }).getByRole('link', { name: 'Alarm settings' }).click();
    await admin.getByRole('heading', { name: `Job alarm (id:${jobId})` }).waitFor();
    expect(await admin.getByRole('switch', { name: 'Job stopped by a user' }).isDisabled()).toBe(true);
    await admin.getByRole('switch', { name: 'Use settings of this job' }).click();
    await admin.getByRole('switch', { name: 'Job stopped by a user' }).click();
    await admin.getByRole('button', { name: 'Save' }).click();
    await admin.getByText('Job alarm settings updated.').waitFor();
    expect(await harness.app.services.alarms.effectiveJobSettings(jobId)).toMatchObject({ userStop: !(await harness.app.services.alarms.defaults()).userStop });
  });

  it('opens a job\'s alarm history from its row menu: only its own alarms, newest first, sortable by date', async () => {
    await admin.goto('/my/relays');
    await admin.getByRole('button', { name: 'Actions for relay news relay' }).click();
    await admin.getByRole('menuitem', { name: 'Alarm history' }).click();
    const dialog = admin.getByRole('dialog', { name: `Alarm history: news relay (id:${jobId})` });
    await dialog.waitFor();
    const table = dialog.getByRole('table', { name: 'Alarm history of relay news relay' });
    // The job's two alarms, not the system's CPU alarm.
    await expect.poll(() => table.locator('tbody tr').count(), poll).toBe(2);
    const rows = await table.locator('tbody tr').allInnerTexts();
    expect(rows[0]).toContain('FAILURE');
    expect(rows[0]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
    expect(rows[0]).toContain('input_unreachable: Connection refused');
    expect(rows[0]).toContain('+420-777-123456');
    expect(rows[1]).toContain('userStop');
    expect(rows.join('\n')).not.toContain('CPU usage raised');
    expect(await dialog.getByText('Total: 2').count()).toBe(1);
    const panel = dialog.locator('.alarm-history-panel');
    expect(Number.parseFloat(await panel.evaluate((el) => getComputedStyle(el).maxHeight))).toBeLessThanOrEqual(800);
    expect(await dialog.getByLabel('Items per page').count()).toBe(1);
    await screenshot(admin, 'alarms-job-history-modal');
    await table.getByRole('button', { name: /Time/ }).click();
    await expect.poll(async () => (await table.locator('tbody tr').first().innerText()).includes('userStop'), poll).toBe(true);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    // The list beneath kept its own address.
    expect(new URL(admin.url()).search).toBe('');
  });

  it('opens the alarm history from a job\'s alarm card, and says "No alarms sent" for a job without any', async () => {
    const quiet = await insertJob(harness.app.db, 'relay', { name: 'quiet relay', alarmed: true, input: { type: 'uri', uri: 'udp://239.0.0.1:1235' } } as never);
    await admin.goto('/my/alarms');
    await admin.locator('.alarm-card').filter({ hasText: 'news relay' }).getByRole('button', { name: 'Alarm history' }).click();
    const dialog = admin.getByRole('dialog', { name: `Alarm history: news relay (id:${jobId})` });
    await expect.poll(() => dialog.locator('tbody tr').count(), poll).toBe(2);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await admin.locator('.alarm-card').filter({ hasText: 'quiet relay' }).getByRole('button', { name: 'Alarm history' }).click();
    const empty = admin.getByRole('dialog', { name: `Alarm history: quiet relay (id:${quiet.id})` });
    await empty.getByText('No alarms sent').waitFor();
    await screenshot(admin, 'alarms-job-history-empty');
    await empty.press('Escape');
    await empty.waitFor({ state: 'detached' });
  });

  it('offers the alarm history only to users with ALARMS_VIEW or ALARMS_EDIT', async () => {
    const user = { username: 'relay-operator', password: 'operator-password-1' };
    await harness.app.createUser({ ...user, permissions: { relay: { level: 'RELAY_EDIT', hide: false } } });
    const { page } = await harness.newPage();
    await signIn(page, user.username, user.password);
    await page.goto('/my/relays');
    await page.getByRole('button', { name: 'Actions for relay news relay' }).click();
    await page.getByRole('menuitem', { name: 'View' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Alarm history' }).count()).toBe(0);
  });

  it('checks the system thresholds: percent up to 100', async () => {
    await admin.goto('/my/alarms/system');
    await admin.getByRole('heading', { name: 'Resources' }).waitFor();
    await admin.getByRole('heading', { name: 'Services' }).waitFor();
    await admin.getByLabel('CPU usage', { exact: true }).fill('101');
    await admin.getByText('CPU usage must be at most 100').waitFor();
    expect(await admin.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await admin.getByLabel('CPU usage', { exact: true }).fill('85');
    await admin.getByLabel('CPU usage by e-mail').check();
    await admin.getByRole('button', { name: 'Save' }).click();
    await admin.getByText('System alarms updated.').waitFor();
    const stored = await harness.app.services.alarms.systemAlarms();
    expect(stored.items.find((i) => i.name === 'cpu')).toMatchObject({ value: 85, email: true });
  });

  it('saves the e-mail server settings without ever showing the password again', async () => {
    await admin.goto('/my/alarms/settings');
    await admin.getByRole('heading', { name: 'E-mail server settings' }).waitFor();
    await admin.getByLabel('SMTP host').fill('smtp.example.test');
    await admin.getByLabel('SMTP port').fill('70000');
    await admin.getByText('SMTP port must be between 0 and 65535').waitFor();
    await admin.getByLabel('SMTP port').fill('2525');
    await admin.locator('.card').filter({ hasText: 'E-mail server settings' }).getByLabel('Password').fill('mail-secret-9');
    await admin.getByRole('button', { name: 'Save' }).click();
    await admin.getByText('Alarm settings updated.').waitFor();
    const settings = await harness.app.services.alarms.getSettings();
    expect(settings.emailServer).toMatchObject({ emailSmtpHost: 'smtp.example.test', emailSmtpPort: 2525, emailPasswordSet: true });
    await admin.reload();
    await admin.getByText('A password is stored; leave empty to keep it.').first().waitFor();
    expect(await admin.locator('.card').filter({ hasText: 'E-mail server settings' }).getByLabel('Password').inputValue()).toBe('');
  });

  it('says "No alarms sent" once the history is deleted', async () => {
    await admin.goto('/my/alarms/history');
    await admin.getByRole('button', { name: 'Delete history' }).click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await admin.getByText('No alarms sent').waitFor();
  });
});
