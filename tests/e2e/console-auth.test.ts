import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attemptSignIn, loginError, screenshot, sidebarEntries, signIn, startConsole, type ConsoleHarness } from './support/console.ts';

let harness: ConsoleHarness;
const ADMIN = { username: 'admin', password: 'admin-password-1' };

beforeAll(async () => {
  harness = await startConsole({ devMode: true });
  await harness.app.createUser({ ...ADMIN, role: 'ADMIN' });
});

afterAll(async () => {
  await harness?.close();
});

describe('console: sign in', () => {
  it('sends an unauthenticated visitor to Sign in, and back to the wanted page afterwards', async () => {
    const { page } = await harness.newPage();
    await page.goto('/my/users');
    await page.waitForURL(/\/login\?next=%2Fmy%2Fusers$/);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.getByRole('link', { name: 'Sign in with a personal API token' }).getAttribute('href')).toMatch(/^\/setplex-login/);
    await screenshot(page, 'login-light');

    await signIn(page, ADMIN.username, ADMIN.password);
    await page.waitForURL(/\/my\/users$/);
    await page.getByRole('heading', { name: 'Users' }).waitFor();
    expect(await page.getByTestId('current-username').innerText()).toBe('admin');
    // ADMIN holds every permission: every area of this release is in the sidebar.
    expect(await sidebarEntries(page)).toEqual(expect.arrayContaining(['Dashboard', 'Relays', 'Encodings', 'Presets', 'Watermarks', 'Users', 'Timers', 'Statistics', 'Alarms', 'System settings']));
    expect(await page.getByTestId('backend-version').innerText()).toMatch(/^\d+\.\d+\.\d+/);
    expect(await page.getByTestId('frontend-version').innerText()).toMatch(/^\d+\.\d+\.\d+/);
    // This server runs in dev mode: the header shows the DEV marker.
    await page.getByText('DEV', { exact: true }).waitFor();
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.getByText('Load average', { exact: true }).waitFor();
    expect(await page.getByLabel('Node').count()).toBe(0);
    await screenshot(page, 'dashboard-light');
  });

  it("shows the server's message for a wrong password in the error area", async () => {
    const { page } = await harness.newPage();
    await page.goto('/login');
    expect(await attemptSignIn(page, ADMIN.username, 'not-the-password')).toBe(401);
    await page.getByText('Invalid username or password.').waitFor();
    expect(await loginError(page).innerText()).toBe('Invalid username or password.');
    expect(page.url()).toMatch(/\/login$/);
    await screenshot(page, 'login-error');
  });

  it('asks for the username and password before calling the server', async () => {
    const { page } = await harness.newPage();
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Username is required').waitFor();
    await page.getByText('Password is required').waitFor();
  });

  it('throttles the 6th attempt for one account within 15 minutes with the 429 message', async () => {
    await harness.app.createUser({ username: 'guessed', password: 'the-real-password' });
    const { page } = await harness.newPage();
    await page.goto('/login');
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect(await attemptSignIn(page, 'guessed', `guess-${attempt}`)).toBe(401);
      await page.getByText('Invalid username or password.').waitFor();
    }
    // Even the right password is refused now.
    expect(await attemptSignIn(page, 'guessed', 'the-real-password')).toBe(429);
    await page.getByText('Too many failed sign-in attempts for this account.', { exact: false }).waitFor();
    expect(await loginError(page).innerText()).toMatch(/^Too many failed sign-in attempts for this account\. Try again in \d+ minute\(s\)\.$/);
    await screenshot(page, 'login-throttled');
  });

  it('signs in with a personal API token at /setplex-login', async () => {
    const cookie = await harness.app.signIn(ADMIN.username, ADMIN.password);
    const created = await harness.app.request('/api/tokens', { method: 'POST', cookie, json: { name: 'console e2e' } });
    expect(created.status).toBe(201);
    const { secret } = (await created.json()) as { secret: string };

    const { page } = await harness.newPage();
    await page.goto('/login');
    await page.getByRole('link', { name: 'Sign in with a personal API token' }).click();
    await page.waitForURL(/\/setplex-login$/);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('API token').fill('mp_wrong');
    await page.getByLabel('API token').press('Enter');
    await page.getByText('Invalid or revoked token.').waitFor();
    await page.getByLabel('API token').fill(secret);
    await page.getByLabel('API token').press('Enter');
    await page.waitForURL(/\/my$/);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  });

  it('signs out at /logout and returns to /login', async () => {
    const { page } = await harness.newPage();
    await page.goto('/login');
    await signIn(page, ADMIN.username, ADMIN.password);
    await page.getByRole('link', { name: 'Logout' }).click();
    await page.waitForURL(/\/login$/);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    // The session is gone on the server: the shell is out of reach.
    await page.goto('/my');
    await page.waitForURL(/\/login$/);
  });

  it('shows the 502 page when the API cannot be reached, and Reload returns to /login', async () => {
    const { page } = await harness.newPage();
    await page.route('**/api/**', (route) => route.abort('connectionrefused'));
    await page.goto('/my/users');
    await page.waitForURL(/\/502$/);
    await page.getByRole('heading', { name: 'Service is temporarily unavailable' }).waitFor();
    await page.getByText('Please try again later or contact support', { exact: false }).waitFor();
    await screenshot(page, 'unavailable-502');

    await page.unroute('**/api/**');
    await page.getByRole('button', { name: 'Reload' }).click();
    await page.waitForURL(/\/login$/);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  });

  it('shows the 502 page when a signed-in console loses the API (a proxy answers 502)', async () => {
    const { page } = await harness.newPage();
    await page.goto('/login');
    // The shell's live connection is open (so nothing is in flight when the API goes away).
    const liveConnection = page.waitForResponse((r) => r.url().includes('/api/events'));
    await signIn(page, ADMIN.username, ADMIN.password);
    await liveConnection;
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.route('**/api/**', (route) => route.fulfill({ status: 502, body: 'Bad Gateway' }));
    await page.getByRole('link', { name: 'Users' }).click();
    await page.waitForURL(/\/502$/);
    await page.getByRole('heading', { name: 'Service is temporarily unavailable' }).waitFor();
  });

  it('shows the node selector only on the dashboard, and only with more than one node', async () => {
    const { page } = await harness.newPage();
    await page.goto('/login');
    await signIn(page, ADMIN.username, ADMIN.password);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    expect(await page.getByLabel('Node').count()).toBe(0);

    await harness.app.services.nodes.upsert({ nodeId: 'second-node', name: 'second', ip: '127.0.0.2', version: 'test' });
    await page.reload();
    await page.getByLabel('Node').waitFor();
    const options = await page.getByLabel('Node').locator('option').allTextContents();
    expect(options).toContain('second (127.0.0.2)');
    const second = await page.getByLabel('Node').locator('option', { hasText: 'second' }).getAttribute('value');
    await page.getByLabel('Node').selectOption(second as string);
    await page.waitForURL(new RegExp(`/my\\?node=${second}$`));
    await page.reload();
    expect(await page.getByLabel('Node').inputValue()).toBe(second);
    await screenshot(page, 'dashboard-two-nodes');
    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByRole('heading', { name: 'Users' }).waitFor();
    expect(await page.getByLabel('Node').count()).toBe(0);
  });

  it('keeps the dark theme across reloads', async () => {
    const { page } = await harness.newPage();
    await page.goto('/login');
    await signIn(page, ADMIN.username, ADMIN.password);
    const themeSwitch = page.getByRole('switch', { name: 'Dark theme' });
    expect(await themeSwitch.getAttribute('aria-checked')).toBe('false');
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');

    await themeSwitch.click();
    expect(await themeSwitch.getAttribute('aria-checked')).toBe('true');
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');

    await page.reload();
    await page.getByRole('switch', { name: 'Dark theme' }).waitFor();
    expect(await page.getByRole('switch', { name: 'Dark theme' }).getAttribute('aria-checked')).toBe('true');
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    // The page really is dark: the body's background is a dark colour.
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const [r, g, b] = background.match(/\d+/g)!.map(Number);
    expect(r + g + b).toBeLessThan(150);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await screenshot(page, 'dashboard-dark');

    // It survives signing out too: the Sign in card is dark.
    await page.getByRole('link', { name: 'Logout' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await screenshot(page, 'login-dark');
  });
});
