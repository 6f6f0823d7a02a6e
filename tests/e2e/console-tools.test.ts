import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../api/db/embedded.ts';
import { gmtOffsetLabel } from '../../api/services/timer-schedule.ts';
import { clockText, localTimeOf } from '../../console/src/features/timers/timerFormModel.ts';
import { makeTestMedia } from '../fixtures/media/lavfi.ts';
import { insertJob } from '../support/jobs.ts';
import { processesWithArgument } from '../support/processes.ts';
import { serveFile } from '../integration/tools-support.ts';
import { screenshot, sidebarEntries, signIn, startConsole, type ConsoleHarness } from './support/console.ts';

/** The Tools screens with the real ping, mtr and ffprobe behind them, and the Timers screens. */
let harness: ConsoleHarness;
let admin: Page;
let media: { url: string; close(): Promise<void> };
const ADMIN = { username: 'admin', password: 'admin-password-1' };
const VIEWER = { username: 'tools-viewer', password: 'viewer-password-1' };

const results = (page: Page, name: string) => page.getByRole('log', { name });
/** A sidebar entry (the breadcrumbs may hold a link of the same name). */
const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });
const timersTable = (page: Page) => page.getByRole('table', { name: 'Timers' });
const timerRow = (page: Page, name: string) => timersTable(page).getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });

beforeAll(async () => {
  harness = await startConsole();
  await harness.app.createUser({ ...ADMIN, role: 'ADMIN' });
  await harness.app.createUser({ ...VIEWER, permissions: { tools: { level: 'TOOLS_VIEW', hide: false } } });
  const file = await makeTestMedia(path.join(path.dirname(harness.app.services.paths.logsDir), 'e2e-source.ts'), { seconds: 6, width: 160, height: 90 });
  media = await serveFile(file);
  // The timers show the server's time beside the user's: this browser is in India (GMT+05:30).
  const context = await harness.browser.newContext({ baseURL: harness.url, viewport: { width: 1360, height: 820 }, timezoneId: 'Asia/Kolkata' });
  context.setDefaultTimeout(20_000);
  admin = await context.newPage();
  await admin.goto('/login');
  await signIn(admin, ADMIN.username, ADMIN.password);
}, 120_000);

afterAll(async () => {
  await media?.close();
  await admin?.context().close();
  await harness?.close();
});

