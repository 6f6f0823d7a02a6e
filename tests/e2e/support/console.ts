import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../../support/app.ts';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const CONSOLE_DIST = path.join(REPO_ROOT, 'console/dist');
export const SCREENSHOT_DIR = path.join(REPO_ROOT, 'tests/.artifacts/screenshots');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** `npm test` builds the console first; a lone run of an e2e file builds it when it is missing. */
export function ensureConsoleBuilt(): void {
  if (existsSync(path.join(CONSOLE_DIST, 'index.html'))) return;
  execFileSync(process.execPath, [path.join(REPO_ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'console/vite.config.ts', '--logLevel', 'warn'], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
  });
}

export interface ConsoleHarness {
  app: TestApp;
  browser: Browser;
  url: string;
  /** A fresh browser profile (cookies, localStorage) with one page. */
  newPage(options?: { theme?: 'light' | 'dark' }): Promise<{ context: BrowserContext; page: Page }>;
  close(): Promise<void>;
}

/** The real API serving the built console, on a database of its own, and one Chromium for the file. */
export async function startConsole(options: { devMode?: boolean } = {}): Promise<ConsoleHarness> {
  ensureConsoleBuilt();
  const app = await startTestApp({ consoleDir: CONSOLE_DIST, devMode: options.devMode });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'],
  });
  const contexts: BrowserContext[] = [];
  return {
    app,
    browser,
    url: app.url,
    async newPage({ theme } = {}) {
      const context = await browser.newContext({ baseURL: app.url, viewport: { width: 1360, height: 820 } });
      context.setDefaultTimeout(20_000);
      if (theme) await context.addInitScript((t) => localStorage.getItem('mediaplane.theme') ?? localStorage.setItem('mediaplane.theme', t), theme);
      contexts.push(context);
      return { context, page: await context.newPage() };
    },
    async close() {
      for (const context of contexts) await context.close().catch(() => {});
      await browser.close().catch(() => {});
      await app.close();
    },
  };
}

/**
 * Sign in through the form and wait for the shell. On a page that is not at /login yet it opens
 * /login; after a goto of a protected page, wait for the redirect to /login first (it keeps `next`).
 */
export async function signIn(page: Page, username: string, password: string): Promise<void> {
  if (!page.url().includes('/login')) await page.goto('/login');
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('link', { name: 'Logout' }).waitFor();
}

/** Submit the sign-in form and wait for the server's answer (the message may read the same as before). */
export async function attemptSignIn(page: Page, username: string, password: string): Promise<number> {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/api/auth/login') && r.request().method() === 'POST'),
    page.getByRole('button', { name: 'Sign in' }).click(),
  ]);
  return response.status();
}

/** The text of the login form's error area. */
export function loginError(page: Page) {
  return page.getByTestId('login-error');
}

/** Saves a screenshot of the page to tests/.artifacts/screenshots/<name>.png (for a person to look at). */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), animations: 'disabled' });
}

/** The sidebar's entries, as a user sees them. */
export async function sidebarEntries(page: Page): Promise<string[]> {
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link').first().waitFor();
  return (await nav.getByRole('link').allInnerTexts()).map((t) => t.trim());
}
