import { sql, type Kysely } from 'kysely';

/**
 * Bitrates as nodes measure them (engine/stats/job-io.ts):
 * - `input_bps` and `output_bps` may be null: "not measured" (nothing on the node can see those
 *   bytes, e.g. an RTMP pull), which is not the same as 0 (nothing flows);
 * - `io_rates` holds each input's and each enabled output's rate by index:
 *   `{ "inputs": [{ "index": 0, "bps": 3000000 }], "outputs": [{ "index": 0, "bps": null }] }`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table job_status alter column input_bps drop not null, alter column input_bps drop default`.execute(db);
  await sql`alter table job_status alter column output_bps drop not null, alter column output_bps drop default`.execute(db);
  await sql`alter table job_status add column io_rates jsonb`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table job_status drop column if exists io_rates`.execute(db);
  await sql`update job_status set input_bps = coalesce(input_bps, 0), output_bps = coalesce(output_bps, 0)`.execute(db);
  await sql`alter table job_status alter column input_bps set default 0, alter column input_bps set not null`.execute(db);
  await sql`alter table job_status alter column output_bps set default 0, alter column output_bps set not null`.execute(db);
}
