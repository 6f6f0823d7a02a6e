import { Migrator, type MigrationResultSet } from 'kysely';
import { migrations } from '../../migrations/index.ts';
import type { Db } from './database.ts';

function migrator(db: Db): Migrator {
  return new Migrator({ db, provider: { getMigrations: async () => migrations }, migrationTableName: 'mediaplane_migrations', migrationLockTableName: 'mediaplane_migrations_lock' });
}

function check(result: MigrationResultSet): string[] {
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error');
    throw new Error(`migration ${failed?.migrationName ?? '?'} failed: ${(result.error as Error).message ?? result.error}`);
  }
  return (result.results ?? []).map((r) => `${r.direction === 'Up' ? 'applied' : 'reverted'} ${r.migrationName}`);
}

/** Apply every pending migration; returns what was done. */
export async function migrateUp(db: Db): Promise<string[]> {
  return check(await migrator(db).migrateToLatest());
}

/** Revert the last applied migration. */
export async function migrateDown(db: Db): Promise<string[]> {
  return check(await migrator(db).migrateDown());
}

/** Migrations not yet applied to this database (an agent refuses to run on an older schema). */
export async function pendingMigrations(db: Db): Promise<string[]> {
  return (await migrator(db).getMigrations()).filter((m) => !m.executedAt).map((m) => m.name);
}
