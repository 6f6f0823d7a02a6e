import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../api/db/embedded.ts';
import type { LiveEvent } from '../../api/events/event-bus.ts';
import { startLocalNode, type LocalNode } from '../../api/node/index.ts';
import { makeTestMedia } from '../fixtures/media/lavfi.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { processesWithArgument } from '../support/processes.ts';
import { waitFor } from '../support/jobs.ts';
import { client, relayBody, userWith, writeOf, type ErrorBody, type Job } from './jobs-api-support.ts';

/**
 * Start, stop, restart and bulk actions: each is a change of the jobs row the node reconciler
 * reads (active, restart_seq + restart_mode, desired_actor) and an event that wakes it.
 */
let app: TestApp;
let relays: ReturnType<typeof client>;
let adminId: number;

beforeAll(async () => {
  app = await startTestApp();
  const admin = await userWith(app, 'operator', {}, 'ADMIN');
  adminId = admin.id;
  relays = client(app, admin.cookie, 'relay');
});
afterAll(() => app.close());

const jobRow = (id: number) => app.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** Collect the live events published while `action` runs, until `until` has been seen. */
async function eventsDuring(action: () => Promise<unknown>, until: (e: LiveEvent) => boolean): Promise<LiveEvent[]> {
  const seen: LiveEvent[] = [];
  const unsubscribe = app.services.events.subscribe((event) => seen.push(event));
  try {
    await action();
    await waitFor(async () => seen.some(until), 'the live event');
    return seen;
  } finally {
    unsubscribe();
  }
}

describe('POST /api/relays/{id}/start and /stop', () => {
  it('switches the job on and off in the jobs row, with who asked, and wakes the reconcilers', async () => {
    const job = await relays.create(relayBody('Switch'));
    const events = await eventsDuring(
      () => relays.call('POST', `/${job.id}/start`),
      (e) => e.id === job.id && e.type === 'desired',
    );
    expect(events.find((e) => e.id === job.id && e.type === 'desired')).toEqual({ topic: 'relays', type: 'desired', id: job.id, data: { active: true } });
    expect(await jobRow(job.id)).toMatchObject({ active: true, desired_actor: { kind: 'user', userId: adminId, username: 'operator' } });
    const stopped = await relays.call<Job>('POST', `/${job.id}/stop`);
    expect(stopped.status).toBe(200);
    expect(stopped.body).toMatchObject({ id: job.id, active: false, status: { on: false } });
    expect((await jobRow(job.id)).active).toBe(false);
  });

  it('refuses to start a template (409) and answers 404 for no job', async () => {
    const template = await relays.call<Job>('POST', '/templates', relayBody('A template'));
    const refused = await relays.call<ErrorBody>('POST', `/${template.body.id}/start`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'TEMPLATE', message: 'A template is a template: a template cannot run.' });
    expect((await jobRow(template.body.id)).active).toBe(false);
    const missing = await relays.call<ErrorBody>('POST', '/2147483647/start');
    expect(missing).toMatchObject({ status: 404, body: { code: 'NOT_FOUND', message: 'No relay with id 2147483647' } });
  });
});

describe('POST /api/relays/{id}/restart', () => {
  it('asks the node for a hard, soft or reload restart by bumping restart_seq', async () => {
    const job = await relays.create(relayBody('Restarted'));
    await relays.call('POST', `/${job.id}/start`);
    for (const [mode, seq] of [['hard', 1], ['soft', 2], ['reload', 3]] as const) {
      const { status } = await relays.call('POST', `/${job.id}/restart`, { mode });
      expect(status).toBe(200);
      expect(await jobRow(job.id)).toMatchObject({ restart_seq: seq, restart_mode: mode, active: true });
    }
    await relays.call('POST', `/${job.id}/stop`);
  });

  it('refuses a job that is off (409) and an unknown mode (400)', async () => {
    const job = await relays.create(relayBody('Off'));
    const off = await relays.call<ErrorBody>('POST', `/${job.id}/restart`, { mode: 'hard' });
    expect(off).toMatchObject({ status: 409, body: { code: 'JOB_OFF', message: 'Relay Off is off: switch it on to restart it.' } });
    expect((await jobRow(job.id)).restart_seq).toBe(0);
    const bad = await relays.call<ErrorBody>('POST', `/${job.id}/restart`, { mode: 'gentle' });
    expect(bad.status).toBe(400);
    expect(bad.body.details?.[0].path).toBe('body.mode');
  });
});

