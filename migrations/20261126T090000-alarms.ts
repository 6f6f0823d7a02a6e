import { sql, type Kysely } from 'kysely';

/**
 * Alarms (spec 03): every alarm raised (job event or system threshold) and its deliveries, queued
 * in Postgres and claimed with FOR UPDATE SKIP LOCKED, so any number of API processes send each
 * one once and a delivery that fails is retried with backoff. Per-job overrides of the defaults,
 * and the raised/cleared state of the system thresholds (changed by one conditional UPDATE: only
 * the process that flips it raises the alarm). Settings live in system_settings (alarms.*).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('alarms')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('job_id', 'integer', (c) => c.references('jobs.id').onDelete('set null'))
    .addColumn('job_name', 'varchar(200)')
    .addColumn('job_type', 'varchar(16)')
    .addColumn('resource', 'varchar(100)')
    .addColumn('alarm', 'varchar(100)', (c) => c.notNull())
    .addColumn('cause', 'text')
    .addColumn('job_event_id', 'bigint', (c) => c.unique())
    .execute();
  await db.schema.createIndex('alarms_at').on('alarms').columns(['at']).execute();

  await db.schema
    .createTable('alarm_deliveries')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('alarm_id', 'bigint', (c) => c.notNull().references('alarms.id').onDelete('cascade'))
    .addColumn('channel', 'varchar(8)', (c) => c.notNull().check(sql`channel in ('EMAIL', 'SMS')`))
    .addColumn('recipient', 'varchar(200)', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(8)', (c) => c.notNull().defaultTo('QUEUED').check(sql`status in ('QUEUED', 'SENT', 'FAILED')`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_error', 'text')
    .addColumn('sent_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index alarm_deliveries_due on alarm_deliveries (next_attempt_at) where status = 'QUEUED'`.execute(db);
  await db.schema.createIndex('alarm_deliveries_alarm').on('alarm_deliveries').columns(['alarm_id']).execute();

  await db.schema
    .createTable('alarm_job_settings')
    .addColumn('job_id', 'integer', (c) => c.primaryKey().references('jobs.id').onDelete('cascade'))
    .addColumn('settings', 'jsonb', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('alarm_system_states')
    .addColumn('name', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('raised', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('current', 'double precision')
    .addColumn('changed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('alarm_system_states').ifExists().execute();
  await db.schema.dropTable('alarm_job_settings').ifExists().execute();
  await db.schema.dropTable('alarm_deliveries').ifExists().execute();
  await db.schema.dropTable('alarms').ifExists().execute();
}
