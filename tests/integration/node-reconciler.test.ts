import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../api/db/database.ts';
import { freePort } from '../../api/db/embedded.ts';
import type { EventBus } from '../../api/events/event-bus.ts';
import { makeTestMedia } from '../fixtures/media/lavfi.ts';
import { insertJob, setDesired, waitFor } from '../support/jobs.ts';
import { createNodeHarness, type NodeHarness } from '../support/node-harness.ts';
import { isAlive, processesWithArgument } from '../support/processes.ts';

/**
 * The node reconciler with the real engine and ffmpeg: a relay reads a 20-second MPEG-TS file at
 * its native rate (cheap: the streams are copied) and sends it to a UDP port on loopback.
 */
let harness: NodeHarness;
let db: Db;
let bus: EventBus;
let source: string;

const ffmpegReading = (file: string) => processesWithArgument('ffmpeg', file);
const startNode = () => harness.startNode();
const statusOf = (id: number) => db.selectFrom('job_status').selectAll().where('job_id', '=', id).executeTakeFirst();
const eventsOf = async (id: number) => (await db.selectFrom('job_events').selectAll().where('job_id', '=', id).orderBy('id').execute()).map((e) => `${e.type}${e.reason ? `:${e.reason}` : ''}`);

async function relay(name: string, active = true) {
  const port = await freePort();
  return insertJob(db, 'relay', { name, input: { type: 'uri', uri: source }, outputs: [{ type: 'udp', uri: `udp://127.0.0.1:${port}` }] } as never, { active, nodeId: harness.nodeId });
}

beforeAll(async () => {
  harness = await createNodeHarness('node');
  ({ db, bus } = harness);
  source = await makeTestMedia(path.join(harness.dir, 'source.ts'), { seconds: 20, width: 160, height: 90 });
}, 120_000);

afterEach(() => harness.stopNodes());
afterAll(() => harness.close());

describe('the node reconciler', () => {
  it('starts a job that should run, reports it running with its process, and stops it when switched off', async () => {
    const job = await relay('relay-on-off');
    await startNode();
    const running = await waitFor(async () => {
      const status = await statusOf(job.id);
      return status?.state === 'running' && status.pid ? status : undefined;
    }, 'the relay running');
    expect(isAlive(running.pid as number)).toBe(true);
    expect(ffmpegReading(source)).toEqual([running.pid]);
    expect(await eventsOf(job.id)).toEqual(['START', 'UP']);
    // CPU and memory of the process group are sampled and written while it runs.
    const sampled = await waitFor(async () => {
      const status = await statusOf(job.id);
      return status && status.rss_bytes > 0 ? status : undefined;
    }, 'the relay\'s memory sampled');
    expect(sampled.rss_bytes).toBeGreaterThan(1_000_000);
    // So are the bitrates: the file's bytes as ffmpeg reads them, the UDP output's as ffmpeg counts them (its only output).
    const rates = await waitFor(async () => {
      const status = await statusOf(job.id);
      const io = status?.io_rates as { inputs: Array<{ bps: number | null }>; outputs: Array<{ bps: number | null }> } | null | undefined;
      return status && io?.inputs[0]?.bps && io.outputs[0]?.bps ? { status, io } : undefined;
    }, "the relay's bitrates sampled");
    expect(Number(rates.status.input_bps)).toBe(rates.io.inputs[0].bps);
    expect(Number(rates.status.output_bps)).toBe(rates.io.outputs[0].bps);
    expect(rates.io).toEqual({ inputs: [{ index: 0, bps: expect.any(Number) }], outputs: [{ index: 0, bps: expect.any(Number) }] });

    await setDesired(db, bus, job.id, { active: false }, { kind: 'user', userId: 7, username: 'operator' });
    await waitFor(async () => (await statusOf(job.id))?.state === 'stopped', 'the relay stopped');
    expect(isAlive(running.pid as number)).toBe(false);
    expect(ffmpegReading(source)).toEqual([]);
    expect(await statusOf(job.id)).toMatchObject({ input_bps: null, output_bps: null, io_rates: null });
    const stop = await db.selectFrom('job_events').selectAll().where('job_id', '=', job.id).where('type', '=', 'STOP').executeTakeFirstOrThrow();
    expect(stop.actor_name).toBe('operator');
  });

  it('carries out a hard restart order with a new process', async () => {
    const job = await relay('relay-restart');
    await startNode();
    const first = await waitFor(async () => {
      const status = await statusOf(job.id);
      return status?.state === 'running' && status.pid ? status.pid : undefined;
    }, 'the relay running');
    await setDesired(db, bus, job.id, { restart: 'hard' });
    const second = await waitFor(async () => {
      const status = await statusOf(job.id);
      return status?.state === 'running' && status.pid && status.pid !== first ? status.pid : undefined;
    }, 'a new process after the restart');
    expect(isAlive(first)).toBe(false);
    expect(isAlive(second)).toBe(true);
    expect(await eventsOf(job.id)).toContain('RESTART:hard');
  });

  it('after the control plane dies without stopping its jobs, ends the leftover process and runs the job again within 10 s', async () => {
    const job = await relay('relay-recovery');
    const dying = await startNode();
    const orphan = await waitFor(async () => {
      const status = await statusOf(job.id);
      return status?.state === 'running' && status.pid ? status.pid : undefined;
    }, 'the relay running');
    // What SIGKILL of the control plane leaves: the reconciler gone, its ffmpeg still running.
    await dying.stop({ stopJobs: false });
    expect(isAlive(orphan)).toBe(true);

    const restartedAt = Date.now();
    await startNode();
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
    expect(ffmpegReading(source)).toEqual([fresh]);
  });

  it('marks a job it cannot run as failed, with the reason, and does not retry it on every sweep', async () => {
    const job = await insertJob(db, 'relay', { name: 'needs-storage', input: { type: 'storage', storageConfig: 1, path: 'a.ts' }, outputs: [{ type: 'udp', uri: 'udp://127.0.0.1:9' }] } as never, { active: true, nodeId: harness.nodeId });
    const node = await startNode();
    const failed = await waitFor(async () => {
      const status = await statusOf(job.id);
      return status?.state === 'failed' ? status : undefined;
    }, 'the job failed');
    expect(failed.reason).toBe('invalid_config');
    expect(failed.reason_detail).toMatch(/storage inputs/);
    await node.reconciler.sweep();
    expect((await eventsOf(job.id)).filter((e) => e.startsWith('FAILURE'))).toHaveLength(1);
  });
});
