import { sql, type Kysely } from 'kysely';

/**
 * The relay and encoding lists stay fast with 10,000 jobs:
 * - `list_summary`: what a list row shows of the configuration (input URL, switches, each output's
 *   type and markers), computed by Postgres from `config` at every write, so a page never reads
 *   nor parses the whole configuration;
 * - a configuration large enough to be stored apart (TOAST: rows over about 2 kB) leaves only a
 *   pointer in the jobs row, not a compressed copy, so large encodings keep the scans narrow;
 * - a trigram index for the case-insensitive name search (pg_trgm, where the server has it);
 * - indexes for the filters a plan cannot serve from the id or name order (a rare preset, node or
 *   output type) and for the references checked when a preset, watermark or user goes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table jobs set (toast_tuple_target = 128)`.execute(db);
  // Immutable: it only reads its argument (jsonb_build_object is marked stable for other types).
  await sql`
    create function job_list_summary(config jsonb) returns jsonb language sql immutable parallel safe as $$
      select jsonb_build_object(
        'inputUri', config #>> '{input,uri}',
        'alarmed', coalesce((config->>'alarmed')::boolean, false),
        'statistics', coalesce((config->>'statistics')::boolean, false),
        'adaptive', coalesce((config->>'adaptive')::boolean, false),
        'outputs', case when jsonb_typeof(config->'outputs') = 'array' then coalesce((
          select jsonb_agg(jsonb_build_object(
            'type', o->>'type',
            'disabled', coalesce((o->>'disabled')::boolean, false),
            'encryption', coalesce((o->>'encryption')::boolean, false),
            'drmEnabled', coalesce((o->>'drmEnabled')::boolean, false),
            'adMarkersEnabled', coalesce((o->>'adMarkersEnabled')::boolean, false)) order by n)
          from jsonb_array_elements(config->'outputs') with ordinality as x(o, n)), '[]'::jsonb) else '[]'::jsonb end)
    $$`.execute(db);
  await sql`alter table jobs add column list_summary jsonb generated always as (job_list_summary(config)) stored`.execute(db);

  await sql`savepoint trigram`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create index jobs_name_trigram on jobs using gin (lower(name) gin_trgm_ops)`.execute(db);
    await sql`release savepoint trigram`.execute(db);
  } catch {
    // Without pg_trgm (or the right to install it) the search scans the narrow table instead.
    await sql`rollback to savepoint trigram`.execute(db);
  }

  await sql`create index jobs_preset on jobs (preset_id) where preset_id is not null`.execute(db);
  await sql`create index jobs_watermark on jobs (watermark_id) where watermark_id is not null`.execute(db);
  await sql`create index jobs_node on jobs (node_id) where node_id is not null`.execute(db);
  await sql`create index jobs_output_types on jobs using gin (output_types)`.execute(db);
  await sql`create index jobs_created_by on jobs (created_by, kind) where not is_template`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of ['jobs_created_by', 'jobs_output_types', 'jobs_node', 'jobs_watermark', 'jobs_preset', 'jobs_name_trigram']) {
    await sql`drop index if exists ${sql.ref(index)}`.execute(db);
  }
  await sql`alter table jobs drop column if exists list_summary`.execute(db);
  await sql`drop function if exists job_list_summary(jsonb)`.execute(db);
  await sql`alter table jobs reset (toast_tuple_target)`.execute(db);
}
