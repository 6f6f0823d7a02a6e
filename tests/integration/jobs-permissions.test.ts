import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENAPI_JSON_PATH } from '../../openapi/build.ts';
import type { UserPermissionMap } from '../../openapi/permissions.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { client, encodingBody, insertPreset, jobPermission, relayBody, userWith, writeOf, type ErrorBody, type Job } from './jobs-api-support.ts';

/**
 * Spec 01 §6 on the jobs API: what EDIT, VIEW_EDIT, VIEW_ON_OFF, VIEW_RESTART, VIEW_DELETE and VIEW
 * alone let a user do to relays and their templates; ADMIN-only features; the alarm switch; new
 * outputs needing the full EDIT; "Update & Restart" needing the restart permission.
 */
let app: TestApp;
let admin: ReturnType<typeof client>;

beforeAll(async () => {
  app = await startTestApp();
  admin = client(app, (await userWith(app, 'admin', {}, 'ADMIN')).cookie, 'relay');
});
afterAll(() => app.close());

type Action = { name: string; run: (user: ReturnType<typeof client>) => Promise<{ status: number; body: unknown }> };

/** Each action on objects made for it by the admin, so one user's delete does not take another's job. */
const actions: Action[] = [
  { name: 'list', run: (u) => u.call('GET', '') },
  { name: 'get', run: async (u) => u.call('GET', `/${(await admin.create(relayBody('get'))).id}`) },
  { name: 'listTemplates', run: (u) => u.call('GET', '/templates') },
  { name: 'getTemplate', run: async (u) => u.call('GET', `/templates/${(await template()).id}`) },
  { name: 'create', run: (u) => u.call('POST', '', relayBody('created', { outputs: [] })) },
  {
    name: 'update',
    run: async (u) => {
      const job = await admin.create(relayBody('update'));
      return u.call('PUT', `/${job.id}`, writeOf(job, { name: 'updated' }));
    },
  },
  { name: 'start', run: async (u) => u.call('POST', `/${(await admin.create(relayBody('start'))).id}/start`) },
  { name: 'stop', run: async (u) => u.call('POST', `/${(await running()).id}/stop`) },
  { name: 'restart', run: async (u) => u.call('POST', `/${(await running()).id}/restart`, { mode: 'hard' }) },
  { name: 'delete', run: async (u) => u.call('DELETE', `/${(await admin.create(relayBody('delete'))).id}`) },
  { name: 'addComment', run: async (u) => u.call('POST', `/${(await admin.create(relayBody('comment'))).id}/comments`, { type: 'NOTICE', comment: 'hello' }) },
  {
    name: 'deleteComment',
    run: async (u) => {
      const job = await admin.create(relayBody('uncomment'));
      const comment = await admin.call<{ id: number }>('POST', `/${job.id}/comments`, { type: 'NOTICE', comment: 'bye' });
      return u.call('DELETE', `/${job.id}/comments/${comment.body.id}`);
    },
  },
  { name: 'createTemplate', run: (u) => u.call('POST', '/templates', relayBody('template')) },
  {
    name: 'updateTemplate',
    run: async (u) => {
      const job = await template();
      return u.call('PUT', `/templates/${job.id}`, writeOf(job, { name: 'renamed' }));
    },
  },
  { name: 'deleteTemplate', run: async (u) => u.call('DELETE', `/templates/${(await template()).id}`) },
  { name: 'saveAsTemplate', run: async (u) => u.call('POST', `/${(await admin.create(relayBody('save'))).id}/template`, { templateType: 'CREATE', name: 'saved' }) },
  { name: 'saveOverTemplate', run: async (u) => u.call('POST', `/${(await admin.create(relayBody('save over'))).id}/template`, { templateType: 'UPDATE', templateId: (await template()).id }) },
  { name: 'createFromTemplate', run: async (u) => u.call('POST', `/templates/${(await template()).id}/jobs`, { name: 'from template' }) },
  { name: 'bulk start', run: async (u) => u.call('POST', '/bulk/start', { ids: [(await admin.create(relayBody('bulk'))).id] }) },
  { name: 'bulk stop', run: async (u) => u.call('POST', '/bulk/stop', { ids: [(await running()).id] }) },
  { name: 'bulk hard restart', run: async (u) => u.call('POST', '/bulk/hard-restart', { ids: [(await running()).id] }) },
  { name: 'bulk soft restart', run: async (u) => u.call('POST', '/bulk/soft-restart', { ids: [(await running()).id] }) },
  { name: 'bulk delete', run: async (u) => u.call('POST', '/bulk/delete', { ids: [(await admin.create(relayBody('bulk'))).id] }) },
];

