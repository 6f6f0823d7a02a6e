import { createServer, type AddressInfo, type Server } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runningEmbeddedUrl } from '../../cli/commands/migrate.ts';

describe('runningEmbeddedUrl (create-admin and migrate next to a running server)', () => {
  let dataDir: string;
  // A port that answers (standing in for the postmaster) and one that does not.
  let server: Server;
  let port: number;
  let closedPort: number;
  beforeAll(async () => {
    const spare = createServer();
    await new Promise<void>((resolve) => spare.listen(0, '127.0.0.1', resolve));
    closedPort = (spare.address() as AddressInfo).port;
    await new Promise<void>((resolve) => spare.close(() => resolve()));
    server = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const postmaster = (pid: number, port: number) =>
    writeFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), `${pid}\n${dataDir}/postgres\n1700000000\n${port}\n\n127.0.0.1\n`);

  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'mediaplane-data-'));
    mkdirSync(path.join(dataDir, 'postgres'));
    writeFileSync(path.join(dataDir, 'postgres-password'), 'p@ss/word\n');
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('joins the Postgres a live postmaster holds, with the data directory\'s password', async () => {
    postmaster(process.pid, port);
    await expect(runningEmbeddedUrl({ dataDir })).resolves.toBe(`postgres://mediaplane:p%40ss%2Fword@127.0.0.1:${port}/mediaplane`);
  });

  it('starts its own when no postmaster runs or answers, and never when DATABASE_URL is set', async () => {
    await expect(runningEmbeddedUrl({ dataDir })).resolves.toBeUndefined();
    postmaster(2 ** 22 + 12345, port); // above Linux's pid_max: no such process
    await expect(runningEmbeddedUrl({ dataDir })).resolves.toBeUndefined();
    postmaster(process.pid, closedPort); // a live pid (reused after a crash) with nothing on the port
    await expect(runningEmbeddedUrl({ dataDir })).resolves.toBeUndefined();
    postmaster(process.pid, port);
    await expect(runningEmbeddedUrl({ dataDir, databaseUrl: 'postgres://elsewhere/db' })).resolves.toBeUndefined();
  });
});
