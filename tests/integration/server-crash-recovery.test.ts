import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../api/db/database.ts';
import { freePort } from '../../api/db/embedded.ts';
import { EventBus } from '../../api/events/event-bus.ts';
import { makeTestMedia } from '../fixtures/media/lavfi.ts';
import { createTestDatabase } from '../support/db.ts';
import { isAlive, processesWithArgument } from '../support/processes.ts';
import { insertJob, setDesired, waitFor } from '../support/jobs.ts';

/**
 * The whole control plane killed with SIGKILL while a relay runs: the real `mediaplane server`
 * on a database of its own, a relay reading a generated MPEG-TS file to a UDP port. The ffmpeg
 * process outlives the server (it runs in a process group of its own); the next server ends it,
 * runs the job again, and has lost nothing stored.
 */
const BIN = fileURLToPath(new URL('../../cli/bin.mjs', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Db;
let bus: EventBus;
let dir: string;
let source: string;
let port: number;
let server: ResultPromise | undefined;

const ffmpegReading = (file: string) => processesWithArgument('ffmpeg', file);

/** `mediaplane server` on the test database, resolved once its API answers (wrapped: the subprocess is itself a promise of its end). */
async function startServer(): Promise<{ process: ResultPromise }> {
  const child = execa('node', [BIN, 'server'], {
    cwd: ROOT,
    env: { DATABASE_URL: database.url, MEDIAPLANE_DATA_DIR: dir, PORT: String(port), MEDIAPLANE_HOST: '127.0.0.1' },
    reject: false,
    all: true,
  });
  let exited = false;
  void child.then(() => {
    exited = true;
  });
  await waitFor(
    async () => {
      if (exited) throw new Error(`the server exited while starting:\n${(await child).all}`);
      return fetch(`http://127.0.0.1:${port}/api/health`).then(
        (response) => response.ok,
        () => false,
      );
    },
    'the server answering',
    60_000,
  );
  return { process: child };
}

const statusOf = (id: number) => db.selectFrom('job_status').selectAll().where('job_id', '=', id).executeTakeFirst();

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  bus = new EventBus(database.url, db);
  await bus.start();
  dir = mkdtempSync(path.join(tmpdir(), 'mediaplane-crash-'));
  source = await makeTestMedia(path.join(dir, 'crash-source.ts'), { seconds: 20, width: 160, height: 90 });
  port = await freePort();
}, 120_000);

afterAll(async () => {
  if (server && server.exitCode === undefined && server.pid) server.kill('SIGKILL');
  await server?.catch(() => {});
  // Whatever of this test is still running (its source path is unique to it).
  for (const pid of ffmpegReading(source)) process.kill(-pid, 'SIGKILL');
  await bus?.stop();
  await database?.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('mediaplane server killed with SIGKILL', () => {
  it('leaves its ffmpeg running; the next server ends it, runs the job again within 10 s with one ffmpeg, and has lost nothing', async () => {
    server = (await startServer()).process;
    const node = await db.selectFrom('nodes').selectAll().executeTakeFirstOrThrow();
    const udpPort = await freePort();
    const job = await insertJob(db, 'relay', { name: 'crash-relay', input: { type: 'uri', uri: source }, outputs: [{ type: 'udp', uri: `udp://127.0.0.1:${udpPort}` }] } as never, {
      active: false,
      nodeId: node.id,
    });
    await setDesired(db, bus, job.id, { active: true }, { kind: 'user', userId: 0, username: 'operator' });
    const orphan = await waitFor(async () => {
      const status = await statusOf(job.id);
      return status?.state === 'running' && status.pid ? status.pid : undefined;
    }, 'the relay running');
    expect(ffmpegReading(source)).toEqual([orphan]);
    const eventsBefore = await db.selectFrom('job_events').selectAll().where('job_id', '=', job.id).orderBy('id').execute();
    expect(eventsBefore.map((e) => e.type)).toEqual(['START', 'UP']);

    server.kill('SIGKILL');
    const killed = await server;
    expect(killed.signal).toBe('SIGKILL');
    // Its ffmpeg lives on, an orphan in its own process group.
    expect(isAlive(orphan)).toBe(true);
    expect(ffmpegReading(source)).toEqual([orphan]);

    const restartedAt = Date.now();
    server = (await startServer()).process;
    const fresh = await waitFor(
      async () => {
        const status = await statusOf(job.id);
        return status?.state === 'running' && status.pid && status.pid !== orphan ? status.pid : undefined;
      },
      'the relay running again',
      10_000,
    );
    expect(Date.now() - restartedAt).toBeLessThan(10_000);
    expect(isAlive(orphan)).toBe(false);
    expect(isAlive(fresh)).toBe(true);
    expect(ffmpegReading(source)).toEqual([fresh]);

    // Nothing stored is lost: the job, its earlier events, and the recovery told by the engine.
    const row = await db.selectFrom('jobs').selectAll().where('id', '=', job.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: 'crash-relay', active: true, node_id: node.id });
    const events = await db.selectFrom('job_events').selectAll().where('job_id', '=', job.id).orderBy('id').execute();
    expect(events.slice(0, eventsBefore.length)).toEqual(eventsBefore);
    const recovery = events.slice(eventsBefore.length);
    expect(recovery.map((e) => `${e.type}${e.reason ? `:${e.reason}` : ''}`)).toEqual(['START:recovered', 'UP']);
    expect(recovery[0].actor_kind).toBe('engine');
    expect(await db.selectFrom('nodes').select('id').execute()).toEqual([{ id: node.id }]);

    // A clean stop takes its ffmpeg with it.
    server.kill('SIGTERM');
    const stopped = await server;
    expect(stopped.exitCode, String(stopped.all).slice(-3000)).toBe(0);
    expect(isAlive(fresh)).toBe(false);
    expect(ffmpegReading(source)).toEqual([]);
    expect(await statusOf(job.id)).toMatchObject({ state: 'stopped', reason: 'node_shutdown', pid: null });
  }, 150_000);
});
