import type { Command } from 'commander';
import { configFromEnv } from '../../api/config.ts';
import { createDb } from '../../api/db/database.ts';
import { migrateDown, migrateUp } from '../../api/db/migrate.ts';
import { openDatabase } from '../../api/server.ts';

/** Run `fn` against the database the server would use (DATABASE_URL or the embedded one), then close it. */
export async function withDatabase<T>(fn: (db: ReturnType<typeof createDb>) => Promise<T>): Promise<T> {
  const config = configFromEnv();
  const database = await openDatabase(config, (line) => console.error(`[mediaplane] ${line}`));
  const db = createDb(database.url, 2);
  try {
    return await fn(db);
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
      const done = await withDatabase((db) => (direction === 'up' ? migrateUp(db) : migrateDown(db)));
      console.log(done.length ? done.join('\n') : 'Nothing to do: the database is up to date.');
    });
}