describe('POST /api/relays/bulk/{action}', () => {
  it('acts on each selected job alone and answers the outcome per id', async () => {
    const a = await relays.create(relayBody('Bulk A'));
    const b = await relays.create(relayBody('Bulk B'));
    const template = (await relays.call<Job>('POST', '/templates', relayBody('Bulk template'))).body;
    const started = await relays.call<{ results: unknown[] }>('POST', '/bulk/start', { ids: [a.id, 2_000_000, template.id, b.id] });
    expect(started.status).toBe(200);
    expect(started.body.results).toEqual([
      { id: a.id, ok: true },
      { id: 2_000_000, ok: false, code: 'NOT_FOUND', message: 'No relay with id 2000000' },
      { id: template.id, ok: false, code: 'TEMPLATE', message: 'Bulk template is a template: a template cannot run.' },
      { id: b.id, ok: true },
    ]);
    expect([(await jobRow(a.id)).active, (await jobRow(b.id)).active]).toEqual([true, true]);

    await relays.call('POST', `/${b.id}/stop`);
    const restarted = await relays.call<{ results: unknown[] }>('POST', '/bulk/soft-restart', { ids: [a.id, b.id] });
    expect(restarted.body.results).toEqual([
      { id: a.id, ok: true },
      { id: b.id, ok: false, code: 'JOB_OFF', message: 'Relay Bulk B is off: switch it on to restart it.' },
    ]);
    expect(await jobRow(a.id)).toMatchObject({ restart_seq: 1, restart_mode: 'soft' });
    const hard = await relays.call<{ results: unknown[] }>('POST', '/bulk/hard-restart', { ids: [a.id] });
    expect(hard.body.results).toEqual([{ id: a.id, ok: true }]);
    expect(await jobRow(a.id)).toMatchObject({ restart_seq: 2, restart_mode: 'hard' });

    const stopped = await relays.call<{ results: unknown[] }>('POST', '/bulk/stop', { ids: [a.id, b.id] });
    expect(stopped.body.results).toEqual([{ id: a.id, ok: true }, { id: b.id, ok: true }]);
    expect((await jobRow(a.id)).active).toBe(false);

    const deleted = await relays.call<{ results: unknown[] }>('POST', '/bulk/delete', { ids: [a.id, b.id, a.id] });
    expect(deleted.body.results).toEqual([{ id: a.id, ok: true }, { id: b.id, ok: true }]);
    expect((await relays.call('GET', `/${a.id}`)).status).toBe(404);
  });

  it('refuses an empty selection', async () => {
    const { status, body } = await relays.call<ErrorBody>('POST', '/bulk/start', { ids: [] });
    expect(status).toBe(400);
    expect(body.details).toContainEqual(expect.objectContaining({ path: 'body.ids', message: 'Select at least one job' }));
  });
});

describe('with a real node', () => {
  let node: LocalNode;
  let source: string;

  beforeAll(async () => {
    const nodeId = (await app.db.selectFrom('nodes').select('id').where('node_id', '=', 'test-node').executeTakeFirstOrThrow()).id;
    source = await makeTestMedia(path.join(path.dirname(app.services.paths.runDir), 'source.ts'), { seconds: 30, width: 160, height: 90 });
    // The safety-net sweep is far away: only the API's events can wake the reconciler in time.
    node = await startLocalNode({ db: app.db, databaseUrl: app.databaseUrl, bus: app.services.events, nodeId, nodeName: 'local', paths: app.services.paths, sweepIntervalMs: 600_000, log: () => {} });
  }, 120_000);
  afterAll(() => node?.stop());

  it('runs what the API switches on, shows a changed configuration, applies it on "Update & Restart", and stops it', async () => {
    const port = await freePort();
    const job = await relays.create(relayBody('Live relay', { input: { type: 'uri', uri: source }, outputs: [{ type: 'udp', uri: `udp://127.0.0.1:${port}` }] }));
    await relays.call('POST', `/${job.id}/start`);
    const running = await waitFor(async () => {
      const row = (await relays.list(`search=${job.id}`)).items[0];
      return row.status.workStatus === 'Streaming' ? row : undefined;
    }, 'the relay streaming');
    expect(running).toMatchObject({ active: true, changedConfigSinceLastStart: false, status: { on: true, state: 'running', executionNode: 'local' } });
    expect((await relays.list('status=streaming')).items.map((i) => i.id)).toContain(job.id);

    const changed = await relays.call<Job>('PUT', `/${job.id}`, writeOf(await relays.get(job.id), { restartAttempts: 5 }));
    expect(changed.body.changedConfigSinceLastStart).toBe(true);
    await relays.call('PUT', `/${job.id}?restart=true`, writeOf(changed.body));
    await waitFor(async () => (await relays.get(job.id)).changedConfigSinceLastStart === false, 'the configuration applied by the reload');
    const events = await app.db.selectFrom('job_events').select(['type', 'reason', 'actor_name']).where('job_id', '=', job.id).orderBy('id').execute();
    expect(events).toContainEqual({ type: 'RESTART', reason: 'reload', actor_name: 'operator' });

    await relays.call('POST', `/${job.id}/stop`);
    await waitFor(async () => (await relays.get(job.id)).status.state === 'stopped', 'the relay stopped');
    expect((await relays.get(job.id)).status).toMatchObject({ on: false, workStatus: 'Stopped', cpu: 0 });
  });

  it('stops the process of a running job that is deleted', async () => {
    const port = await freePort();
    const job = await relays.create(relayBody('Deleted while live', { input: { type: 'uri', uri: source }, outputs: [{ type: 'udp', uri: `udp://127.0.0.1:${port}` }] }));
    await relays.call('POST', `/${job.id}/start`);
    await waitFor(async () => (await relays.get(job.id)).status.workStatus === 'Streaming', 'the relay streaming');
    expect(processesWithArgument('ffmpeg', source)).toHaveLength(1);
    expect((await relays.call('DELETE', `/${job.id}`)).status).toBe(200);
    await waitFor(async () => processesWithArgument('ffmpeg', source).length === 0, 'its ffmpeg gone');
    expect((await relays.call('GET', `/${job.id}`)).status).toBe(404);
  });
});
