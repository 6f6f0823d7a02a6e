import { sql, type Kysely } from 'kysely';

/** Streampool servers (spec 03 System settings, Streampool Server Settings); the API key is sealed (api/secrets-box.ts). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('streampool_servers')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('alias', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('publish_address', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('playback_address', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('api_key_sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('streampool_servers').execute();
}
