import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '../../api/config.ts';
import type { Db } from '../../api/db/database.ts';
import { freePort } from '../../api/db/embedded.ts';
import { JobRuntimeRepository } from '../../api/repositories/job-runtime.repository.ts';
import { NodesRepository } from '../../api/repositories/nodes.repository.ts';
import { deriveUptimes } from '../../api/services/job-uptime.ts';
import { makeTestMedia } from '../fixtures/media/lavfi.ts';
import { createNodeHarness, type NodeHarness } from '../support/node-harness.ts';
import { insertJob, waitFor } from '../support/jobs.ts';

/**
 * Job events on a real database: their retention (each job's statistics days, purged by the
 * leader only), and the events the node writes for a VOD that finishes and for a node shutdown,
 * read back as uptimes and downtimes.
 */
let harness: NodeHarness;
let db: Db;
let source: string;
let nodeId: number;
let otherNodeId: number;

const DAY = 24 * 3600 * 1000;
const eventsOf = (id: number) => db.selectFrom('job_events').selectAll().where('job_id', '=', id).orderBy('id').execute();
const namesOf = async (id: number) => (await eventsOf(id)).map((e) => `${e.type}${e.reason ? `:${e.reason}` : ''}`);
const statusOf = (id: number) => db.selectFrom('job_status').selectAll().where('job_id', '=', id).executeTakeFirst();

const startNode = (id = nodeId, dataDir = harness.dir) => harness.startNode({ nodeId: id, nodeName: `node-${id}`, paths: dataPaths(dataDir) });

/** An event `ageMs` old, written as the node writes them. */
async function eventAged(jobId: number, type: string, ageMs: number): Promise<void> {
  await db
    .insertInto('job_events')
    .values({ job_id: jobId, type, actor_kind: 'engine', at: sql<Date>`now() - make_interval(secs => ${ageMs / 1000})` as never })
    .execute();
}

const ages = async (jobId: number) => (await db.selectFrom('job_events').select(sql<number>`round(extract(epoch from now() - at) / 86400)`.as('days')).where('job_id', '=', jobId).orderBy('at').execute()).map((r) => Number(r.days));

function relayConfig(name: string, extra: object = {}) {
  return { name, input: { type: 'uri', uri: source }, outputs: [{ type: 'udp', uri: 'udp://127.0.0.1:9' }], ...extra } as never;
}

beforeAll(async () => {
  harness = await createNodeHarness('events');
  ({ db, nodeId } = harness);
  source = await makeTestMedia(path.join(harness.dir, 'source.ts'), { seconds: 20, width: 160, height: 90 });
  otherNodeId = (await new NodesRepository(db).upsert({ nodeId: 'events-node-2', name: 'second', ip: '127.0.0.2', version: 'test' })).id;
}, 120_000);

afterEach(() => harness.stopNodes());
afterAll(() => harness.close());

describe('JobRuntimeRepository.purgeOldEvents', () => {
  it("drops each job's events older than its statistics days and keeps the newer ones", async () => {
    const oneDay = await insertJob(db, 'relay', relayConfig('keep-1-day', { statisticsDays: 1 }));
    const month = await insertJob(db, 'relay', relayConfig('keep-30-days', { statisticsDays: 30 }));
    const byDefault = await insertJob(db, 'relay', relayConfig('keep-default'));
    for (const job of [oneDay, month, byDefault]) {
      for (const days of [40, 10, 2]) await eventAged(job.id, 'UP', days * DAY);
      await eventAged(job.id, 'EXIT', 3600 * 1000);
    }

    const purged = await new JobRuntimeRepository(db).purgeOldEvents();
    expect(purged).toBe(3 + 1 + 2);
    expect(await ages(oneDay.id)).toEqual([0]);
    expect(await ages(month.id)).toEqual([10, 2, 0]);
    expect(await ages(byDefault.id)).toEqual([2, 0]);
    expect(await new JobRuntimeRepository(db).purgeOldEvents()).toBe(0);
  });
});

