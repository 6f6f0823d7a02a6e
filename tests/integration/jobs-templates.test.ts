import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { client, encodingBody, insertPreset, jobPermission, relayBody, userWith, writeOf, type ErrorBody, type Job, type JobPage } from './jobs-api-support.ts';

/**
 * Templates (jobs that never run, kept apart from the jobs) and the users' limits: a create, and
 * a create from a template, count against relaysLimit / encodingsLimit (0 = no limit).
 */
let app: TestApp;
let relays: ReturnType<typeof client>;
let encodings: ReturnType<typeof client>;
let preset: number;

beforeAll(async () => {
  app = await startTestApp();
  const admin = await userWith(app, 'admin', {}, 'ADMIN');
  relays = client(app, admin.cookie, 'relay');
  encodings = client(app, admin.cookie, 'encoding');
  preset = await insertPreset(app, 'H264 1080p');
});
afterAll(() => app.close());

describe('relay and encoding templates', () => {
  it('are created, listed apart from the jobs, read, updated and deleted', async () => {
    const created = await encodings.call<Job>('POST', '/templates', encodingBody('Sport template', preset));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Sport template', isTemplate: true, templateType: 'CREATE', active: false, preset });
    const id = created.body.id;
    const templates = await encodings.call<JobPage>('GET', '/templates');
    expect(templates.body.items.map((t) => t.name)).toEqual(['Sport template']);
    expect(templates.body.items[0]).toMatchObject({ isTemplate: true, preset: { id: preset, name: 'H264 1080p' } });
    expect(templates.body.counts).toEqual({ total: 1, active: 0, failed: 0, waiting: 0 });
    expect((await encodings.list()).items.map((j) => j.id)).not.toContain(id);

    expect((await encodings.call<Job>('GET', `/templates/${id}`)).body).toEqual(created.body);
    const updated = await encodings.call<Job>('PUT', `/templates/${id}`, writeOf(created.body, { name: 'Sport template v2', keyInt: 50 }));
    expect(updated.body).toMatchObject({ name: 'Sport template v2', keyInt: 50, isTemplate: true });
    const invalid = await encodings.call<ErrorBody>('PUT', `/templates/${id}`, writeOf(created.body, { preset: null }));
    expect(invalid.body.details).toContainEqual(expect.objectContaining({ path: 'body.preset', message: 'Preset is required' }));

    expect((await encodings.call('DELETE', `/templates/${id}`)).body).toEqual({ ok: true });
    expect((await encodings.call<ErrorBody>('GET', `/templates/${id}`)).body).toMatchObject({ code: 'NOT_FOUND', message: `No encoding template with id ${id}` });
  });

  it('never runs: start and restart answer 409', async () => {
    const template = (await relays.call<Job>('POST', '/templates', relayBody('Never runs'))).body;
    expect((await relays.call<ErrorBody>('POST', `/${template.id}/start`)).status).toBe(409);
    expect((await relays.call<ErrorBody>('POST', `/${template.id}/restart`, { mode: 'hard' })).status).toBe(409);
    expect((await app.db.selectFrom('jobs').select('active').where('id', '=', template.id).executeTakeFirstOrThrow()).active).toBe(false);
  });

  it('are not jobs, and jobs are not templates, on their own routes', async () => {
    const job = await relays.create(relayBody('Plain job'));
    expect((await relays.call<ErrorBody>('GET', `/templates/${job.id}`)).status).toBe(404);
    expect((await relays.call<ErrorBody>('DELETE', `/templates/${job.id}`)).status).toBe(404);
    expect((await relays.call<ErrorBody>('PUT', `/templates/${job.id}`, writeOf(job))).status).toBe(404);
  });
});

