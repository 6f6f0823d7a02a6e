import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { livePostmasterPort, startEmbeddedPostgres, type EmbeddedDatabase } from '../../api/db/embedded.ts';

let dir: string;
let dataDir: string;
const started: EmbeddedDatabase[] = [];

async function start(log?: (line: string) => void): Promise<EmbeddedDatabase> {
  const database = await startEmbeddedPostgres({ dataDir, password: 'embedded-test', log });
  started.push(database);
  return database;
}

async function query(database: EmbeddedDatabase, text: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: database.url('postgres') });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

/** The postmaster of the data directory, from its pid file. */
function postmasterPid(): number {
  return Number.parseInt(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0], 10);
}

function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) Z/.test(stat); // a zombie has exited
  } catch {
    return false;
  }
}

/** Every process running a Postgres of this data directory: the postmaster (-D dataDir) and its children. */
function postgresProcesses(): number[] {
  const found: number[] = [];
  const postmasters = new Set<number>();
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (cmdline.includes(dataDir)) postmasters.add(pid);
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] !== 'Z') parents.set(pid, Number(fields[1]));
    } catch {
      // gone meanwhile
    }
  }
  for (const [pid, parent] of parents) if (postmasters.has(pid) || postmasters.has(parent)) found.push(pid);
  return found.filter(isRunning);
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'mediaplane-embedded-test-'));
  chmodSync(dir, 0o755); // Postgres runs as its own user when we are root
  dataDir = path.join(dir, 'pg');
});
afterAll(async () => {
  for (const database of started) await database.stop().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
});

describe('startEmbeddedPostgres', () => {
  it('starts (initialising the directory), answers a query, and stops leaving no postgres process', async () => {
    const lines: string[] = [];
    const database = await start((line) => lines.push(line));
    expect(existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(true);
    expect(lines.some((line) => line.startsWith('initialising Postgres in'))).toBe(true);
    expect(database.url('postgres')).toMatch(/^postgres:\/\/mediaplane:[^@]+@127\.0\.0\.1:\d+\/postgres$/);

    expect(await query(database, 'select 41 + 1 as answer')).toEqual([{ answer: 42 }]);
    await database.createDatabase('app');
    await database.createDatabase('app'); // a second time is a no-op
    const client = new pg.Client({ connectionString: database.url('app') });
    await client.connect();
    expect((await client.query('select current_database() as name')).rows).toEqual([{ name: 'app' }]);
    await client.end();

    const pid = postmasterPid();
    expect(isRunning(pid)).toBe(true);
    expect(postgresProcesses()).toContain(pid);
    // What `users create-admin` and `migrate` join instead of taking the directory over.
    expect(await livePostmasterPort(dataDir)).toBe(Number(new URL(database.url()).port));

    await database.stop();
    expect(await livePostmasterPort(dataDir)).toBeUndefined();
    expect(isRunning(pid)).toBe(false);
    expect(postgresProcesses()).toEqual([]);
    expect(existsSync(path.join(dataDir, 'postmaster.pid'))).toBe(false);
  });

  it('takes over a data directory whose postmaster was left running by a killed control plane', async () => {
    // The first control plane starts Postgres, then dies without stopping it (SIGKILL leaves the postmaster).
    const first = await start();
    await query(first, 'create table if not exists survived (note text)');
    await query(first, "insert into survived values ('written before the crash')");
    const oldPid = postmasterPid();
    expect(isRunning(oldPid)).toBe(true);

    // The next start on the same directory, without stopping the first.
    const lines: string[] = [];
    const second = await start((line) => lines.push(line));
    expect(lines).toContain(`stopping the Postgres (pid ${oldPid}) left running by a previous run`);
    expect(isRunning(oldPid)).toBe(false);
    const newPid = postmasterPid();
    expect(newPid).not.toBe(oldPid);
    expect(await query(second, 'select note from survived')).toEqual([{ note: 'written before the crash' }]);
    expect(postgresProcesses()).toContain(newPid);

    // Stopping the handle of the dead postmaster returns at once and touches nothing.
    await first.stop();
    expect(isRunning(newPid)).toBe(true);

    await second.stop();
    expect(postgresProcesses()).toEqual([]);
  });

  it('never signals another program that a stale pid file names', async () => {
    // A pid file left by a crashed machine, naming a pid that now belongs to another program.
    const database = await start();
    await database.stop();
    const other = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      writeFileSync(path.join(dataDir, 'postmaster.pid'), `${other.pid}\n${dataDir}\n1700000000\n5432\n`);
      expect(await livePostmasterPort(dataDir)).toBeUndefined();
      const lines: string[] = [];
      const again = await start((line) => lines.push(line));
      expect(lines.some((line) => line.startsWith('stopping the Postgres'))).toBe(false);
      expect(isRunning(other.pid as number)).toBe(true);
      expect(await query(again, 'select 1 as one')).toEqual([{ one: 1 }]);
      await again.stop();
      expect(postgresProcesses()).toEqual([]);
    } finally {
      other.kill('SIGKILL');
    }
  });
});