describe('events retention on the cluster', () => {
  it('is carried out by the leader (at once when it starts, then hourly), never by another node', async () => {
    const job = await insertJob(db, 'relay', relayConfig('retention', { statisticsDays: 3 }));
    await eventAged(job.id, 'UP', 5 * DAY);
    await eventAged(job.id, 'EXIT', 1 * DAY);
    const leading = await startNode();
    expect(leading.leader.isLeader).toBe(true);
    await waitFor(async () => (await ages(job.id)).length === 1, 'the leader purging the old event');

    await eventAged(job.id, 'UP', 4 * DAY);
    const otherDir = mkdtempSync(path.join(tmpdir(), 'mediaplane-events-other-'));
    try {
      const other = await startNode(otherNodeId, otherDir);
      expect(other.leader.isLeader).toBe(false);
      expect(await other.leader.purgeOldEvents()).toBeNull();
      expect(await ages(job.id)).toEqual([4, 1]);
      expect(await leading.leader.purgeOldEvents()).toBe(1);
      expect(await ages(job.id)).toEqual([1]);
    } finally {
      rmSync(otherDir, { recursive: true, force: true });
    }
  });
});

describe('events the node writes, read as uptimes and downtimes', () => {
  it('a VOD that reaches the end of its input is stopped as finished and switched off: off, not down', async () => {
    const job = await insertJob(db, 'relay', relayConfig('vod-to-the-end', { videoType: 'VOD' }), { active: true, nodeId });
    const node = await startNode();
    await waitFor(async () => {
      const [status, row] = await Promise.all([statusOf(job.id), db.selectFrom('jobs').select('active').where('id', '=', job.id).executeTakeFirstOrThrow()]);
      return status?.state === 'stopped' && status.reason === 'finished' && !row.active;
    }, 'the VOD finished and switched off');
    const names = await namesOf(job.id);
    expect(names[0]).toBe('START');
    expect(names.at(-1)).toBe('STOP:finished');
    expect(names.some((name) => name.startsWith('EXIT') || name.startsWith('FAILURE'))).toBe(false);
    expect(deriveUptimes(await eventsOf(job.id), Date.now()).downtimes).toEqual([]);
    // The next sweeps leave it off.
    await node.reconciler.sweep();
    expect(await namesOf(job.id)).toEqual(names);
  });

  it('a node shut down while a job runs leaves a downtime until the job is up again on the next start', async () => {
    const port = await freePort();
    const job = await insertJob(db, 'relay', { name: 'across-a-restart', input: { type: 'uri', uri: source }, outputs: [{ type: 'udp', uri: `udp://127.0.0.1:${port}` }] } as never, { active: true, nodeId });
    const first = await startNode();
    const isRunning = async () => {
      const status = await statusOf(job.id);
      return status?.state === 'running' && status.pid ? status.pid : undefined;
    };
    await waitFor(isRunning, 'the relay running');
    await first.stop();
    expect(await statusOf(job.id)).toMatchObject({ state: 'stopped', reason: 'node_shutdown', pid: null });
    expect((await namesOf(job.id)).at(-1)).toBe('EXIT:node_shutdown');

    await startNode();
    await waitFor(isRunning, 'the relay running again');
    const events = await eventsOf(job.id);
    expect(events.map((e) => `${e.type}${e.reason ? `:${e.reason}` : ''}`)).toEqual(['START', 'UP', 'EXIT:node_shutdown', 'START:recovered', 'UP']);
    expect(events[3].actor_kind).toBe('engine');
    const { uptimes, downtimes } = deriveUptimes(events, Date.now());
    expect(uptimes).toHaveLength(2);
    expect(uptimes[0].until).toBeDefined();
    expect(uptimes[1].until).toBeUndefined();
    expect(downtimes).toEqual([expect.objectContaining({ reason: 'node_shutdown', from: uptimes[0].until, until: uptimes[1].from })]);
  });
});