describe('console: tools', () => {
  it('shows the Tools group in the sidebar', async () => {
    const entries = await sidebarEntries(admin);
    const tools = ['Media Checker', 'MTR', 'Ping', 'Timers', 'Keyframe Interval'];
    const at = entries.indexOf('Media Checker');
    expect(entries.slice(at, at + tools.length)).toEqual(tools);
  });

  it('pings 127.0.0.1: the replies show one by one while it runs, then the statistics', async () => {
    await nav(admin, 'Ping').click();
    await admin.getByRole('heading', { name: 'Ping' }).waitFor();
    expect(await admin.getByLabel('Count').inputValue()).toBe('10');
    await admin.getByLabel('Address').fill('127.0.0.1');
    await admin.getByLabel('Count').fill('4');
    await admin.getByRole('button', { name: 'Ping', exact: true }).click();
    // The first reply is on screen while ping still runs (Abort is offered, the inputs are disabled).
    await results(admin, 'Ping results').getByText('icmp_seq=1 ', { exact: false }).waitFor();
    expect(await admin.getByRole('button', { name: 'Abort' }).isVisible()).toBe(true);
    expect(await admin.getByLabel('Address').isDisabled()).toBe(true);
    expect(await results(admin, 'Ping results').getByText('icmp_seq=4 ', { exact: false }).count()).toBe(0);
    await screenshot(admin, 'tools-ping-running');
    await admin.getByText('4 transmitted, 4 received, 0% packet loss', { exact: false }).waitFor();
    await admin.getByRole('button', { name: 'Ping', exact: true }).waitFor();
    await screenshot(admin, 'tools-ping');
  });

  it('aborts a ping: the program ends on the server', async () => {
    await admin.getByLabel('Address').fill('127.42.9.9');
    await admin.getByLabel('Count').fill('500');
    await admin.getByRole('button', { name: 'Ping', exact: true }).click();
    await results(admin, 'Ping results').getByText('icmp_seq=2 ', { exact: false }).waitFor();
    expect(processesWithArgument('ping', '127.42.9.9')).toHaveLength(1);
    await admin.getByRole('button', { name: 'Abort' }).click();
    await admin.getByText('Aborted.').waitFor();
    await expect.poll(() => processesWithArgument('ping', '127.42.9.9'), { timeout: 10_000 }).toEqual([]);
  });

  it('shows ping\'s own error in red, and refuses what is not a host before running anything', async () => {
    await admin.getByLabel('Address').fill('no-such-host.invalid');
    await admin.getByLabel('Count').fill('1');
    await admin.getByRole('button', { name: 'Ping', exact: true }).click();
    const error = results(admin, 'Ping results').getByRole('alert');
    await error.waitFor();
    expect(await error.innerText()).toContain('no-such-host.invalid');
    expect(await error.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(207, 34, 46)');
    await screenshot(admin, 'tools-ping-error');

    await admin.getByLabel('Address').fill('-c 1; id');
    await admin.getByRole('button', { name: 'Ping', exact: true }).click();
    await admin.getByText('Address must be a host name or an IP address', { exact: false }).waitFor();
  });

  it('traces the route to 127.0.0.1 with MTR, the table filling while it runs', async () => {
    await nav(admin, 'MTR').click();
    await admin.getByRole('heading', { name: 'MTR' }).waitFor();
    expect(await admin.getByLabel('Count').inputValue()).toBe('30');
    await admin.getByLabel('Host').fill('127.0.0.1');
    await admin.getByLabel('Count').fill('3');
    await admin.getByLabel('No DNS').check();
    await admin.getByRole('button', { name: 'Start' }).click();
    const table = admin.getByRole('table', { name: 'MTR results' });
    await table.getByRole('cell', { name: '127.0.0.1' }).waitFor();
    expect(await admin.getByRole('button', { name: 'Stop' }).isVisible()).toBe(true);
    await admin.getByRole('button', { name: 'Start' }).waitFor({ timeout: 30_000 });
    const row = await table.getByRole('row').nth(1).allInnerTexts();
    expect(row[0].split('\t').map((c) => c.trim()).slice(0, 4)).toEqual(['1.', '127.0.0.1', '0.0%', '3']);
    await screenshot(admin, 'tools-mtr');
  });

  it('measures the keyframe interval of a source, and says why one cannot be read', async () => {
    await nav(admin, 'Keyframe Interval').click();
    await admin.getByRole('heading', { name: 'Keyframe Interval' }).waitFor();
    const get = admin.getByRole('button', { name: 'Get Interval' });
    expect(await get.isDisabled()).toBe(true);
    expect(await admin.getByLabel('Interval count').getAttribute('placeholder')).toBe('10');
    // No token source is configured: the token choice is not offered.
    expect(await admin.getByLabel('Token').count()).toBe(0);
    await admin.getByLabel('URI').fill(media.url);
    await admin.getByLabel('Interval count').fill('3');
    await get.click();
    await admin.getByTestId('keyframe-interval').waitFor();
    expect(await admin.getByTestId('keyframe-interval').innerText()).toMatch(/^Interval: 1 s \(25 frames/);
    expect(await admin.getByRole('table', { name: 'Keyframe intervals' }).getByRole('row').count()).toBe(4);
    await screenshot(admin, 'tools-keyframe');

    await admin.getByLabel('URI').fill(`http://127.0.0.1:${await freePort()}/none.ts`);
    await get.click();
    await admin.getByText(/^got error .*Connection refused/).waitFor();
  });

  it('checks a source\'s streams with the media checker, and lists each key and value of an error', async () => {
    await nav(admin, 'Media Checker').click();
    await admin.getByRole('heading', { name: 'Media Checker' }).waitFor();
    const run = admin.getByRole('button', { name: 'Run' });
    expect(await run.isDisabled()).toBe(true);
    await admin.getByLabel('URI').fill(media.url);
    await run.click();
    const streams = admin.getByRole('table', { name: 'Streams' });
    await streams.waitFor();
    expect(await streams.getByRole('cell', { name: 'h264' }).count()).toBe(1);
    expect(await streams.getByRole('cell', { name: 'aac' }).count()).toBe(1);
    expect(await streams.getByRole('cell', { name: '160x90' }).count()).toBe(1);
    await screenshot(admin, 'tools-mediachecker');

    const port = await freePort();
    await admin.getByLabel('URI').fill(`http://127.0.0.1:${port}/none.ts`);
    await run.click();
    const error = admin.getByRole('definition').filter({ hasText: 'Media info detection failed' });
    await error.waitFor();
    const terms = await admin.locator('.tool-error-list dt').allInnerTexts();
    expect(terms).toEqual(['message', 'detail', 'uri', 'exitCode']);
    await screenshot(admin, 'tools-mediachecker-error');
  });
});

describe('console: timers', () => {
  it('creates, lists, disables and deletes timers, with the server\'s offset beside the local time', async () => {
    const relay = await insertJob(harness.app.db, 'relay', { name: 'Morning news', input: { type: 'uri', uri: 'udp://239.0.0.1:1234' }, outputs: [{ type: 'udp', uri: 'udp://127.0.0.1:5000' }] } as never);
    await insertJob(harness.app.db, 'relay', { name: 'Evening news', input: { type: 'uri', uri: 'udp://239.0.0.2:1234' }, outputs: [{ type: 'udp', uri: 'udp://127.0.0.1:5002' }] } as never);
    await nav(admin, 'Timers').click();
    await admin.getByRole('heading', { name: 'Timers' }).waitFor();
    await timersTable(admin).getByText('No timers').waitFor();

    await admin.getByRole('link', { name: 'Add New' }).click();
    await admin.getByRole('heading', { name: 'Add timer' }).waitFor();
    const create = admin.getByRole('button', { name: 'Create' });
    await admin.getByLabel('Name').focus();
    await admin.getByLabel('Name').press('Enter');
    await admin.getByText('Name is required', { exact: true }).waitFor();
    await admin.getByLabel('Name').fill('Night stop');
    await admin.getByLabel('Action').selectOption({ label: 'Stop' });
    // HOURLY hides the hours.
    await admin.getByLabel('Timer Type').selectOption({ label: 'Hourly' });
    expect(await admin.getByLabel('Hours').count()).toBe(0);
    await admin.getByLabel('Timer Type').selectOption({ label: 'Daily' });
    await admin.getByLabel('Hours').selectOption('23');
    await admin.getByLabel('Minutes').selectOption('30');
    await screenshot(admin, 'timer-new');
    await create.click();
    await admin.getByRole('heading', { name: 'Timer Night stop' }).waitFor();
    expect(await admin.getByRole('button', { name: 'Update' }).isDisabled()).toBe(true);

    await admin.goto('/my/tools/timers/edit');
    await admin.getByLabel('Name').fill('Weekday start');
    await admin.getByLabel('Timer Type').selectOption({ label: 'Weekly' });
    await admin.getByRole('group', { name: 'Days of week' }).getByLabel('Mon').check();
    await admin.getByRole('group', { name: 'Days of week' }).getByLabel('Fri').check();
    await admin.getByLabel('Hours').selectOption('06');
    await admin.getByLabel('Search relays').fill('news');
    await admin.getByRole('list', { name: 'Relays to choose' }).getByLabel(/Morning news/).check();
    await admin.getByRole('list', { name: 'Relays to choose' }).getByLabel(/Evening news/).check();
    await admin.getByRole('button', { name: 'Create' }).click();
    await admin.getByRole('heading', { name: 'Timer Weekday start' }).waitFor();

    await nav(admin, 'Timers').click();
    await timerRow(admin, 'Weekday start').waitFor();
    const names = await timersTable(admin).locator('tbody tr td:nth-child(2)').allInnerTexts();
    expect(names).toEqual(['Night stop', 'Weekday start']);
    const night = timerRow(admin, 'Night stop');
    expect(await night.locator('td').nth(2).innerText()).toBe('Stop');
    expect(await night.locator('td').nth(3).innerText()).toBe('Daily');
    // The server's time with its offset, and the browser's (India, GMT+05:30) beside it.
    const offset = gmtOffsetLabel(Intl.DateTimeFormat().resolvedOptions().timeZone, Date.now());
    expect((await night.locator('td').nth(4).innerText()).replace(/\s+/g, ' ')).toBe(`23:30 ${offset} ${localTimeOf('23:30', offset, 330)} local`);
    expect(await night.locator('td').nth(6).innerText()).toBe('ALL');
    const weekday = timerRow(admin, 'Weekday start');
    expect((await weekday.locator('td').nth(4).innerText()).replace(/\s+/g, ' ')).toBe(`Mon, Fri 06:00 ${offset} ${localTimeOf('06:00', offset, 330)} local`);
    const badge = weekday.locator('.timer-tasks');
    expect((await badge.innerText()).trim().split('\n')[0]).toBe('2');
    await badge.hover();
    await admin.getByRole('tooltip').getByText(`Morning news (${relay.id})`).waitFor();
    await screenshot(admin, 'timers-list');

    // Disable with confirmation.
    await night.getByRole('switch', { name: 'Timer Night stop enabled' }).click();
    await admin.getByText('Disable timer Night stop?').waitFor();
    await admin.getByRole('button', { name: 'Yes' }).click();
    await expect.poll(() => night.getByRole('switch').getAttribute('aria-checked')).toBe('false');
    // Delete with confirmation.
    await night.getByRole('button', { name: 'Delete timer Night stop' }).click();
    await admin.getByText('Delete timer Night stop?').waitFor();
    await admin.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(() => timersTable(admin).locator('tbody tr').count()).toBe(1);
  });

  it('shows and picks times on the 12-hour clock (AM/PM) when chosen, and stores the 24-hour time', async () => {
    const offset = gmtOffsetLabel(Intl.DateTimeFormat().resolvedOptions().timeZone, Date.now());
    await nav(admin, 'Timers').click();
    const weekday = timerRow(admin, 'Weekday start');
    await weekday.waitFor();
    const hour12 = admin.getByRole('checkbox', { name: '12-hour clock' });
    expect(await hour12.isChecked()).toBe(false);
    await hour12.check();
    // The server's time with its GMT offset, and the local time beside it, both as AM/PM.
    await expect.poll(async () => (await weekday.locator('td').nth(4).innerText()).replace(/\s+/g, ' ')).toBe(`Mon, Fri 06:00 AM ${offset} ${clockText(localTimeOf('06:00', offset, 330), true)} local`);

    await admin.getByRole('link', { name: 'Add New' }).click();
    await admin.getByRole('heading', { name: 'Add timer' }).waitFor();
    // The choice is kept: the form's picker is on the 12-hour clock too.
    expect(await admin.getByRole('checkbox', { name: '12-hour clock' }).isChecked()).toBe(true);
    expect(await admin.getByLabel('Hours').locator('option').allInnerTexts()).toEqual(['12', '01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11']);
    await admin.getByLabel('Name').fill('Evening start');
    await admin.getByLabel('Hours').selectOption('07');
    await admin.getByLabel('AM/PM').selectOption('PM');
    await admin.getByLabel('Minutes').selectOption('45');
    await admin.getByText(`your local time: ${clockText(localTimeOf('19:45', offset, 330), true)}.`).waitFor();
    await screenshot(admin, 'timer-new-12-hour');
    // 12 AM is midnight: switching the period keeps the hour shown.
    await admin.getByLabel('AM/PM').selectOption('AM');
    await admin.getByLabel('Hours').selectOption('12');
    expect(await admin.getByLabel('AM/PM').inputValue()).toBe('AM');
    await admin.getByLabel('Hours').selectOption('07');
    await admin.getByLabel('AM/PM').selectOption('PM');
    await admin.getByRole('button', { name: 'Create' }).click();
    await admin.getByRole('heading', { name: 'Timer Evening start' }).waitFor();
    const stored = await harness.app.db.selectFrom('timers').select(['hour', 'minute']).where('name', '=', 'Evening start').executeTakeFirstOrThrow();
    expect(stored).toEqual({ hour: 19, minute: 45 });
    // Back on the 24-hour clock, the picker reads 19.
    await admin.getByRole('checkbox', { name: '12-hour clock' }).uncheck();
    expect(await admin.getByLabel('Hours').inputValue()).toBe('19');
    expect(await admin.getByLabel('AM/PM').count()).toBe(0);
    await admin.getByRole('checkbox', { name: '12-hour clock' }).check();

    await nav(admin, 'Timers').click();
    const evening = timerRow(admin, 'Evening start');
    await evening.waitFor();
    expect((await evening.locator('td').nth(4).innerText()).replace(/\s+/g, ' ')).toBe(`07:45 PM ${offset} ${clockText(localTimeOf('19:45', offset, 330), true)} local`);
    await screenshot(admin, 'timers-list-12-hour');
    await admin.getByRole('checkbox', { name: '12-hour clock' }).uncheck();
    await expect.poll(async () => (await evening.locator('td').nth(4).innerText()).replace(/\s+/g, ' ')).toBe(`19:45 ${offset} ${localTimeOf('19:45', offset, 330)} local`);
  });

  it('TOOLS_VIEW sees the timers but cannot add or change one', async () => {
    const { page } = await harness.newPage();
    await page.goto('/login');
    await signIn(page, VIEWER.username, VIEWER.password);
    expect(await sidebarEntries(page)).toEqual(expect.arrayContaining(['Ping', 'Timers']));
    await nav(page, 'Timers').click();
    await timerRow(page, 'Weekday start').waitFor();
    expect(await page.getByRole('link', { name: 'Add New' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'View timer Weekday start' }).count()).toBe(1);
    expect(await timerRow(page, 'Weekday start').getByRole('switch').isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: /^Delete timer/ }).count()).toBe(0);
  });
});
