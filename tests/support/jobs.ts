import { sql } from 'kysely';
import type { Db } from '../../api/db/database.ts';
import type { JobRow } from '../../api/db/tables.ts';
import type { EventBus } from '../../api/events/event-bus.ts';
import { JobInput, type JobInputValue } from '../../openapi/schemas/jobs.ts';

/**
 * Store a job the way the relays/encodings service does (the config parsed by the contract's
 * schema, the list columns filled from it), for tests of the node side.
 */
export async function insertJob(
  db: Db,
  kind: 'relay' | 'encoding',
  config: Partial<JobInputValue> & Pick<JobInputValue, 'name' | 'input'>,
  desired: { active?: boolean; nodeId?: number | null } = {},
): Promise<JobRow> {
  const parsed = JobInput.parse(config);
  return db
    .insertInto('jobs')
    .values({
      kind,
      name: parsed.name,
      video_type: parsed.videoType,
      active: desired.active ?? false,
      node_id: desired.nodeId ?? null,
      input_type: parsed.input.type,
      output_types: parsed.outputs.map((o) => o.type),
      preset_id: parsed.preset,
      watermark_id: parsed.watermark,
      config: JSON.stringify(parsed),
      desired_actor: JSON.stringify({ kind: 'user', userId: 0, username: 'test' }),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Switch a job on or off, or order a restart, as the API does: the row, then a notification. */
export async function setDesired(
  db: Db,
  bus: EventBus,
  id: number,
  change: { active?: boolean; restart?: 'hard' | 'soft' | 'reload' },
  actor = { kind: 'user', userId: 0, username: 'test' },
): Promise<void> {
  await db
    .updateTable('jobs')
    .set({
      ...(change.active !== undefined ? { active: change.active } : {}),
      ...(change.restart ? { restart_seq: sql<number>`restart_seq + 1` as never, restart_mode: change.restart } : {}),
      desired_actor: JSON.stringify(actor),
    })
    .where('id', '=', id)
    .execute();
  await bus.publish({ topic: 'jobs', type: 'desired', id });
}

/** Wait (bounded) until `check` returns a value, polling the database every 50 ms. */
export async function waitFor<T>(check: () => Promise<T | undefined | null | false>, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
