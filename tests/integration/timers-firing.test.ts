import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/app.ts';
import { dataPaths } from '../../api/config.ts';
import { createDb, type Db } from '../../api/db/database.ts';
import { freePort } from '../../api/db/embedded.ts';
import { EventBus } from '../../api/events/event-bus.ts';
import { startLocalNode, type LocalNode } from '../../api/node/index.ts';
import { TimersRepository } from '../../api/repositories/timers.repository.ts';
import { createServices } from '../../api/services/index.ts';
import { nextDue } from '../../api/services/timer-schedule.ts';
import { TimerScheduler, type Firing } from '../../api/services/timer-scheduler.ts';
import type { Schemas } from '../../openapi/client/index.ts';
import { makeTestMedia } from '../fixtures/media/lavfi.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { insertJob, waitFor } from '../support/jobs.ts';

/**
 * Timers fire with nobody signed in, exactly once per due moment, with TWO API processes on one
 * database: each process has its own pool, event bus and scheduler, all on a shared test clock
 * (so no test waits for a wall-clock minute). A real relay (ffmpeg) is stopped, started and
 * restarted by its node as the timers change its desired state.
 */

interface ApiProcess {
  url: string;
  db: Db;
  bus: EventBus;
  scheduler: TimerScheduler;
  request(path: string, cookie: string): Promise<Response>;
  close(): Promise<void>;
}

let app: TestApp;
let second: { server: Server; db: Db; bus: EventBus; dir: string; url: string };
let processes: ApiProcess[];
let node: LocalNode;
let admin: string;
let relayId: number;
/** The test clock every scheduler reads. */
let now = 0;
const clock = { now: () => now };

/** A scheduler on a process's own pool and bus; it ticks only when the test says (tickMs of an hour). */
function schedulerOn(db: Db, bus: EventBus, name: string): TimerScheduler {
  return new TimerScheduler(new TimersRepository(db), bus, { clock, firedBy: name, tickMs: 3_600_000 });
}