describe('POST /api/{kind}s/{id}/template (save as template)', () => {
  it('CREATE makes a new template with the job\'s configuration and the given name', async () => {
    const job = await encodings.create(encodingBody('Channel 1', preset, { keyInt: 48, outputs: [{ type: 'hls', uri: 'live/ch1' }, { type: 'udp', uri: 'udp://127.0.0.1:7000' }] }));
    const saved = await encodings.call<Job>('POST', `/${job.id}/template`, { templateType: 'CREATE', name: 'Channel template' });
    expect(saved.status).toBe(201);
    expect(saved.body).toMatchObject({ name: 'Channel template', isTemplate: true, templateType: 'CREATE', keyInt: 48, preset, outputs: job.outputs, active: false });
    expect(saved.body.id).not.toBe(job.id);
    const refused = await encodings.call<ErrorBody>('POST', `/${job.id}/template`, { templateType: 'CREATE' });
    expect(refused.body.details).toContainEqual(expect.objectContaining({ path: 'body.name', message: 'Name is required' }));
  });

  it('UPDATE overwrites the configuration of an existing template, which keeps its name', async () => {
    const template = (await relays.call<Job>('POST', '/templates', relayBody('Base template', { restartAttempts: 1 }))).body;
    const job = await relays.create(relayBody('Source job', { restartAttempts: 7, outputs: [{ type: 'srt', uri: 'srt://10.0.0.5:9000' }] }));
    const saved = await relays.call<Job>('POST', `/${job.id}/template`, { templateType: 'UPDATE', templateId: template.id });
    expect(saved.status).toBe(201);
    expect(saved.body).toMatchObject({ id: template.id, name: 'Base template', templateType: 'UPDATE', restartAttempts: 7, outputs: [{ type: 'srt', uri: 'srt://10.0.0.5:9000' }] });
    const missing = await relays.call<ErrorBody>('POST', `/${job.id}/template`, { templateType: 'UPDATE', templateId: job.id });
    expect(missing).toMatchObject({ status: 404, body: { message: `No relay template with id ${job.id}` } });
    const noId = await relays.call<ErrorBody>('POST', `/${job.id}/template`, { templateType: 'UPDATE' });
    expect(noId.body.details).toContainEqual(expect.objectContaining({ path: 'body.templateId', message: 'Template is required' }));
  });
});

describe('POST /api/{kind}s/templates/{id}/jobs (create from template)', () => {
  it('creates a job with the template\'s configuration and the given name', async () => {
    const template = (await encodings.call<Job>('POST', '/templates', encodingBody('Template for jobs', preset, { framerate: 25 }))).body;
    const created = await encodings.call<Job>('POST', `/templates/${template.id}/jobs`, { name: 'From template' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'From template', isTemplate: false, templateType: null, framerate: 25, preset, outputs: template.outputs, active: false });
    expect((await encodings.list()).items.map((j) => j.name)).toContain('From template');
    const missing = await encodings.call<ErrorBody>('POST', `/templates/${created.body.id}/jobs`, { name: 'x' });
    expect(missing.status).toBe(404);
  });
});

describe('per-user limits', () => {
  it('refuses a create past the user\'s relays limit (409 naming it), counting only its own jobs', async () => {
    const limited = await userWith(app, 'limited', jobPermission('relay', 'EDIT'));
    await app.db.updateTable('users').set({ relays_limit: 2 }).where('id', '=', limited.id).execute();
    const mine = client(app, limited.cookie, 'relay');
    await relays.create(relayBody('Not counted: the admin\'s'));
    await mine.create(relayBody('Mine 1'));
    // Templates do not count.
    const template = (await mine.call<Job>('POST', '/templates', relayBody('My template'))).body;
    await mine.create(relayBody('Mine 2'));
    const refused = await mine.call<ErrorBody>('POST', '', relayBody('Mine 3'));
    expect(refused).toMatchObject({ status: 409, body: { code: 'LIMIT_REACHED', message: 'relaysLimit: you have reached your limit of 2 relays.' } });
    const fromTemplate = await mine.call<ErrorBody>('POST', `/templates/${template.id}/jobs`, { name: 'Mine 3' });
    expect(fromTemplate).toMatchObject({ status: 409, body: { code: 'LIMIT_REACHED' } });
    expect((await mine.list('search=Mine')).total).toBe(2);
  });

  it('counts encodings apart, 0 meaning no limit', async () => {
    const user = await userWith(app, 'encoder', jobPermission('encoding', 'EDIT'));
    await app.db.updateTable('users').set({ encodings_limit: 1, relays_limit: 0 }).where('id', '=', user.id).execute();
    const mine = client(app, user.cookie, 'encoding');
    await mine.create(encodingBody('Enc 1', preset));
    const refused = await mine.call<ErrorBody>('POST', '', encodingBody('Enc 2', preset));
    expect(refused.body.message).toBe('encodingsLimit: you have reached your limit of 1 encodings.');
    await app.db.updateTable('users').set({ encodings_limit: 0 }).where('id', '=', user.id).execute();
    await mine.create(encodingBody('Enc 2', preset));
  });

  it('lets no two concurrent creates pass the limit together', async () => {
    const user = await userWith(app, 'racer', jobPermission('relay', 'EDIT'));
    await app.db.updateTable('users').set({ relays_limit: 3 }).where('id', '=', user.id).execute();
    const mine = client(app, user.cookie, 'relay');
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => mine.call('POST', '', relayBody(`Race ${i}`))));
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    expect(results.filter((r) => r.status === 409)).toHaveLength(5);
  });
});
