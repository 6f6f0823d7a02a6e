import { sql, type Kysely } from 'kysely';

/**
 * Relays and encodings (one table, `kind` tells them apart), their observed status, events,
 * batch entries and comments; presets and watermarks that encodings reference.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('audio_presets')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('audio_codec', 'varchar(50)', (c) => c.notNull())
    .addColumn('audio_bitrate', 'integer', (c) => c.notNull())
    .addColumn('channels', 'integer')
    .addColumn('sample_rate', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('video_presets')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('video_codec', 'varchar(50)', (c) => c.notNull())
    .addColumn('gpu', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('video_bitrate', 'integer', (c) => c.notNull())
    .addColumn('audio_preset_id', 'integer', (c) => c.notNull().references('audio_presets.id').onDelete('restrict'))
    .addColumn('advanced_option', 'text')
    .addColumn('video_codec_parameters', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('watermarks')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('file', 'varchar(500)', (c) => c.notNull())
    .addColumn('alpha', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('scale_percent', 'integer', (c) => c.notNull().defaultTo(100))
    .addColumn('image_width', 'integer', (c) => c.notNull())
    .addColumn('image_height', 'integer', (c) => c.notNull())
    .addColumn('scaled_width', 'integer', (c) => c.notNull())
    .addColumn('scaled_height', 'integer', (c) => c.notNull())
    .addColumn('resolution', 'jsonb', (c) => c.notNull())
    .addColumn('x', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('y', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('jobs')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull().check(sql`kind in ('relay', 'encoding')`))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('video_type', 'varchar(8)', (c) => c.notNull().defaultTo('LIVE'))
    .addColumn('is_template', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('template_type', 'varchar(16)')
    // Desired state: the switch, and the generation of restart orders the node must carry out.
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('restart_seq', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('restart_mode', 'varchar(8)')
    .addColumn('desired_actor', 'jsonb')
    .addColumn('saved', 'boolean', (c) => c.notNull().defaultTo(false))
    // Placement: the operator's choice (null = auto) and where the leader put it.
    .addColumn('node_id', 'integer', (c) => c.references('nodes.id').onDelete('set null'))
    .addColumn('assigned_node_id', 'integer', (c) => c.references('nodes.id').onDelete('set null'))
    // Denormalised for the list filters.
    .addColumn('input_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('output_types', sql`varchar(16)[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('preset_id', 'integer', (c) => c.references('video_presets.id').onDelete('restrict'))
    .addColumn('watermark_id', 'integer', (c) => c.references('watermarks.id').onDelete('restrict'))
    .addColumn('config', 'jsonb', (c) => c.notNull())
    // Bumped at every save; changedConfigSinceLastStart is a running job whose node applied an older one.
    .addColumn('config_version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_by_name', 'varchar(100)')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index jobs_kind_template_id on jobs (kind, is_template, id)`.execute(db);
  await sql`create index jobs_kind_name on jobs (kind, is_template, lower(name))`.execute(db);
  await sql`create index jobs_active_node on jobs (active, assigned_node_id) where not is_template`.execute(db);

  await db.schema
    .createTable('job_status')
    .addColumn('job_id', 'integer', (c) => c.primaryKey().references('jobs.id').onDelete('cascade'))
    .addColumn('node_id', 'integer', (c) => c.references('nodes.id').onDelete('set null'))
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('pid', 'integer')
    .addColumn('restarts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cpu_percent', 'real', (c) => c.notNull().defaultTo(0))
    .addColumn('rss_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('input_bps', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('output_bps', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('active_input', 'varchar(16)')
    .addColumn('started_at', 'timestamptz')
    .addColumn('last_reset_at', 'timestamptz')
    .addColumn('reason', 'varchar(40)')
    .addColumn('reason_detail', 'text')
    .addColumn('applied_restart_seq', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('applied_config_version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('srt_stats', 'jsonb')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('job_events')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('job_id', 'integer', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('reason', 'varchar(40)')
    .addColumn('detail', 'text')
    .addColumn('actor_kind', 'varchar(8)', (c) => c.notNull())
    .addColumn('actor_id', 'integer')
    .addColumn('actor_name', 'varchar(100)')
    .addColumn('node_id', 'integer', (c) => c.references('nodes.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('job_events_job_at').on('job_events').columns(['job_id', 'at']).execute();

  await db.schema
    .createTable('job_batch_entries')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('job_id', 'integer', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('source_file', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('entry', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('job_batch_entries_job').on('job_batch_entries').columns(['job_id', 'source_file']).execute();

  await db.schema
    .createTable('job_comments')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('job_id', 'integer', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('comment', 'text', (c) => c.notNull())
    .addColumn('created_by', 'varchar(100)')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('job_comments_job').on('job_comments').column('job_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['job_comments', 'job_batch_entries', 'job_events', 'job_status', 'jobs', 'watermarks', 'video_presets', 'audio_presets']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
