import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobResolveError, resolveJobSpec } from '../../api/node/job-resolver.ts';
import { configOf } from '../../api/services/job-dto.ts';
import { storagePathRule } from '../../openapi/schemas/storage-paths.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { client, encodingBody, insertPreset, relayBody, userWith, writeOf, type ErrorBody, type Job } from './jobs-api-support.ts';

/**
 * ARCHITECTURE, Security: "File paths from users are resolved inside their storage root and refused
 * outside it". The files a relay, an encoding or a template names (a storage input's path, subtitle
 * files, replacement video and audio) are paths inside the storage root: refused on every write
 * when absolute or climbing out with "..", and resolved under the node's root when it runs them.
 */
let app: TestApp;
let relays: ReturnType<typeof client>;
let encodings: ReturnType<typeof client>;
let preset: number;

beforeAll(async () => {
  app = await startTestApp();
  const { cookie } = await userWith(app, 'admin', {}, 'ADMIN');
  relays = client(app, cookie, 'relay');
  encodings = client(app, cookie, 'encoding');
  preset = await insertPreset(app, 'storage paths preset');
});
afterAll(() => app.close());

const vod = (extra: Record<string, unknown>) => encodingBody('files', preset, { videoType: 'VOD', ...extra });
const subtitle = (fileName: string) => ({ subtitles: [{ type: 'FILE', fileName, language: 'eng' }] });

const outside: Array<{ what: string; kind: 'relay' | 'encoding'; body: () => Record<string, unknown>; path: string; label: string }> = [
  { what: 'an absolute subtitle file', kind: 'encoding', body: () => vod(subtitle('/etc/passwd.srt')), path: 'body.subtitles.0.fileName', label: 'Subtitle file' },
  { what: 'a subtitle file above the root', kind: 'encoding', body: () => vod(subtitle('../secrets/en.srt')), path: 'body.subtitles.0.fileName', label: 'Subtitle file' },
  { what: 'a subtitle file that climbs out midway', kind: 'encoding', body: () => vod(subtitle('subs/../../../en.srt')), path: 'body.subtitles.0.fileName', label: 'Subtitle file' },
  { what: 'a relay\'s subtitle file', kind: 'relay', body: () => relayBody('files', { videoType: 'VOD', ...subtitle('/tmp/en.vtt') }), path: 'body.subtitles.0.fileName', label: 'Subtitle file' },
  { what: 'an absolute replacement video', kind: 'encoding', body: () => vod({ replaceVideo: true, replaceVideoFile: '/var/media/slate.mp4' }), path: 'body.replaceVideoFile', label: 'Replacement video file' },
  { what: 'a replacement audio above the root', kind: 'encoding', body: () => vod({ replaceAudio: true, replaceAudioFile: '../silence.aac' }), path: 'body.replaceAudioFile', label: 'Replacement audio file' },
  { what: 'a storage input\'s path', kind: 'relay', body: () => relayBody('files', { input: { type: 'storage', storageConfig: 1, path: '../../etc/shadow' } }), path: 'body.input.path', label: 'Path' },
  {
    what: 'a storage failover input\'s path',
    kind: 'relay',
    body: () => relayBody('files', { failover: { input: { type: 'storage', storageConfig: 1, path: '/srv/other.ts' } } }),
    path: 'body.failover.input.path',
    label: 'Path',
  },
];

describe('POST /api/relays and /api/encodings', () => {
  it.each(outside)('refuses $what with a 400 naming $path', async ({ kind, body, path: field, label }) => {
    const api = kind === 'relay' ? relays : encodings;
    const { status, body: error } = await api.call<ErrorBody>('POST', '', body());
    expect(status, JSON.stringify(error)).toBe(400);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details).toContainEqual(expect.objectContaining({ path: field, message: storagePathRule(label) }));
    expect(error.message).toContain(`${field}: ${label} must be a path inside the storage root: relative (no leading "/") and without ".."`);
  });

  it('refuses the same on update and on templates, created or updated', async () => {
    const job = await encodings.create(vod({ name: 'inside' }));
    const update = await encodings.call<ErrorBody>('PUT', `/${job.id}`, writeOf(job, subtitle('/etc/passwd.srt')));
    expect(update.status).toBe(400);
    expect(update.body.details).toContainEqual(expect.objectContaining({ path: 'body.subtitles.0.fileName' }));

    const template = await encodings.call<ErrorBody>('POST', '/templates', vod({ name: 'tpl', replaceVideo: true, replaceVideoFile: '../../slate.mp4' }));
    expect(template.status).toBe(400);
    expect(template.body.details).toContainEqual(expect.objectContaining({ path: 'body.replaceVideoFile' }));

    const stored = await encodings.call<Job>('POST', '/templates', vod({ name: 'tpl' }));
    expect(stored.status).toBe(201);
    const templateUpdate = await encodings.call<ErrorBody>('PUT', `/templates/${stored.body.id}`, writeOf(stored.body, { replaceAudio: true, replaceAudioFile: '/dev/zero' }));
    expect(templateUpdate.status).toBe(400);
    expect(templateUpdate.body.details).toContainEqual(expect.objectContaining({ path: 'body.replaceAudioFile' }));
    expect((await encodings.get(job.id)).subtitles).toEqual([]);
  });
});

describe('the node', () => {
  const paths = () => app.services.paths;
  const row = (id: number) => app.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('reads a path inside the storage root from under its root', async () => {
    const job = await encodings.create(
      vod({ name: 'resolved', relayVideo: true, preset: null, ...subtitle('subs/en.srt'), replaceAudio: true, replaceAudioFile: './slates/silence.aac' }),
    );
    const stored = await row(job.id);
    const spec = resolveJobSpec(stored, configOf(stored), { audioPresets: new Map() }, paths());
    expect(spec.encoding?.subtitles?.[0].source).toBe(path.join(paths().mediaDir, 'subs', 'en.srt'));
    expect(spec.encoding?.replaceAudioFile).toBe(path.join(paths().mediaDir, 'slates', 'silence.aac'));
  });

  it('refuses to run a job stored with a path outside the root before the rule', async () => {
    const job = await encodings.create(vod({ name: 'stored before', relayVideo: true, preset: null }));
    const config = { ...configOf(await row(job.id)), subtitles: [{ type: 'FILE', fileName: '/etc/passwd.srt', default: false }] };
    await app.db.updateTable('jobs').set({ config: JSON.stringify(config) }).where('id', '=', job.id).execute();
    const stored = await row(job.id);
    expect(() => resolveJobSpec(stored, configOf(stored), { audioPresets: new Map() }, paths())).toThrow(JobResolveError);
    expect(() => resolveJobSpec(stored, configOf(stored), { audioPresets: new Map() }, paths())).toThrow('subtitles.0.fileName: /etc/passwd.srt is outside the storage root');
  });
});
