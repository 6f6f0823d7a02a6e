import { sql, type Kysely } from 'kysely';

/**
 * The raised or cleared state of a system alarm threshold is kept per node: a threshold crossed on
 * one node and not on another is raised for that node alone. The states kept so far belong to no
 * node and are dropped: the monitor reads every node again at its next pass. A system alarm's text
 * names its node ("CPU usage raised on edge-1"), so the text takes up to 200 characters.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`delete from alarm_system_states`.execute(db);
  await sql`alter table alarm_system_states drop constraint alarm_system_states_pkey`.execute(db);
  await db.schema
    .alterTable('alarm_system_states')
    .addColumn('node_id', 'integer', (c) => c.notNull().references('nodes.id').onDelete('cascade'))
    .execute();
  await sql`alter table alarm_system_states add primary key (node_id, name)`.execute(db);
  await sql`alter table alarms alter column alarm type varchar(200)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from alarm_system_states`.execute(db);
  await sql`alter table alarm_system_states drop constraint alarm_system_states_pkey`.execute(db);
  await db.schema.alterTable('alarm_system_states').dropColumn('node_id').execute();
  await sql`alter table alarm_system_states add primary key (name)`.execute(db);
  await sql`alter table alarms alter column alarm type varchar(100) using left(alarm, 100)`.execute(db);
}