async function template(): Promise<Job> {
  return (await admin.call<Job>('POST', '/templates', relayBody('a template'))).body;
}

async function running(): Promise<Job> {
  const job = await admin.create(relayBody('running'));
  return (await admin.call<Job>('POST', `/${job.id}/start`)).body;
}

const ALL = actions.map((a) => a.name);
const VIEW = ['list', 'get', 'listTemplates', 'getTemplate'];

/** Spec 01 §6, the actions each permission allows (the rest answer 403). */
const matrix: Array<{ who: string; permissions: UserPermissionMap; allowed: string[] }> = [
  { who: 'EDIT', permissions: jobPermission('relay', 'EDIT'), allowed: ALL },
  {
    who: 'VIEW_EDIT',
    permissions: jobPermission('relay', 'VIEW', { viewEdit: true }),
    allowed: [...VIEW, 'create', 'update', 'start', 'stop', 'addComment', 'deleteComment', 'updateTemplate', 'saveOverTemplate', 'createFromTemplate', 'bulk start', 'bulk stop'],
  },
  { who: 'VIEW_ON_OFF', permissions: jobPermission('relay', 'VIEW', { viewOnOff: true }), allowed: [...VIEW, 'start', 'stop', 'bulk start', 'bulk stop'] },
  { who: 'VIEW_RESTART', permissions: jobPermission('relay', 'VIEW', { viewRestart: true }), allowed: [...VIEW, 'restart', 'bulk hard restart', 'bulk soft restart'] },
  { who: 'VIEW_DELETE', permissions: jobPermission('relay', 'VIEW', { viewDelete: true }), allowed: [...VIEW, 'delete', 'deleteTemplate', 'bulk delete'] },
  { who: 'VIEW', permissions: jobPermission('relay', 'VIEW'), allowed: VIEW },
  { who: 'VIEW_LOG', permissions: jobPermission('relay', 'VIEW', { viewLog: true }), allowed: VIEW },
  { who: 'ENCODING_EDIT only', permissions: jobPermission('encoding', 'EDIT'), allowed: [] },
];

describe('the permission matrix on /api/relays', () => {
  it.each(matrix)('$who', async ({ who, permissions, allowed }) => {
    const user = client(app, (await userWith(app, `user-${who.replace(/\W+/g, '-').toLowerCase()}`, permissions)).cookie, 'relay');
    const outcome: Record<string, string> = {};
    for (const action of actions) {
      const { status, body } = await action.run(user);
      outcome[action.name] = status === 403 ? `403 ${(body as ErrorBody).code}` : status < 300 ? 'allowed' : `${status} ${JSON.stringify(body)}`;
    }
    expect(outcome).toEqual(Object.fromEntries(actions.map((a) => [a.name, allowed.includes(a.name) ? 'allowed' : '403 FORBIDDEN'])));
  });
});

describe('the bulk operations', () => {
  const document = JSON.parse(readFileSync(OPENAPI_JSON_PATH, 'utf8')) as { paths: Record<string, Record<string, { operationId: string; 'x-permission'?: unknown }>> };
  const declared = new Map(Object.values(document.paths).flatMap((item) => Object.values(item).map((op) => [op.operationId, op['x-permission']] as const)));

  it.each(['Relay', 'Encoding'])('declare for %ss the permission of the same action on one job (spec 01 §6)', (Kind) => {
    const pairs = { start: 'start', stop: 'stop', hardRestart: 'restart', softRestart: 'restart', delete: 'delete' };
    for (const [bulk, single] of Object.entries(pairs)) {
      const bulkId = `bulk${bulk.charAt(0).toUpperCase()}${bulk.slice(1)}${Kind}s`;
      expect(declared.get(bulkId), bulkId).toBeDefined();
      expect(declared.get(bulkId), bulkId).toEqual(declared.get(`${single}${Kind}`));
    }
    expect(declared.get(`bulkDelete${Kind}s`)).toEqual({ anyOf: [`${Kind.toUpperCase()}_EDIT`, `${Kind.toUpperCase()}_VIEW_DELETE`] });
  });
});

