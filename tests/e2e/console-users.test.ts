import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attemptSignIn, screenshot, sidebarEntries, signIn, startConsole, type ConsoleHarness } from './support/console.ts';

let harness: ConsoleHarness;
let admin: Page;
const ADMIN = { username: 'admin', password: 'admin-password-1' };
const VIEWER = { username: 'relay-viewer', password: 'viewer-password-1' };
const poll = { timeout: 15_000, interval: 100 };

const checked = (page: Page, label: string) => page.getByLabel(label, { exact: true }).isChecked();
const enabled = (page: Page, label: string) => page.getByLabel(label, { exact: true }).isEnabled();
const present = (page: Page, label: string) => page.getByLabel(label, { exact: true }).count();
const usersTable = (page: Page) => page.getByRole('table', { name: 'Users' });
/** The console's live connection, once it carries the `users` topic. */
const isUsersStream = (response: Response) => response.url().includes('/api/events?topics=') && response.url().includes('users');
const userLink = (page: Page, name: string) => usersTable(page).getByRole('link', { name, exact: true });

beforeAll(async () => {
  harness = await startConsole();
  await harness.app.createUser({ ...ADMIN, role: 'ADMIN' });
  ({ page: admin } = await harness.newPage());
  await admin.goto('/login');
  await signIn(admin, ADMIN.username, ADMIN.password);
});

afterAll(async () => {
  await harness?.close();
});

