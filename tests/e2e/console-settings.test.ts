import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, sidebarEntries, signIn, startConsole, type ConsoleHarness } from './support/console.ts';

/** /my/settings: every tab, the logger and server modals, and what each permission shows. */
let harness: ConsoleHarness;
let admin: Page;
const ADMIN = { username: 'admin', password: 'admin-password-1' };
const VIEWER = { username: 'settings-viewer', password: 'viewer-password-1' };

const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true });
const panel = (page: Page) => page.getByRole('tabpanel');

beforeAll(async () => {
  harness = await startConsole();
  await harness.app.createUser({ ...ADMIN, role: 'ADMIN' });
  await harness.app.createUser({ ...VIEWER, permissions: { settings: { level: 'SETTINGS_VIEW', hide: false } } as never });
  ({ page: admin } = await harness.newPage());
  await admin.goto('/login');
  await signIn(admin, ADMIN.username, ADMIN.password);
}, 120_000);

afterAll(async () => {
  await harness?.close();
});

describe('console: system settings', () => {
  it('shows every tab to an admin and saves the Application Settings, refusing a bad IP', async () => {
    await admin.goto('/my/settings');
    await tab(admin, 'Application Settings').waitFor();
    const tabs = await admin.getByRole('tab').allInnerTexts();
    expect(tabs).toEqual(['Application Settings', 'Redis Settings', 'RixUI Log Settings', 'Rixjob Log Settings', 'Rixjob Features', 'Streampool Server Settings']);
    await admin.getByLabel('Application IP').fill('10.0.0.300');
    await admin.getByLabel('Application IP').blur();
    await expect.poll(() => panel(admin).getByText('must be an IP address, e.g. 192.0.2.10').isVisible()).toBe(true);
    expect(await admin.getByRole('button', { name: 'Update' }).isDisabled()).toBe(true);
    await admin.getByLabel('Application IP').fill('192.0.2.10');
    await admin.getByLabel('Application URL').fill('https://media.example.com');
    await admin.getByRole('button', { name: 'Update' }).click();
    await admin.getByText('Application settings updated.').waitFor();
    await screenshot(admin, 'settings-application');
    expect(await (await harness.app.request('/api/settings/application', { cookie: await harness.app.signIn(ADMIN.username, ADMIN.password) })).json()).toEqual({ applicationIp: '192.0.2.10', applicationUrl: 'https://media.example.com' });
  });

  it('shows the server\'s reason under the Redis endpoint when Redis cannot be reached', async () => {
    await tab(admin, 'Redis Settings').click();
    await admin.getByLabel('Redis endpoint').fill('127.0.0.1:1');
    await admin.getByRole('button', { name: 'Update' }).click();
    await panel(admin).getByText(/Redis at 127\.0\.0\.1:1 cannot be reached: .*ECONNREFUSED/).waitFor();
    await screenshot(admin, 'settings-redis');
  });

  it('adds a logger with the add-logger modal, edits it with the edit-logger modal, and saves', async () => {
    await tab(admin, 'RixUI Log Settings').click();
    await admin.getByRole('button', { name: 'Add logger' }).click();
    const modal = admin.getByRole('dialog', { name: 'Add logger' });
    await modal.getByLabel('Logger name').fill('server.event-bus');
    await modal.getByLabel('Log level').selectOption('ERROR');
    await screenshot(admin, 'settings-rixui-add-logger');
    await modal.getByRole('button', { name: 'Create' }).click();
    await admin.getByRole('button', { name: 'Edit logger server.event-bus' }).click();
    const edit = admin.getByRole('dialog', { name: 'Edit logger' });
    await edit.getByLabel('Log level').selectOption('WARNING');
    await edit.getByRole('button', { name: 'Update' }).click();
    await admin.getByRole('button', { name: 'Update' }).click();
    await admin.getByText('RixUI Log Settings updated.').waitFor();
    const row = panel(admin).getByRole('row').filter({ hasText: 'server.event-bus' });
    expect((await row.innerText()).replace(/\s+/g, ' ').trim()).toBe('1 server.event-bus WARNING');
    await screenshot(admin, 'settings-rixui-log');
    await tab(admin, 'Rixjob Log Settings').click();
    await panel(admin).getByText('No loggers').waitFor();
    expect(await admin.getByLabel('Log level').inputValue()).toBe('NOTICE');
    await screenshot(admin, 'settings-rixjob-log');
  });

  it('turns the ads feature on in Rixjob Features, which the shell reads for the Ad group', async () => {
    await tab(admin, 'Rixjob Features').click();
    await admin.getByRole('switch', { name: 'ads enabled' }).click();
    await admin.getByRole('button', { name: 'Update' }).click();
    await admin.getByText('Rixjob features updated.').waitFor();
    await screenshot(admin, 'settings-features');
    // What the shell reads to show the Ad group of the sidebar.
    const info = await admin.evaluate(() => fetch('/api/system/info').then((r) => r.json()));
    expect(info.features.ads).toBe(true);
  });

  it('creates a streampool server in the modal and shows its key masked to the last 9 characters', async () => {
    await tab(admin, 'Streampool Server Settings').click();
    await panel(admin).getByText('No servers').waitFor();
    await admin.getByRole('button', { name: 'Add New' }).click();
    const modal = admin.getByRole('dialog', { name: 'Add streampool server' });
    expect(await modal.getByRole('button', { name: 'Create' }).isDisabled()).toBe(true);
    await modal.getByLabel('Alias').fill('eu-1');
    await modal.getByLabel('Publish address').fill('rtmp://publish.example.com/live');
    await modal.getByLabel('Playback address').fill('https://play.example.com');
    await modal.getByLabel('API key').fill('sk-live-0123456789-abcdefghi');
    await screenshot(admin, 'settings-streampool-server-modal');
    await modal.getByRole('button', { name: 'Create' }).click();
    const row = panel(admin).getByRole('row').filter({ hasText: 'eu-1' });
    await row.waitFor();
    const text = await row.innerText();
    expect(text).toContain('abcdefghi');
    expect(text).not.toContain('0123456789');
    await screenshot(admin, 'settings-streampool-servers');
    await admin.getByRole('button', { name: 'Edit streampool server eu-1' }).click();
    const edit = admin.getByRole('dialog', { name: 'Streampool server eu-1' });
    expect(await edit.getByRole('button', { name: 'Update' }).isVisible()).toBe(true);
    await edit.getByRole('button', { name: 'Close' }).click();
  });

  it('shows a SETTINGS_VIEW user the four settings tabs, read only', async () => {
    const { page } = await harness.newPage();
    await page.goto('/login');
    await signIn(page, VIEWER.username, VIEWER.password);
    expect(await sidebarEntries(page)).toContain('System settings');
    await page.goto('/my/settings');
    await tab(page, 'Application Settings').waitFor();
    expect(await page.getByRole('tab').allInnerTexts()).toEqual(['Application Settings', 'Redis Settings', 'RixUI Log Settings', 'Rixjob Log Settings']);
    expect(await page.getByLabel('Application IP').inputValue()).toBe('192.0.2.10');
    expect(await page.getByRole('button', { name: 'Update' }).count()).toBe(0);
    await tab(page, 'RixUI Log Settings').click();
    await page.getByText('server.event-bus').waitFor();
    expect(await page.getByRole('button', { name: 'Add logger' }).count()).toBe(0);
    await screenshot(page, 'settings-viewer');
  });
});
