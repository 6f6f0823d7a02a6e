import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '../../api/config.ts';
import type { Db } from '../../api/db/database.ts';
import { freePort } from '../../api/db/embedded.ts';
import { EventBus } from '../../api/events/event-bus.ts';
import { startLocalNode, type LocalNode } from '../../api/node/index.ts';
import { NodesRepository } from '../../api/repositories/nodes.repository.ts';
import { makeTestMedia } from '../fixtures/media/lavfi.ts';
import { createTestDatabase } from '../support/db.ts';
import { insertJob, setDesired, waitFor } from '../support/jobs.ts';
import { processesWithArgument } from '../support/processes.ts';

/**
 * Two nodes on one shared Postgres: this test's in-process node (which becomes the leader) and a
 * real `mediaplane agent` process. The leader places "auto" jobs on the least loaded live node
 * and pinned jobs on their own node; each node runs only what is placed on it.
 */
const BIN = fileURLToPath(new URL('../../cli/bin.mjs', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Db;
let bus: EventBus;
let dir: string;
let source: string;
let local: LocalNode;
let localId: number;
let agent: ResultPromise | undefined;

const statusOf = (id: number) => db.selectFrom('job_status').selectAll().where('job_id', '=', id).executeTakeFirst();

async function relay(name: string, nodeId: number | null) {
  const port = await freePort();
  const job = await insertJob(db, 'relay', { name, input: { type: 'uri', uri: source }, outputs: [{ type: 'udp', uri: `udp://127.0.0.1:${port}` }] } as never, { active: false, nodeId });
  await setDesired(db, bus, job.id, { active: true });
  return job;
}

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  bus = new EventBus(database.url, db);
  await bus.start();
  dir = mkdtempSync(path.join(tmpdir(), 'mediaplane-agent-'));
  source = await makeTestMedia(path.join(dir, 'source.ts'), { seconds: 20, width: 160, height: 90 });
  localId = (await new NodesRepository(db).upsert({ nodeId: 'test-local', name: 'local', ip: '127.0.0.1', version: 'test' })).id;
  local = await startLocalNode({ db, databaseUrl: database.url, bus, nodeId: localId, nodeName: 'local', paths: dataPaths(path.join(dir, 'local')), sweepIntervalMs: 1000, log: () => {} });
}, 120_000);

afterAll(async () => {
  agent?.kill('SIGKILL');
  await local?.stop();
  await bus.stop();
  await database.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('mediaplane agent beside a server node', () => {
  it('refuses to start without the cluster database', async () => {
    const result = await execa('node', [BIN, 'agent'], { cwd: ROOT, env: { DATABASE_URL: '', MEDIAPLANE_DATA_DIR: path.join(dir, 'nowhere') }, reject: false });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('mediaplane agent needs DATABASE_URL');
  });

  it('registers as a node, runs the jobs placed on it, and stops them on SIGTERM', async () => {
    agent = execa('node', [BIN, 'agent', '--name', 'edge-1'], {
      cwd: ROOT,
      env: { DATABASE_URL: database.url, MEDIAPLANE_DATA_DIR: path.join(dir, 'agent') },
      reject: false,
      all: true,
    });
    const edge = await waitFor(() => db.selectFrom('nodes').selectAll().where('name', '=', 'edge-1').executeTakeFirst(), 'the agent registered', 30_000);
    expect(edge.id).not.toBe(localId);

    // One job pinned to each node, then two auto jobs: the leader spreads them one per node.
    const pinnedEdge = await relay('pinned-edge', edge.id);
    const pinnedLocal = await relay('pinned-local', localId);
    const auto1 = await relay('auto-1', null);
    const auto2 = await relay('auto-2', null);
    for (const job of [pinnedEdge, pinnedLocal, auto1, auto2]) {
      await waitFor(async () => (await statusOf(job.id))?.state === 'running', `${job.name} running`, 30_000);
    }
    const placed = await db.selectFrom('jobs').select(['name', 'assigned_node_id']).orderBy('id').execute();
    expect(placed.find((j) => j.name === 'pinned-edge')?.assigned_node_id).toBe(edge.id);
    expect(placed.find((j) => j.name === 'pinned-local')?.assigned_node_id).toBe(localId);
    const autoNodes = placed.filter((j) => j.name.startsWith('auto')).map((j) => j.assigned_node_id);
    expect(new Set(autoNodes)).toEqual(new Set([edge.id, localId]));
    expect((await statusOf(pinnedEdge.id))?.node_id).toBe(edge.id);
    expect(processesWithArgument('ffmpeg', source)).toHaveLength(4);

    agent.kill('SIGTERM');
    const ended = await agent;
    expect(ended.exitCode).toBe(0);
    expect((await statusOf(pinnedEdge.id))?.state).toBe('stopped');
    expect(processesWithArgument('ffmpeg', source)).toHaveLength(2);
  });
});