describe('403 bodies', () => {
  it('name the permissions an operation needs', async () => {
    const viewer = client(app, (await userWith(app, 'viewer', jobPermission('relay', 'VIEW'))).cookie, 'relay');
    const job = await admin.create(relayBody('guarded'));
    expect((await viewer.call('DELETE', `/${job.id}`)).body).toMatchObject({ code: 'FORBIDDEN', message: 'You need RELAY_EDIT or RELAY_VIEW_DELETE to do this.' });
    expect((await viewer.call('POST', `/${job.id}/start`)).body).toMatchObject({ message: 'You need RELAY_EDIT or RELAY_VIEW_EDIT or RELAY_VIEW_ON_OFF to do this.' });
    // A bulk action is refused by the permission its operation declares, the same as the action on one job.
    expect((await viewer.call('POST', '/bulk/delete', { ids: [job.id] })).body).toMatchObject({ code: 'FORBIDDEN', message: 'You need RELAY_EDIT or RELAY_VIEW_DELETE to do this.' });
    expect((await viewer.call('POST', '/bulk/soft-restart', { ids: [job.id] })).body).toMatchObject({ code: 'FORBIDDEN', message: 'You need RELAY_EDIT or RELAY_VIEW_RESTART to do this.' });
    expect((await admin.get(job.id)).id).toBe(job.id);
  });

  it('VIEW_EDIT may add and edit a job but not add outputs', async () => {
    const editor = client(app, (await userWith(app, 'view-editor', jobPermission('relay', 'VIEW', { viewEdit: true }))).cookie, 'relay');
    const withOutputs = await editor.call<ErrorBody>('POST', '', relayBody('With outputs'));
    expect(withOutputs).toMatchObject({ status: 403, body: { code: 'FORBIDDEN', message: 'outputs: adding outputs needs RELAY_EDIT.' } });
    const job = await admin.create(relayBody('Edited by a viewer'));
    const edited = await editor.call<Job>('PUT', `/${job.id}`, writeOf(job, { outputs: [{ type: 'udp', uri: 'udp://127.0.0.1:5999' }] }));
    expect(edited.status).toBe(200);
    const added = await editor.call<ErrorBody>('PUT', `/${job.id}`, writeOf(edited.body, { outputs: [...edited.body.outputs, { type: 'udp', uri: 'udp://127.0.0.1:6001' }] }));
    expect(added).toMatchObject({ status: 403, body: { message: 'outputs: adding outputs needs RELAY_EDIT.' } });
    expect((await admin.get(job.id)).outputs).toHaveLength(1);
  });

  it('"Update & Restart" needs the restart permission too', async () => {
    const editor = client(app, (await userWith(app, 'editor-no-restart', jobPermission('relay', 'VIEW', { viewEdit: true }))).cookie, 'relay');
    const job = await running();
    const refused = await editor.call<ErrorBody>('PUT', `/${job.id}?restart=true`, writeOf(job, { restartAttempts: 2 }));
    expect(refused).toMatchObject({ status: 403, body: { message: 'restart: Update & Restart needs RELAY_EDIT or RELAY_VIEW_RESTART.' } });
    expect((await admin.get(job.id)).restartAttempts).toBe(10);
    const both = client(app, (await userWith(app, 'editor-restart', jobPermission('relay', 'VIEW', { viewEdit: true, viewRestart: true }))).cookie, 'relay');
    expect((await both.call('PUT', `/${job.id}?restart=true`, writeOf(job, { restartAttempts: 2 }))).status).toBe(200);
  });

  it('only an ADMIN may change features', async () => {
    const editor = client(app, (await userWith(app, 'full-editor', jobPermission('relay', 'EDIT'))).cookie, 'relay');
    const features = [{ name: 'staleTimeoutSeconds', value: '30' }];
    const refused = await editor.call<ErrorBody>('POST', '', relayBody('Featured', { features }));
    expect(refused).toMatchObject({ status: 403, body: { code: 'FORBIDDEN', message: 'features: only an ADMIN may change the features of a relay.' } });
    const job = await admin.create(relayBody('Featured by admin', { features }));
    expect(job.features).toEqual([{ name: 'staleTimeoutSeconds', value: '30', status: true, global: false }]);
    // The editor may change other fields and keeps the features as they are ...
    expect((await editor.call('PUT', `/${job.id}`, writeOf(job, { restartAttempts: 3 }))).status).toBe(200);
    // ... but not the features.
    const changed = await editor.call<ErrorBody>('PUT', `/${job.id}`, writeOf(job, { features: [] }));
    expect(changed.status).toBe(403);
    expect((await admin.get(job.id)).features).toHaveLength(1);
    expect((await app.request('/api/job-features', { cookie: (await userWith(app, 'not-admin', jobPermission('relay', 'EDIT'))).cookie })).status).toBe(403);
  });

  describe('the alarm switch (alarmed): ALARMS_VIEW to see it, ALARMS_EDIT to change it', () => {
    const alarmsUser = async (username: string, level?: 'ALARMS_VIEW' | 'ALARMS_EDIT') =>
      client(app, (await userWith(app, username, { ...jobPermission('relay', 'EDIT'), ...(level ? { alarms: { level, hide: false } } : {}) })).cookie, 'relay');
    const storedAlarmed = async (id: number) => (await app.db.selectFrom('jobs').select('config').where('id', '=', id).executeTakeFirstOrThrow()).config as { alarmed: boolean };

    it('leaves it out of the relay, the list row and the template of a user without ALARMS_VIEW, and shows it with ALARMS_VIEW or ALARMS_EDIT', async () => {
      const job = await admin.create(relayBody('Alarm shown', { alarmed: true }));
      const template = await admin.call<Job>('POST', '/templates', relayBody('Alarm shown template', { alarmed: true }));
      expect(template.body.alarmed).toBe(true);
      const blind = await alarmsUser('alarms-blind');
      expect(await blind.get(job.id)).not.toHaveProperty('alarmed');
      expect((await blind.list(`search=${job.id}`)).items[0]).not.toHaveProperty('alarmed');
      expect((await blind.list()).items.every((item) => !('alarmed' in item))).toBe(true);
      const readTemplate = await blind.call<Job>('GET', `/templates/${template.body.id}`);
      expect(readTemplate.status).toBe(200);
      expect(readTemplate.body).not.toHaveProperty('alarmed');
      expect((await blind.call<{ items: Job[] }>('GET', '/templates')).body.items.every((item) => !('alarmed' in item))).toBe(true);
      // What an action answers is the same job, without the switch.
      expect((await blind.call<Job>('POST', `/${job.id}/start`)).body).not.toHaveProperty('alarmed');
      for (const [username, level] of [['alarms-seer', 'ALARMS_VIEW'], ['alarms-changer', 'ALARMS_EDIT']] as const) {
        const user = await alarmsUser(username, level);
        expect((await user.get(job.id)).alarmed).toBe(true);
        expect((await user.list(`search=${job.id}`)).items[0].alarmed).toBe(true);
      }
      // Readers of both kinds in turn are each answered their own way (the list page is shared in memory).
      expect((await blind.list(`search=${job.id}`)).items[0]).not.toHaveProperty('alarmed');
      expect((await admin.list(`search=${job.id}`)).items[0].alarmed).toBe(true);
    });

    it('keeps the stored switch when a user without ALARMS_VIEW saves the relay as read (without it), or sends one', async () => {
      const job = await admin.create(relayBody('Kept alarmed', { alarmed: true }));
      const blind = await alarmsUser('alarms-blind-writer');
      const read = await blind.get(job.id);
      const saved = await blind.call<Job>('PUT', `/${job.id}`, writeOf(read, { restartAttempts: 4 }));
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      expect(saved.body).not.toHaveProperty('alarmed');
      expect(await admin.get(job.id)).toMatchObject({ alarmed: true, restartAttempts: 4 });
      // A body that names the switch (a client filling in the schema's defaults) does not reset it either.
      expect((await blind.call('PUT', `/${job.id}`, writeOf(read, { restartAttempts: 5, alarmed: false }))).status).toBe(200);
      expect(await admin.get(job.id)).toMatchObject({ alarmed: true, restartAttempts: 5 });
      // Nor does it switch on a new job's.
      const created = await blind.call<Job>('POST', '', relayBody('Blind alarmed', { alarmed: true }));
      expect(created.status).toBe(201);
      expect((await storedAlarmed(created.body.id)).alarmed).toBe(false);
    });

    it('keeps the stored switch when a user with ALARMS_VIEW only saves, whatever the body says; ALARMS_EDIT changes it', async () => {
      const viewer = await alarmsUser('alarms-viewer', 'ALARMS_VIEW');
      const editor = await alarmsUser('alarms-editor', 'ALARMS_EDIT');
      const job = await editor.create(relayBody('Alarmed by editor', { alarmed: true }));
      expect(job.alarmed).toBe(true);
      const read = await viewer.get(job.id);
      expect(read.alarmed).toBe(true);
      // The console's disabled switch sends it as read; a changed value is not taken either.
      expect((await viewer.call('PUT', `/${job.id}`, writeOf(read, { name: 'Still alarmed' }))).status).toBe(200);
      const off = await viewer.call<Job>('PUT', `/${job.id}`, writeOf(read, { name: 'Still alarmed', alarmed: false }));
      expect(off.status).toBe(200);
      expect(off.body.alarmed).toBe(true);
      const created = await viewer.call<Job>('POST', '', relayBody('Viewer alarmed', { alarmed: true }));
      expect(created.status).toBe(201);
      expect(created.body.alarmed).toBe(false);
      // ALARMS_EDIT switches it off and on; a save without the field keeps it.
      expect((await editor.call<Job>('PUT', `/${job.id}`, writeOf(read, { alarmed: false }))).body.alarmed).toBe(false);
      expect((await editor.call<Job>('PUT', `/${job.id}`, writeOf(read, { alarmed: true }))).body.alarmed).toBe(true);
      const { alarmed: _alarmed, ...withoutSwitch } = writeOf(read, { restartAttempts: 6 }) as Record<string, unknown>;
      expect((await editor.call<Job>('PUT', `/${job.id}`, withoutSwitch)).body).toMatchObject({ alarmed: true, restartAttempts: 6 });
      expect((await storedAlarmed(job.id)).alarmed).toBe(true);
    });
  });
});

