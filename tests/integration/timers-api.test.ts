import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Schemas } from '../../openapi/client/index.ts';
import type { UserPermissionMap } from '../../openapi/permissions.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { insertJob } from '../support/jobs.ts';

type Timer = Schemas['Timer'];
type ErrorBody = Schemas['Error'];

let app: TestApp;
let admin: string;

const call = async <T>(method: string, path: string, json?: unknown, cookie = admin): Promise<{ status: number; body: T }> => {
  const response = await app.request(`/api/timers${path}`, { method, cookie, ...(json !== undefined ? { json } : {}) });
  return { status: response.status, body: (await response.json()) as T };
};

const timer = (extra: Record<string, unknown> = {}) => ({ name: 'Night stop', action: 'STOP', type: 'DAILY', time: '23:30', taskType: 'relay', ...extra });
const relay = (name: string) => insertJob(app.db, 'relay', { name, input: { type: 'uri', uri: 'udp://239.0.0.1:1234' }, outputs: [{ type: 'udp', uri: 'udp://127.0.0.1:5000' }] } as never);
const userWith = async (username: string, permissions: UserPermissionMap) => {
  const user = await app.createUser({ username, permissions });
  return app.signIn(user.username, user.password);
};

beforeAll(async () => {
  app = await startTestApp();
  const user = await app.createUser({ username: 'admin', role: 'ADMIN' });
  admin = await app.signIn(user.username, user.password);
});
afterAll(() => app?.close());

describe('/api/timers', () => {
  it('creates a timer in the server\'s time zone, acting on ALL tasks when none is listed', async () => {
    const { status, body } = await call<Timer>('POST', '', timer());
    expect(status).toBe(201);
    expect(body).toMatchObject({
      name: 'Night stop',
      action: { value: 'STOP', name: 'Stop' },
      type: { value: 'DAILY', name: 'Daily' },
      time: '23:30',
      taskType: { value: 'relay', name: 'Relay' },
      jobs: [],
      allJobs: true,
      actived: true,
      lastFiredAt: null,
    });
    expect(body.timeZone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(body.utcOffset).toMatch(/^GMT[+-]\d{2}:\d{2}$/);
    expect(Date.parse(body.nextRunAt as string)).toBeGreaterThan(Date.now());
  });

  it('lists every timer sorted by id, with the server\'s zone and offset', async () => {
    const second = await call<Timer>('POST', '', timer({ name: 'Hourly restart', action: 'RESTART', type: 'HOURLY', time: '05' }));
    expect(second.body).toMatchObject({ time: '05', type: { value: 'HOURLY' } });
    const { body } = await call<Schemas['TimerList']>('GET', '');
    expect(body.items.map((t) => t.name)).toEqual(['Night stop', 'Hourly restart']);
    expect(body.items.map((t) => t.id)).toEqual([...body.items.map((t) => t.id)].sort((a, b) => a - b));
    expect(body.total).toBe(2);
    expect(body.utcOffset).toMatch(/^GMT[+-]\d{2}:\d{2}$/);
    // HOURLY keeps only the minute, whatever hours the form sent.
    const hourly = await call<Timer>('PUT', `/${second.body.id}`, timer({ name: 'Hourly restart', action: 'RESTART', type: 'HOURLY', time: '17:45' }));
    expect(hourly.body.time).toBe('45');
  });

  it('names the tasks it acts on, and leaves out the ones deleted since', async () => {
    const a = await relay('Relay A');
    const b = await relay('Relay B');
    const { status, body } = await call<Timer>('POST', '', timer({ name: 'Two relays', type: 'WEEKLY', daysOfWeek: ['MON', 'FRI'], time: '06:00', jobs: [b.id, a.id], action: 'START' }));
    expect(status).toBe(201);
    expect(body.jobs).toEqual([
      { id: b.id, name: 'Relay B' },
      { id: a.id, name: 'Relay A' },
    ]);
    expect(body.daysOfWeek).toEqual(['MON', 'FRI']);
    await app.db.deleteFrom('jobs').where('id', 'in', [a.id, b.id]).execute();
    const after = await call<Timer>('GET', `/${body.id}`);
    // Its tasks are gone, but it does not turn into "ALL".
    expect(after.body).toMatchObject({ jobs: [], allJobs: false });
  });

  it('refuses a task that is not a relay of that id, or a template, naming body.jobs.N', async () => {
    const template = await app.db
      .insertInto('jobs')
      .values({ kind: 'relay', name: 'A template', video_type: 'LIVE', is_template: true, input_type: 'uri', output_types: [], config: '{}' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const real = await relay('Real');
    const { status, body } = await call<ErrorBody>('POST', '', timer({ jobs: [real.id, 999_999, template.id] }));
    expect(status).toBe(400);
    expect(body.details).toEqual([
      { path: 'body.jobs.1', message: 'No relay with id 999999' },
      { path: 'body.jobs.2', message: `No relay with id ${template.id}` },
    ]);
    const wrongKind = await call<ErrorBody>('POST', '', timer({ taskType: 'encoding', jobs: [real.id] }));
    expect(wrongKind.body.details?.[0]).toEqual({ path: 'body.jobs.0', message: `No encoding with id ${real.id}` });
  });

  it('names the field and the rule of each invalid value', async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ name: '' }, 'body.name', 'Name is required'],
      [{ name: 'n'.repeat(101) }, 'body.name', 'Name must be at most 100 characters'],
      [{ time: '7:5' }, 'body.time', 'Time must be HH:mm, 00:00 to 23:59'],
      [{ type: 'HOURLY', time: '60' }, 'body.time', 'Time must be the minute, 00 to 59'],
      [{ type: 'WEEKLY' }, 'body.daysOfWeek', 'Choose at least one day of the week'],
      [{ type: 'ONCE' }, 'body.date', 'Date is required'],
      [{ type: 'ONCE', date: '2020-01-01' }, 'body.date', 'The date and time of a ONCE timer must be in the future'],
    ];
    for (const [change, path, message] of cases) {
      const { status, body } = await call<ErrorBody>('POST', '', timer(change));
      expect(status, JSON.stringify(change)).toBe(400);
      expect(body.details).toEqual([expect.objectContaining({ path, message })]);
    }
    const bad = await call<ErrorBody>('POST', '', timer({ action: 'EXPLODE', taskType: 'playlist' }));
    expect(bad.body.details?.map((d) => d.path)).toEqual(['body.action', 'body.taskType']);
  });

  it('enables, disables and deletes a timer; a missing one is a 404', async () => {
    const { body: created } = await call<Timer>('POST', '', timer({ name: 'Switch me' }));
    const off = await call<Timer>('PUT', `/${created.id}/actived`, { actived: false });
    expect(off.body).toMatchObject({ actived: false, nextRunAt: null });
    const on = await call<Timer>('PUT', `/${created.id}/actived`, { actived: true });
    expect(on.body.actived).toBe(true);
    expect(on.body.nextRunAt).not.toBeNull();
    expect((await call('DELETE', `/${created.id}`)).status).toBe(200);
    expect((await call<ErrorBody>('GET', `/${created.id}`)).body).toMatchObject({ code: 'NOT_FOUND', message: `Timer ${created.id} not found.` });
    expect((await call('DELETE', `/${created.id}`)).status).toBe(404);
    expect((await call('PUT', `/${created.id}`, timer())).status).toBe(404);
    expect((await call('GET', `/${created.id}/firings`)).status).toBe(404);
  });

  it('tells every console about a change on the timers topic', async () => {
    const seen: Array<{ type: string; id?: number | string }> = [];
    const unsubscribe = app.services.events.subscribe((event) => event.topic === 'timers' && seen.push(event));
    const { body } = await call<Timer>('POST', '', timer({ name: 'Live' }));
    await expect.poll(() => seen).toContainEqual(expect.objectContaining({ type: 'created', id: body.id }));
    unsubscribe();
  });
});

