import type { Command } from 'commander';
import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import type { ServerConfig } from '../../api/config.ts';
import type { Db } from '../../api/db/database.ts';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether something accepts connections on this loopback port (a pid file may outlive its postmaster). */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, timeout: 2000 });
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
  });
}

/**
 * The URL of the embedded Postgres that a running `mediaplane server` already has open on this data
 * directory. Starting another one would stop the server's (startEmbeddedPostgres takes the directory
 * over from a postmaster it finds), so `users create-admin` and `migrate` join it instead. The port
 * is the fourth line of postmaster.pid; user, password file and database are openDatabase's.
 */
export async function runningEmbeddedUrl(config: Pick<ServerConfig, 'dataDir' | 'databaseUrl'>): Promise<string | undefined> {
  if (config.databaseUrl) return undefined;
  const pidFile = path.join(config.dataDir, 'postgres', 'postmaster.pid');
  const passwordFile = path.join(config.dataDir, 'postgres-password');
  if (!existsSync(pidFile) || !existsSync(passwordFile)) return undefined;
  const [pidLine, , , portLine] = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number.parseInt(pidLine ?? '', 10);
  const port = Number.parseInt(portLine ?? '', 10);
  if (!(pid > 0) || !(port > 0) || !isAlive(pid) || !(await listening(port))) return undefined;
  const password = readFileSync(passwordFile, 'utf8').trim();
  return `postgres://mediaplane:${encodeURIComponent(password)}@127.0.0.1:${port}/mediaplane`;
}

/**
 * Run `fn` against the database the server would use (DATABASE_URL, the embedded Postgres of a
 * running server, or the embedded one started for this command), then close it.
 */
export async function withDatabase<T>(fn: (db: Db, url: string) => Promise<T>): Promise<T> {
  // Loaded here, not at the top: every start of the CLI would pay for the server's modules.
  const [{ configFromEnv }, { createDb }, { openDatabase }] = await Promise.all([import('../../api/config.ts'), import('../../api/db/database.ts'), import('../../api/server.ts')]);
  const config = configFromEnv();
  const running = await runningEmbeddedUrl(config);
  const log = (line: string) => console.error(`[mediaplane] ${line}`);
  if (running) log(`using the embedded Postgres of the server running on ${config.dataDir}`);
  const database = running ? { url: running, embedded: undefined } : await openDatabase(config, log);
  const db = createDb(database.url, 2);
  try {
    return await fn(db, database.url);
  } finally {
    await db.destroy();
    await database.embedded?.stop();
  }
}

export function registerMigrateCommand(program: Command): void {
  program
    .command('migrate')
    .description('Apply pending database migrations (up, the default) or revert the last one (down)')
    .argument('[direction]', 'up or down', 'up')
    .action(async (direction: string) => {
      if (direction !== 'up' && direction !== 'down') throw new Error(`direction must be up or down, not ${direction}`);
      const { migrateDown, migrateUp } = await import('../../api/db/migrate.ts');
      const done = await withDatabase((db) => (direction === 'up' ? migrateUp(db) : migrateDown(db)));
      console.log(done.length ? done.join('\n') : 'Nothing to do: the database is up to date.');
    });
}