/** The second API process: the same code as the first, on its own connections to the same database. */
async function startSecondApi(databaseUrl: string) {
  const db = createDb(databaseUrl, 5);
  const bus = new EventBus(databaseUrl, db);
  await bus.start();
  const dir = mkdtempSync(path.join(tmpdir(), 'mediaplane-api-b-'));
  const services = createServices(db, bus, { devMode: false, paths: dataPaths(dir), auth: { sessionIdleMinutes: 60, sessionMaxHours: 12 } });
  const server: Server = await new Promise((resolve) => {
    const s = createApp(services, { log: () => {} }).listen(0, '127.0.0.1', () => resolve(s));
  });
  const address = server.address();
  return { server, db, bus, dir, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
}

const statusOf = (id: number) => app.db.selectFrom('job_status').selectAll().where('job_id', '=', id).executeTakeFirst();
const runningPid = (id: number, not?: number) =>
  waitFor(async () => {
    const status = await statusOf(id);
    return status?.state === 'running' && status.pid && status.pid !== not ? status.pid : undefined;
  }, 'the relay running');
const eventsBy = (id: number, timerId: number) =>
  app.db.selectFrom('job_events').selectAll().where('job_id', '=', id).where('actor_kind', '=', 'timer').where('actor_id', '=', timerId).orderBy('id').execute();
const firingsOf = (timerId: number) => app.db.selectFrom('timer_firings').selectAll().where('timer_id', '=', timerId).execute();

/** Both processes look at the clock at the same moment; returns the firings each carried out. */
const tickBoth = () => Promise.all(processes.map((p) => p.scheduler.tick()));

async function createTimer(body: Record<string, unknown>): Promise<Schemas['Timer']> {
  const response = await app.request('/api/timers', { method: 'POST', cookie: admin, json: { taskType: 'relay', type: 'HOURLY', jobs: [relayId], ...body } });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as Schemas['Timer'];
}

/** The moment a timer is next due after `after`, in its own zone (as the schedulers compute it). */
function dueOf(timer: Schemas['Timer'], after: number): number {
  const minute = Number(timer.time.split(':').at(-1));
  return nextDue({ type: 'HOURLY', hour: null, minute, daysOfWeek: [], date: null, timeZone: timer.timeZone }, after) as number;
}

beforeAll(async () => {
  app = await startTestApp();
  const user = await app.createUser({ username: 'admin', role: 'ADMIN' });
  admin = await app.signIn(user.username, user.password);
  second = await startSecondApi(app.databaseUrl);
  // Both processes' schedulers start at the same (test) time: moments after it are theirs to fire.
  now = Date.parse('2026-11-25T10:00:10Z');
  const first = schedulerOn(app.db, app.services.events, 'api-a');
  const other = schedulerOn(second.db, second.bus, 'api-b');
  first.start();
  other.start();
  processes = [
    { url: app.url, db: app.db, bus: app.services.events, scheduler: first, request: (p, cookie) => app.request(p, { cookie }), close: async () => first.stop() },
    {
      url: second.url,
      db: second.db,
      bus: second.bus,
      scheduler: other,
      request: (p, cookie) => fetch(`${second.url}${p}`, { headers: { cookie } }),
      close: async () => other.stop(),
    },
  ];

  // A relay of a 60 s source to a UDP port, running on this machine's node.
  const nodeId = (await app.services.nodes.list())[0].id;
  const dir = path.dirname(app.services.paths.logsDir);
  const source = await makeTestMedia(path.join(dir, 'timer-source.ts'), { seconds: 60, width: 160, height: 90 });
  const port = await freePort();
  const relay = await insertJob(app.db, 'relay', { name: 'Timed relay', input: { type: 'uri', uri: source }, outputs: [{ type: 'udp', uri: `udp://127.0.0.1:${port}` }] } as never, { active: true, nodeId });
  relayId = relay.id;
  node = await startLocalNode({ db: app.db, databaseUrl: app.databaseUrl, bus: app.services.events, nodeId, nodeName: 'local', paths: app.services.paths, sweepIntervalMs: 1000, log: () => {} });
}, 120_000);

afterAll(async () => {
  for (const p of processes ?? []) await p.close();
  await node?.stop();
  if (second) {
    await new Promise<void>((resolve) => {
      second.server.close(() => resolve());
      second.server.closeAllConnections();
    });
    await second.bus.stop();
    await second.db.destroy();
    rmSync(second.dir, { recursive: true, force: true });
  }
  await app?.close();
});

describe('timers firing with two API processes', () => {
  it('stops a running relay at its minute, once, and starts it at the next timer\'s minute, once', async () => {
    const firstPid = await runningPid(relayId);
    const stop = await createTimer({ name: 'Stop the relay', action: 'STOP', time: '05' });
    const start = await createTimer({ name: 'Start the relay', action: 'START', time: '07' });
    const stopAt = dueOf(stop, now);
    const startAt = dueOf(start, stopAt);
    expect(startAt - stopAt).toBe(2 * 60_000);

    // A second before the minute: nothing is due.
    now = stopAt - 1000;
    expect((await tickBoth()).flat()).toEqual([]);
    expect((await statusOf(relayId))?.state).toBe('running');

    // The minute comes: both processes look at once, one of them carries it out.
    now = stopAt + 200;
    const fired = (await tickBoth()).flat();
    expect(fired).toEqual([{ timerId: stop.id, dueAt: stopAt, jobs: [relayId] } satisfies Firing]);
    await waitFor(async () => (await statusOf(relayId))?.state === 'stopped', 'the relay stopped by the timer');
    // Later ticks in the same minute, from either process, do not fire it again.
    now = stopAt + 30_000;
    expect((await tickBoth()).flat()).toEqual([]);
    const stopFirings = await firingsOf(stop.id);
    expect(stopFirings).toHaveLength(1);
    expect(stopFirings[0]).toMatchObject({ action: 'STOP', job_ids: [relayId] });
    expect(['api-a', 'api-b']).toContain(stopFirings[0].fired_by);
    const stopEvents = await eventsBy(relayId, stop.id);
    expect(stopEvents.map((e) => [e.type, e.actor_name])).toEqual([['STOP', 'Stop the relay']]);
    const job = await app.db.selectFrom('jobs').select(['active', 'desired_actor']).where('id', '=', relayId).executeTakeFirstOrThrow();
    expect(job).toEqual({ active: false, desired_actor: { kind: 'timer', timerId: stop.id, name: 'Stop the relay' } });

    // Two minutes later the other timer starts it again, once.
    now = startAt + 500;
    expect((await tickBoth()).flat()).toEqual([{ timerId: start.id, dueAt: startAt, jobs: [relayId] }]);
    const secondPid = await runningPid(relayId, firstPid);
    expect(secondPid).not.toBe(firstPid);
    now = startAt + 59_000;
    expect((await tickBoth()).flat()).toEqual([]);
    expect(await firingsOf(start.id)).toHaveLength(1);
    expect((await eventsBy(relayId, start.id)).map((e) => [e.type, e.actor_name])).toEqual([['START', 'Start the relay']]);
    expect((await eventsBy(relayId, stop.id)).map((e) => e.type)).toEqual(['STOP']);

    // Either process shows when each fired and by whom.
    for (const p of processes) {
      const list = (await (await p.request('/api/timers', admin)).json()) as Schemas['TimerList'];
      expect(list.items.find((t) => t.id === stop.id)?.lastFiredAt).toBe(new Date(stopAt).toISOString());
      expect(list.items.find((t) => t.id === start.id)?.lastFiredAt).toBe(new Date(startAt).toISOString());
    }
    const firings = (await (await processes[1].request(`/api/timers/${stop.id}/firings`, admin)).json()) as Schemas['TimerFiringList'];
    expect(firings.items).toEqual([expect.objectContaining({ dueAt: new Date(stopAt).toISOString(), action: 'STOP', jobs: [relayId] })]);

    // Leave the rest of the file a quiet relay: these two are done.
    for (const id of [stop.id, start.id]) await app.request(`/api/timers/${id}/actived`, { method: 'PUT', cookie: admin, json: { actived: false } });
  });

  it('restarts a running relay with a new process, the timer named on its RESTART event', async () => {
    const before = await runningPid(relayId);
    const restart = await createTimer({ name: 'Restart the relay', action: 'RESTART', time: '20' });
    const at = dueOf(restart, now);
    now = at + 100;
    const fired = (await tickBoth()).flat();
    expect(fired).toHaveLength(1);
    await runningPid(relayId, before);
    expect((await eventsBy(relayId, restart.id)).map((e) => [e.type, e.reason])).toEqual([['RESTART', 'hard']]);
    expect(await firingsOf(restart.id)).toHaveLength(1);
    await app.request(`/api/timers/${restart.id}/actived`, { method: 'PUT', cookie: admin, json: { actived: false } });
  });

  it('fires nothing for a disabled timer, and does not replay a moment missed while no process ran', async () => {
    const stop = await createTimer({ name: 'Missed stop', action: 'STOP', time: '40' });
    const due = dueOf(stop, now);
    // Every scheduler was "down" over that moment: one started after it finds nothing to do.
    const late = schedulerOn(app.db, app.services.events, 'api-late');
    now = due + 60_000;
    late.start();
    now = due + 61_000;
    expect(await late.tick()).toEqual([]);
    late.stop();
    expect(await firingsOf(stop.id)).toEqual([]);
    expect((await statusOf(relayId))?.state).toBe('running');

    // A disabled timer's moment passes without a firing.
    await app.request(`/api/timers/${stop.id}/actived`, { method: 'PUT', cookie: admin, json: { actived: false } });
    for (const p of processes) p.scheduler.invalidate();
    now = dueOf(stop, now) + 500;
    expect((await tickBoth()).flat()).toEqual([]);
    expect(await firingsOf(stop.id)).toEqual([]);
  });
});
