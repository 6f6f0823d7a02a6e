import type { Command } from 'commander';
import type { Db } from '../../api/db/database.ts';

/**
 * Run `fn` against the database the server would use (DATABASE_URL, the embedded Postgres of a
 * running server, or the embedded one started for this command), then close it.
 */
export async function withDatabase<T>(fn: (db: Db, url: string) => Promise<T>): Promise<T> {
  // Loaded here, not at the top: every start of the CLI would pay for the server's modules.
  const [{ configFromEnv }, { createDb }, { openDatabase }] = await Promise.all([import('../../api/config.ts'), import('../../api/db/database.ts'), import('../../api/server.ts')]);
  const config = configFromEnv();
  const database = await openDatabase(config, (line) => console.error(`[mediaplane] ${line}`), { joinRunning: true });
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
