import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './tables.ts';

export type Db = Kysely<Database>;

// bigint counts and bigserial ids arrive as strings by default; they fit a JS number here.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

export function createDb(connectionString: string, max = 10): Db {
  const pool = new pg.Pool({ connectionString, max, idleTimeoutMillis: 30_000 });
  pool.on('error', (error) => console.error(`database pool: ${error.message}`));
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}