describe('console: users', () => {
  it('lists the users with their footer counts', async () => {
    await harness.app.createUser({ username: 'disabled-one', enabled: false });
    await admin.getByRole('link', { name: 'Users' }).click();
    await admin.getByRole('heading', { name: 'Users' }).waitFor();
    await userLink(admin, 'disabled-one').waitFor();
    expect(await admin.getByText('Total users:').innerText()).toBe('Total users: 2');
    expect(await admin.getByText('Active:').innerText()).toBe('Active: 1');
    expect(await admin.getByText('Failed:').innerText()).toBe('Failed: 1');
    // Sorted by username; thumbs up for enabled, down for disabled.
    const names = await usersTable(admin).locator('tbody tr td:nth-child(2)').allInnerTexts();
    expect(names).toEqual(['admin', 'disabled-one']);
    await usersTable(admin).getByRole('img', { name: 'Disabled' }).waitFor();
    await usersTable(admin).getByRole('img', { name: 'Enabled' }).waitFor();
    await admin.getByRole('link', { name: 'Add New' }).waitFor();
    await admin.getByRole('link', { name: 'User history' }).waitFor();
    await screenshot(admin, 'users-light');

    // Search (debounced) narrows the list; no match shows the empty text.
    await admin.getByPlaceholder('Enter Username, E-mail or ID').fill('nobody-like-this');
    await usersTable(admin).getByText('No users').waitFor();
    await admin.getByRole('button', { name: 'Clear all filters' }).click();
    await userLink(admin, 'disabled-one').waitFor();
  });

  it('creates a user with only RELAY_VIEW through the form, with Hide/View/Edit as specified', async () => {
    await admin.getByRole('link', { name: 'Add New' }).click();
    await admin.waitForURL(/\/my\/users\/edit$/);
    await admin.getByRole('heading', { name: 'Add user' }).waitFor();
    const create = admin.getByRole('button', { name: 'Create' });
    expect(await create.isDisabled()).toBe(true);

    // The spec's messages, verbatim.
    await admin.getByLabel('E-mail').fill('not-an-email');
    await admin.getByLabel('Phone number').fill('call me');
    await admin.getByLabel('Username').focus();
    await admin.getByLabel('Username').press('Enter');
    for (const message of ['Username is required', 'Role is required', "This doesn't look like valid e-mail", "This doesn't look like phone number", 'Password is required', 'Confirm password is required']) {
      await admin.getByText(message, { exact: true }).waitFor();
    }
    await admin.getByLabel('E-mail').fill('viewer@example.com');
    await admin.getByLabel('Phone number').fill('+1-555-0100');
    await admin.getByLabel('Username').fill(VIEWER.username);
    await admin.getByLabel('Role').selectOption({ label: 'User' });
    await admin.getByLabel('Password', { exact: true }).fill(VIEWER.password);
    await admin.getByLabel('Confirm password').fill(VIEWER.password);
    await screenshot(admin, 'user-new-light');

    // A new user starts with every resource hidden: View and Edit are disabled.
    expect(await checked(admin, 'Hide all')).toBe(true);
    expect(await checked(admin, 'Relays Hide')).toBe(true);
    expect(await enabled(admin, 'Relays View')).toBe(false);
    expect(await enabled(admin, 'Relays Edit')).toBe(false);
    expect(await enabled(admin, 'View all')).toBe(false);
    expect(await enabled(admin, 'Edit all')).toBe(false);

    // Unhide Relays: View (the level) and Edit become available; View shows the sub-flags, no Limit.
    await admin.getByLabel('Relays Hide', { exact: true }).uncheck();
    expect(await enabled(admin, 'Relays View')).toBe(true);
    expect(await enabled(admin, 'Relays Edit')).toBe(true);
    expect(await checked(admin, 'Relays View')).toBe(true);
    expect(await present(admin, 'Relays View On/Off')).toBe(1);
    expect(await present(admin, 'Relays Limit')).toBe(0);
    await admin.getByLabel('Relays View Log', { exact: true }).check();

    // Edit: the Limit appears, the sub-flags go, and they are cleared.
    await admin.getByLabel('Relays Edit', { exact: true }).check();
    expect(await present(admin, 'Relays Limit')).toBe(1);
    expect(await present(admin, 'Relays View Log')).toBe(0);
    await admin.getByLabel('Relays View', { exact: true }).check();
    expect(await present(admin, 'Relays Limit')).toBe(0);
    expect(await checked(admin, 'Relays View Log')).toBe(false);

    // Statistics and Diagnostic check have a View level only.
    expect(await present(admin, 'Statistics View')).toBe(1);
    expect(await present(admin, 'Statistics Edit')).toBe(0);
    expect(await present(admin, 'Diagnostic check Edit')).toBe(0);
    // Ads shows only with the ads feature (off here).
    expect(await present(admin, 'Ads View')).toBe(0);

    // Edit all / View all / Hide all set every resource; Hide all disables the other two.
    // Some hidden, some not: Hide all is unticked; ticking it hides all, unticking shows all.
    expect(await checked(admin, 'Hide all')).toBe(false);
    await admin.getByLabel('Hide all', { exact: true }).check();
    expect(await checked(admin, 'Relays Hide')).toBe(true);
    await admin.getByLabel('Hide all', { exact: true }).uncheck();
    expect(await checked(admin, 'Encodings Hide')).toBe(false);
    expect(await checked(admin, 'Relays Hide')).toBe(false);
    await admin.getByLabel('Edit all', { exact: true }).check();
    expect(await checked(admin, 'Encodings Edit')).toBe(true);
    expect(await checked(admin, 'Users Edit')).toBe(true);
    expect(await checked(admin, 'Statistics View')).toBe(true);
    expect(await present(admin, 'Playbacks Limit')).toBe(1);
    await admin.getByLabel('View all', { exact: true }).check();
    expect(await checked(admin, 'Encodings View')).toBe(true);
    await admin.getByLabel('Hide all', { exact: true }).check();
    expect(await enabled(admin, 'View all')).toBe(false);
    expect(await enabled(admin, 'Edit all')).toBe(false);
    expect(await enabled(admin, 'Encodings View')).toBe(false);
    await admin.getByLabel('Relays Hide', { exact: true }).uncheck();
    expect(await checked(admin, 'Relays View')).toBe(true);

    // The whole block is hidden for the ADMIN role, and comes back as it was.
    await admin.getByLabel('Role').selectOption({ label: 'Admin' });
    expect(await present(admin, 'Relays View')).toBe(0);
    await admin.getByLabel('Role').selectOption({ label: 'User' });
    expect(await checked(admin, 'Relays View')).toBe(true);
    await screenshot(admin, 'user-permissions-light');

    expect(await create.isEnabled()).toBe(true);
    await create.click();
    await admin.waitForURL(/\/my\/users\/edit\/\d+$/);
    await admin.getByRole('heading', { name: `User ${VIEWER.username}` }).waitFor();
    // Saved: Update stays disabled until the form changes.
    const update = admin.getByRole('button', { name: 'Update' });
    await update.waitFor();
    expect(await update.isDisabled()).toBe(true);
    await admin.getByLabel('Phone number').fill('+1-555-0101');
    expect(await update.isEnabled()).toBe(true);
    await admin.getByLabel('Phone number').fill('+1-555-0100');
    expect(await update.isDisabled()).toBe(true);

    const cookie = await harness.app.signIn(ADMIN.username, ADMIN.password);
    const list = (await (await harness.app.request(`/api/users?search=${VIEWER.username}`, { cookie })).json()) as { items: { username: string; grantedPermissions: string[]; email: string }[] };
    expect(list.items).toHaveLength(1);
    expect(list.items[0].grantedPermissions).toEqual(['RELAY_VIEW']);
    expect(list.items[0].email).toBe('viewer@example.com');
  });

  it('shows a server field error under its field (a username already taken)', async () => {
    await admin.goto('/my/users/edit');
    await admin.getByLabel('Username').fill(VIEWER.username);
    await admin.getByLabel('Role').selectOption({ label: 'User' });
    await admin.getByLabel('Password', { exact: true }).fill('another-password-1');
    await admin.getByLabel('Confirm password').fill('another-password-1');
    await admin.getByLabel('Confirm password').press('Enter');
    await admin.getByText('Username is already taken').waitFor();
    expect(admin.url()).toMatch(/\/my\/users\/edit$/);
  });

  it('shows a refusal of the server in the Error alert (disabling yourself)', async () => {
    await admin.goto('/my/users');
    await usersTable(admin).getByRole('link', { name: 'Edit user admin' }).click();
    await admin.getByRole('heading', { name: 'User admin' }).waitFor();
    await admin.getByRole('switch', { name: 'Enabled' }).click();
    await admin.getByRole('button', { name: 'Update' }).click();
    const alert = admin.getByRole('dialog', { name: 'Error' });
    await alert.getByText('You cannot disable yourself.').waitFor();
    await screenshot(admin, 'error-alert');
    await alert.getByRole('button', { name: 'Close', exact: true }).click();
    await alert.waitFor({ state: 'detached' });
    // Nothing was saved: the form still holds the change, and may be sent again once fixed.
    expect(await admin.getByRole('switch', { name: 'Enabled' }).getAttribute('aria-checked')).toBe('false');
  });

  it('shows a RELAY_VIEW user only what RELAY_VIEW permits, and redirects /my/users', async () => {
    const { page } = await harness.newPage();
    await page.goto('/login');
    expect(await attemptSignIn(page, VIEWER.username, 'a-wrong-password')).toBe(401);
    await signIn(page, VIEWER.username, VIEWER.password);
    await page.waitForURL(/\/my$/);
    expect(await sidebarEntries(page)).toEqual(['Dashboard', 'Relays', 'Relay templates']);
    await page.goto('/my/users');
    await page.waitForURL(/\/my$/);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.goto('/my/users/histories');
    await page.waitForURL(/\/my$/);
    await screenshot(page, 'dashboard-relay-viewer');

    // The server is the guard: a write with this user's own session cookie is refused.
    const response = await page.request.post('/api/users', {
      data: { username: 'sneaky', role: 'USER', password: 'sneaky-password-1', confirm: 'sneaky-password-1' },
    });
    expect(response.status()).toBe(403);
    expect(((await response.json()) as { code: string }).code).toBe('FORBIDDEN');
  });

  it('lists the sign-in attempts in the login history, the failed ones too', async () => {
    await admin.goto('/my/users');
    await admin.getByRole('link', { name: 'User history' }).click();
    await admin.waitForURL(/\/my\/users\/histories$/);
    await admin.getByRole('heading', { name: 'User history' }).waitFor();
    const table = admin.getByRole('table', { name: 'Login history' });
    for (const column of ['Time', 'Username', 'IP', 'COUNTRY', 'USER AGENT']) await table.getByRole('columnheader', { name: column, exact: true }).waitFor();

    await admin.getByPlaceholder('Enter Username, IP or Country').fill(VIEWER.username);
    await expect.poll(() => table.locator('tbody tr').count(), poll).toBe(2);
    const rows = await table.locator('tbody tr').allInnerTexts();
    // Newest first: the successful sign-in, then the failed one.
    expect(rows[0]).toContain(VIEWER.username);
    expect(rows[0]).not.toContain('Failed');
    expect(rows[1]).toContain('Failed');
    const time = await table.locator('tbody tr').first().locator('td').first().innerText();
    expect(time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const agent = table.locator('tbody tr').first().locator('td').last().locator('span');
    expect((await agent.getAttribute('title'))!.length).toBeGreaterThan(50);
    expect((await agent.innerText()).length).toBeLessThanOrEqual(51);
    await screenshot(admin, 'login-history-light');

    await admin.getByPlaceholder('Enter Username, IP or Country').fill('no-such-user-anywhere');
    await table.getByText('No histories').waitFor();
  });

  it('refreshes the list live when another console changes a user', async () => {
    const stream = admin.waitForResponse(isUsersStream);
    await admin.goto('/my/users');
    await userLink(admin, VIEWER.username).waitFor();
    await stream;
    // Another console (here: the API with another session) adds a user.
    const cookie = await harness.app.signIn(ADMIN.username, ADMIN.password);
    const created = await harness.app.request('/api/users', {
      method: 'POST',
      cookie,
      json: { username: 'live-added', role: 'USER', password: 'live-password-1', confirm: 'live-password-1' },
    });
    expect(created.status).toBe(201);
    await userLink(admin, 'live-added').waitFor();
    expect(await admin.getByText('Total users:').innerText()).toBe('Total users: 4');
  });

  it('deletes a user after "Delete user {name}?"', async () => {
    await usersTable(admin).getByRole('button', { name: 'Delete user live-added' }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByText('Delete user live-added?').waitFor();
    // Escape declines.
    await admin.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await userLink(admin, 'live-added').waitFor();
    // Enter confirms.
    await usersTable(admin).getByRole('button', { name: 'Delete user live-added' }).click();
    await dialog.getByText('Delete user live-added?').waitFor();
    await admin.keyboard.press('Enter');
    await userLink(admin, 'live-added').waitFor({ state: 'detached' });
  });

  it('disabling a user from the list (after "Disable user {name}?") signs that user out', async () => {
    const { page: viewer } = await harness.newPage();
    await viewer.goto('/login');
    await signIn(viewer, VIEWER.username, VIEWER.password);
    await viewer.getByRole('heading', { name: 'Dashboard' }).waitFor();

    const toggle = usersTable(admin).getByRole('switch', { name: `User ${VIEWER.username} enabled` });
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    await toggle.click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByText(`Disable user ${VIEWER.username}?`).waitFor();
    await screenshot(admin, 'users-confirm-disable');
    await dialog.getByRole('button', { name: 'Yes' }).click();
    await expect.poll(() => toggle.getAttribute('aria-checked'), poll).toBe('false');
    expect(await admin.getByText('Failed:').innerText()).toBe('Failed: 2');

    // Its console is signed out: the next page load lands on Sign in, and signing in is refused.
    await viewer.reload();
    await viewer.waitForURL(/\/login/);
    await viewer.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await attemptSignIn(viewer, VIEWER.username, VIEWER.password)).toBe(401);
    await viewer.getByText('This account is disabled. Ask an administrator to enable it.').waitFor();
  });

  it('shows a USER_VIEW user the users read-only, and sends it to Sign in the moment it is disabled', async () => {
    await harness.app.createUser({ username: 'user-watcher', password: 'watcher-password-1', permissions: { user: { level: 'USER_VIEW', hide: false } } });
    const { page: watcher } = await harness.newPage();
    await watcher.goto('/my/users');
    await watcher.waitForURL(/\/login\?next=/);
    await signIn(watcher, 'user-watcher', 'watcher-password-1');
    await watcher.waitForURL(/\/my\/users$/);
    expect(await sidebarEntries(watcher)).toEqual(['Dashboard', 'Users']);
    // Without USER_EDIT: an eye instead of the pencil, no switch to flip, no delete, no Add New or User history.
    await usersTable(watcher).getByRole('link', { name: 'View user admin' }).waitFor();
    expect(await usersTable(watcher).getByRole('link', { name: 'Edit user admin' }).count()).toBe(0);
    expect(await usersTable(watcher).getByRole('button', { name: /^Delete user/ }).count()).toBe(0);
    expect(await usersTable(watcher).getByRole('switch', { name: 'User admin enabled' }).isDisabled()).toBe(true);
    expect(await watcher.getByRole('link', { name: 'Add New' }).count()).toBe(0);
    expect(await watcher.getByRole('link', { name: 'User history' }).count()).toBe(0);
    await screenshot(watcher, 'users-read-only');
    await usersTable(watcher).getByRole('link', { name: 'View user admin' }).click();
    await watcher.getByRole('heading', { name: 'User admin' }).waitFor();
    expect(await watcher.getByLabel('Username').isDisabled()).toBe(true);
    expect(await watcher.getByRole('button', { name: 'Update' }).count()).toBe(0);
    const stream = watcher.waitForResponse(isUsersStream);
    await watcher.getByRole('link', { name: 'Back' }).click();
    await watcher.waitForURL(/\/my\/users$/);
    await userLink(watcher, 'admin').waitFor();
    await stream;

    await admin.reload();
    const toggle = usersTable(admin).getByRole('switch', { name: 'User user-watcher enabled' });
    await toggle.click();
    await admin.getByRole('dialog').getByText('Disable user user-watcher?').waitFor();
    await admin.keyboard.press('Enter');
    await expect.poll(() => toggle.getAttribute('aria-checked'), poll).toBe('false');
    // No click, no reload: the open console notices its session is gone.
    await watcher.waitForURL(/\/login\?next=%2Fmy%2Fusers$/);
    await watcher.getByRole('heading', { name: 'Sign in' }).waitFor();
  });

  it('lets a non-admin editor grant only what it holds itself', async () => {
    await harness.app.createUser({
      username: 'team-lead',
      password: 'lead-password-1',
      permissions: { user: { level: 'USER_EDIT', hide: false }, relay: { level: 'RELAY_VIEW', hide: false, viewLog: true } },
    });
    const { page } = await harness.newPage();
    await page.goto('/my/users/edit');
    await page.waitForURL(/\/login\?next=/);
    await signIn(page, 'team-lead', 'lead-password-1');
    await page.waitForURL(/\/my\/users\/edit$/);
    await page.getByRole('heading', { name: 'Add user' }).waitFor();
    // Only the categories it holds, and within them only its own levels and sub-flags.
    expect(await page.locator('.permissions-table tbody th').allInnerTexts()).toEqual(['Relays', 'Users']);
    await page.getByLabel('Relays Hide', { exact: true }).uncheck();
    expect(await enabled(page, 'Relays Edit')).toBe(false);
    expect(await enabled(page, 'Relays View Log')).toBe(true);
    expect(await enabled(page, 'Relays View On/Off')).toBe(false);
    await page.getByLabel('Users Hide', { exact: true }).uncheck();
    expect(await enabled(page, 'Users Edit')).toBe(true);
    expect(await page.getByRole('option', { name: 'Admin' }).isDisabled()).toBe(true);
    await screenshot(page, 'user-new-by-team-lead');
  });

  it('looks right in the dark theme', async () => {
    const { page } = await harness.newPage({ theme: 'dark' });
    await page.goto('/login');
    await signIn(page, ADMIN.username, ADMIN.password);
    await page.goto('/my/users');
    await userLink(page, VIEWER.username).waitFor();
    await screenshot(page, 'users-dark');
    await userLink(page, VIEWER.username).click();
    await page.getByRole('heading', { name: `User ${VIEWER.username}` }).waitFor();
    await screenshot(page, 'user-edit-dark');
    await page.goto('/my/users/histories');
    await page.getByRole('table', { name: 'Login history' }).locator('tbody tr').first().waitFor();
    await screenshot(page, 'login-history-dark');
  });
});
