import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const CONSOLE_DIST = fileURLToPath(new URL('../../../console/dist/', import.meta.url));

/** The JavaScript a first visit downloads: the entry script and the modules index.html preloads, gzipped. */
export function consoleFirstLoad(): { gzipBytes: number; files: number } {
  const html = readFileSync(path.join(CONSOLE_DIST, 'index.html'), 'utf8');
  const sources = new Set<string>();
  for (const match of html.matchAll(/<script[^>]+src="([^"]+\.js)"/g)) sources.add(match[1]);
  for (const match of html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g)) sources.add(match[1]);
  if (sources.size === 0) throw new Error('console/dist/index.html names no script: run npm run build:console first');
  let gzipBytes = 0;
  for (const source of sources) gzipBytes += gzipSync(readFileSync(path.join(CONSOLE_DIST, source.replace(/^\//, '')))).length;
  return { gzipBytes, files: sources.size };
}

/**
 * From asking for /my/relays (signed in) to a table whose rows are shown and whose search box takes
 * input: what an operator waits for. Five visits after one warm-up; the median.
 */
export async function relayListInteractive(baseUrl: string, username: string, password: string): Promise<{ medianMs: number; samples: number[] }> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'],
  });
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${baseUrl}/login`);
    await page.getByLabel(/username/i).fill(username);
    await page.getByLabel(/password/i).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    const samples: number[] = [];
    for (let visit = 0; visit < 6; visit += 1) {
      await page.goto('about:blank');
      const started = Date.now();
      await page.goto(`${baseUrl}/my/relays`);
      // Checked at every animation frame: a locator's wait polls at growing intervals (up to 500 ms),
      // which put the samples on two levels about 450 ms apart whatever the page did.
      await page.waitForFunction(() => document.querySelectorAll('tbody tr').length > 1 && document.querySelector('input[placeholder="Enter Name or ID"]') !== null, null, { polling: 'raf', timeout: 30_000 });
      await page.getByPlaceholder('Enter Name or ID').fill('n');
      if (visit > 0) samples.push(Date.now() - started);
    }
    const sorted = [...samples].sort((a, b) => a - b);
    return { medianMs: sorted[Math.floor(sorted.length / 2)], samples };
  } finally {
    await browser.close();
  }
}
