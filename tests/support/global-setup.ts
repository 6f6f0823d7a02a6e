import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../api/db/embedded.ts';

/**
 * One real Postgres for the whole run: the embedded one in a fresh temporary directory, or the
 * server TEST_DATABASE_URL names. Each test file makes its own database from it (tests/support/db.ts),
 * so files run in parallel without seeing each other.
 */
let embedded: EmbeddedDatabase | undefined;
let dir: string | undefined;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    dir = mkdtempSync(path.join(tmpdir(), 'mediaplane-test-pg-'));
    chmodSync(dir, 0o755); // Postgres runs as its own user when we are root
    embedded = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg'), password: 'mediaplane-test' });
    adminUrl = embedded.url('postgres');
  }
  project.provide('adminDatabaseUrl', adminUrl);
  return async () => {
    await embedded?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
  }
}
