import { defineConfig } from 'vitest/config';

/**
 * One runner for every layer: unit (pure logic), integration (real Postgres, real ffmpeg) and e2e
 * (Playwright on Debian's Chromium against a running server). The summary reporter prints the
 * closing line `N passed, N failed` that CI reads.
 */
export default defineConfig({
  test: {
    globalSetup: ['tests/support/global-setup.ts'],
    reporters: ['default', './tests/support/summary-reporter.ts'],
    testTimeout: 30_000,
    // The Internet Connection check connects to a closed loopback port: test traffic stays on this machine.
    env: { MEDIAPLANE_INTERNET_CHECK: '127.0.0.1:9' },
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.ts', 'tests/unit/**/*.test.tsx'] } },
      { extends: true, test: { name: 'integration', include: ['tests/integration/**/*.test.ts'] } },
      { extends: true, test: { name: 'e2e', include: ['tests/e2e/**/*.test.ts'], fileParallelism: false, testTimeout: 60_000 } },
    ],
  },
});
