import { sql, type Kysely } from 'kysely';

/**
 * Timers (spec 03 Tools) and their firings. A firing is claimed by inserting its row: the unique
 * (timer_id, due_at) makes it happen exactly once however many API processes run the scheduler,
 * because the claim and the change of the jobs it touches commit together.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('timers')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('action', 'varchar(16)', (c) => c.notNull().check(sql`action in ('START', 'STOP', 'RESTART')`))
    .addColumn('type', 'varchar(16)', (c) => c.notNull().check(sql`type in ('HOURLY', 'DAILY', 'WEEKLY', 'ONCE')`))
    // Local time of time_zone; hour is null for HOURLY.
    .addColumn('hour', 'smallint', (c) => c.check(sql`hour between 0 and 23`))
    .addColumn('minute', 'smallint', (c) => c.notNull().check(sql`minute between 0 and 59`))
    .addColumn('days_of_week', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    // ONCE: YYYY-MM-DD (text: a date column would come back as a Date at some midnight).
    .addColumn('date', 'varchar(10)')
    .addColumn('time_zone', 'varchar(64)', (c) => c.notNull())
    .addColumn('task_type', 'varchar(16)', (c) => c.notNull().check(sql`task_type in ('relay', 'encoding')`))
    .addColumn('job_ids', sql`integer[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    // Explicit, so that a list whose jobs were all deleted never turns into "all jobs".
    .addColumn('all_jobs', 'boolean', (c) => c.notNull())
    .addColumn('actived', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('last_fired_at', 'timestamptz')
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('timer_firings')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('timer_id', 'integer', (c) => c.notNull().references('timers.id').onDelete('cascade'))
    .addColumn('due_at', 'timestamptz', (c) => c.notNull())
    .addColumn('fired_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('fired_by', 'varchar(200)', (c) => c.notNull())
    .addColumn('action', 'varchar(16)', (c) => c.notNull())
    .addColumn('job_ids', sql`integer[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addUniqueConstraint('timer_firings_once', ['timer_id', 'due_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('timer_firings').ifExists().execute();
  await db.schema.dropTable('timers').ifExists().execute();
}