describe('who may do what with timers', () => {
  it('TOOLS_VIEW lists and reads; creating, changing and deleting need TOOLS_EDIT', async () => {
    const viewer = await userWith('timer-viewer', { tools: { level: 'TOOLS_VIEW', hide: false }, relay: { level: 'RELAY_EDIT', hide: false } });
    expect((await call('GET', '', undefined, viewer)).status).toBe(200);
    const { body: one } = await call<Timer>('POST', '', timer({ name: 'Admin made' }));
    expect((await call('GET', `/${one.id}`, undefined, viewer)).status).toBe(200);
    const denied = await call<ErrorBody>('POST', '', timer(), viewer);
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe('You need TOOLS_EDIT to do this.');
    expect((await call('PUT', `/${one.id}/actived`, { actived: false }, viewer)).status).toBe(403);
    expect((await call('DELETE', `/${one.id}`, undefined, viewer)).status).toBe(403);
    const nobody = await userWith('no-tools', { relay: { level: 'RELAY_EDIT', hide: false } });
    expect((await call('GET', '', undefined, nobody)).status).toBe(403);
  });

  it('a timer acts for its author: saving one needs the permission its action needs on its tasks', async () => {
    const onOff = await userWith('timer-onoff', { tools: { level: 'TOOLS_EDIT', hide: false }, relay: { level: 'RELAY_VIEW', hide: false, viewOnOff: true } });
    expect((await call('POST', '', timer({ action: 'START' }), onOff)).status).toBe(201);
    const restart = await call<ErrorBody>('POST', '', timer({ action: 'RESTART' }), onOff);
    expect(restart.status).toBe(403);
    expect(restart.body.message).toBe('A timer that does Restart on relays needs RELAY_EDIT or RELAY_VIEW_RESTART.');
    const encodings = await call<ErrorBody>('POST', '', timer({ action: 'STOP', taskType: 'encoding' }), onOff);
    expect(encodings.body.message).toBe('A timer that does Stop on encodings needs ENCODING_EDIT or ENCODING_VIEW_EDIT or ENCODING_VIEW_ON_OFF.');
  });
});