describe('endpoints and encodings', () => {
  it('reads endpoints with ENCODING_VIEW, writes them with ENCODING_EDIT', async () => {
    const viewer = await userWith(app, 'enc-viewer', jobPermission('encoding', 'VIEW'));
    const editor = await userWith(app, 'enc-editor', jobPermission('encoding', 'EDIT'));
    const relayEditor = await userWith(app, 'relay-editor', jobPermission('relay', 'EDIT'));
    const endpoints = { runproxUrl: 'http://runprox.local', astraUrl: 'http://astra.local' };
    expect((await app.request('/api/endpoints', { cookie: viewer.cookie })).status).toBe(200);
    expect((await app.request('/api/endpoints', { method: 'PUT', cookie: viewer.cookie, json: endpoints })).status).toBe(403);
    expect((await app.request('/api/endpoints', { method: 'PUT', cookie: editor.cookie, json: endpoints })).status).toBe(200);
    expect((await app.request('/api/endpoints', { cookie: relayEditor.cookie })).status).toBe(403);
  });

  it('keeps the encoding permissions to encodings', async () => {
    const preset = await insertPreset(app, 'perm preset');
    const encodingEditor = client(app, (await userWith(app, 'only-encodings', jobPermission('encoding', 'VIEW', { viewEdit: true }))).cookie, 'encoding');
    expect((await encodingEditor.call('POST', '', encodingBody('Mine', preset, { outputs: [] }))).status).toBe(201);
    expect((await encodingEditor.call<ErrorBody>('POST', '', encodingBody('Mine too', preset))).body).toMatchObject({ message: 'outputs: adding outputs needs ENCODING_EDIT.' });
  });
});
