import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Schemas } from '../../openapi/client/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { insertJob } from '../support/jobs.ts';

type VideoPreset = Schemas['VideoPreset'];
type AudioPreset = Schemas['AudioPreset'];
type ErrorBody = Schemas['Error'];

let app: TestApp;
let admin: string;

async function call<T>(method: string, path: string, json?: unknown, cookie = admin): Promise<{ status: number; body: T }> {
  const response = await app.request(path, { method, cookie, ...(json !== undefined ? { json } : {}) });
  return { status: response.status, body: (await response.json()) as T };
}

const audioBody = (name: string, extra: Record<string, unknown> = {}) => ({ name, audioCodec: 'aac', audioBitrate: 128, channels: 2, sampleRate: 48000, ...extra });
const videoBody = (name: string, audioPreset: number, extra: Record<string, unknown> = {}) => ({ name, videoCodec: 'libx264', videoBitrate: 3000, audioPreset, ...extra });

async function createAudio(name: string, extra: Record<string, unknown> = {}): Promise<AudioPreset> {
  const { status, body } = await call<AudioPreset>('POST', '/api/presets/audio', audioBody(name, extra));
  expect(status, JSON.stringify(body)).toBe(201);
  return body;
}

async function createVideo(name: string, audioPreset: number, extra: Record<string, unknown> = {}): Promise<VideoPreset> {
  const { status, body } = await call<VideoPreset>('POST', '/api/presets/video', videoBody(name, audioPreset, extra));
  expect(status, JSON.stringify(body)).toBe(201);
  return body;
}

/** The messages of a 400, by field path without the `body.` prefix. */
async function issues(method: string, path: string, json: unknown): Promise<Record<string, string>> {
  const { status, body } = await call<ErrorBody>(method, path, json);
  expect(status, JSON.stringify(body)).toBe(400);
  expect(body.code).toBe('VALIDATION_FAILED');
  return Object.fromEntries((body.details ?? []).map((d) => [d.path.replace(/^body\./, ''), d.message]));
}

beforeAll(async () => {
  app = await startTestApp();
  const user = await app.createUser({ username: 'admin', role: 'ADMIN' });
  admin = await app.signIn(user.username, user.password);
});
afterAll(() => app.close());

describe('GET /api/presets/codecs', () => {
  // The first call reads ffmpeg (one process per encoder): slow on a busy machine, then cached.
  it('offers the installed ffmpeg\'s codecs with their options as select, range, checkbox and string', { timeout: 90_000 }, async () => {
    const { status, body } = await call<Schemas['PresetCodecs']>('GET', '/api/presets/codecs');
    expect(status).toBe(200);
    const x264 = body.video.find((c) => c.name === 'libx264');
    expect(x264).toMatchObject({ gpu: false, label: 'H.264 (libx264)' });
    const option = (name: string) => x264?.options.find((o) => o.name === name);
    expect(option('preset')).toMatchObject({ type: 'select', default: 'medium' });
    expect(option('preset')?.values?.map((v) => v.value)).toContain('veryfast');
    expect(option('crf')).toMatchObject({ type: 'range', min: 0, max: 51 });
    expect(option('bf')).toMatchObject({ type: 'range', min: 0, max: 16, step: 1 });
    expect(option('aq-mode')?.values?.map((v) => v.value)).toEqual(['none', 'variance', 'autovariance', 'autovariance-biased']);
    expect(option('forced-idr')).toMatchObject({ type: 'checkbox', default: 'false' });
    expect(option('x264-params')).toMatchObject({ type: 'string' });
    // GPU encoders come only as the installed ffmpeg has them, marked as such.
    for (const codec of body.video.filter((c) => /_(nvenc|qsv|vaapi)$/.test(c.name))) expect(codec.gpu).toBe(true);

    const aac = body.audio.find((c) => c.name === 'aac');
    expect(aac?.sampleRates).toContain(48000);
    const opus = body.audio.find((c) => c.name === 'libopus');
    expect(opus).toMatchObject({ minBitrate: 32, maxBitrate: 2048, maxBitratePerChannel: 256, hint: 'Opus: 32 to 2048 kbit/s, up to 256 kbit/s per channel.' });
  });
});

describe('audio presets', () => {
  it('creates, gets, updates and lists an audio preset with its usageCount', async () => {
    const created = await createAudio('AAC stereo 128');
    expect(created).toMatchObject({ name: 'AAC stereo 128', audioCodec: 'aac', audioBitrate: 128, channels: 2, sampleRate: 48000, usageCount: 0 });
    const updated = await call<AudioPreset>('PUT', `/api/presets/audio/${created.id}`, audioBody('AAC stereo 160', { audioBitrate: 160, channels: null }));
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'AAC stereo 160', audioBitrate: 160, channels: null });
    const got = await call<AudioPreset>('GET', `/api/presets/audio/${created.id}`);
    expect(got.body.audioBitrate).toBe(160);
    const list = await call<Schemas['AudioPresetList']>('GET', '/api/presets/audio?search=stereo');
    expect(list.body.items.map((p) => p.name)).toEqual(['AAC stereo 160']);
  });

  it('names each missing field and each broken rule', async () => {
    expect(await issues('POST', '/api/presets/audio', {})).toMatchObject({
      name: 'Name is required',
      audioCodec: 'Audio codec is required',
      audioBitrate: 'Audio bitrate is required',
      sampleRate: 'Sample rate is required',
    });
    expect(await issues('POST', '/api/presets/audio', audioBody('x'.repeat(101), { audioBitrate: 0 }))).toEqual({
      name: 'Name must be at most 100 characters',
      audioBitrate: 'Audio bitrate must be between 1 and 999999',
    });
    expect(await issues('POST', '/api/presets/audio', audioBody('Opus low', { audioCodec: 'libopus', audioBitrate: 16 }))).toEqual({ audioBitrate: 'Opus bitrate must be between 32 and 2048 kbit/s' });
    expect(await issues('POST', '/api/presets/audio', audioBody('Opus high', { audioCodec: 'libopus', audioBitrate: 600, channels: 2 }))).toEqual({
      audioBitrate: 'Opus takes up to 256 kbit/s per channel: at most 512 kbit/s for 2 channels',
    });
    expect(await issues('POST', '/api/presets/audio', audioBody('AC-3', { audioCodec: 'ac3', sampleRate: 22050, channels: 8 }))).toEqual({
      sampleRate: 'Sample rate must be one of 48000, 44100, 32000 Hz for ac3',
      channels: 'ac3 encodes at most 6 channels',
    });
    expect(await issues('POST', '/api/presets/audio', audioBody('Nope', { audioCodec: 'libnothing' }))).toEqual({ audioCodec: 'Audio codec libnothing is not available in the installed ffmpeg' });
    // Opus within its limits is taken.
    await createAudio('Opus 5.1', { audioCodec: 'libopus', audioBitrate: 1536, channels: 6 });
  });
});

describe('video presets', () => {
  let audio: AudioPreset;
  beforeAll(async () => {
    audio = await createAudio('Video default audio');
  });

  it('creates a video preset with codec options, and returns them as saved', async () => {
    const created = await createVideo('x264 HD', audio.id, {
      advancedOption: true,
      videoCodecParameters: { preset: 'veryfast', tune: 'zerolatency', crf: 23.5, bf: 2, 'forced-idr': true, 'aq-mode': 'variance', 'x264-params': 'nal-hrd=cbr' },
    });
    expect(created).toMatchObject({
      name: 'x264 HD',
      videoCodec: 'libx264',
      gpu: false,
      videoBitrate: 3000,
      audioPreset: audio.id,
      audioPresetName: 'Video default audio',
      advancedOption: true,
      videoCodecParameters: { preset: 'veryfast', tune: 'zerolatency', crf: 23.5, bf: 2, 'forced-idr': true, 'aq-mode': 'variance', 'x264-params': 'nal-hrd=cbr' },
      usageCount: 0,
    });
  });

  it('keeps no codec option when the advanced options are off', async () => {
    const created = await createVideo('x264 defaults', audio.id, { advancedOption: false, videoCodecParameters: { preset: 'slow' } });
    expect(created.videoCodecParameters).toEqual({});
  });

  it('names the required fields, a codec ffmpeg lacks and a codec option it refuses', async () => {
    expect(await issues('POST', '/api/presets/video', { name: '' })).toMatchObject({
      name: 'Name is required',
      videoCodec: 'Video codec is required',
      videoBitrate: 'Video bitrate is required',
      audioPreset: 'Audio preset is required',
    });
    expect(await issues('POST', '/api/presets/video', videoBody('Bad', audio.id, { videoCodec: 'libfoo', videoBitrate: 1_000_000 }))).toEqual({
      videoBitrate: 'Video bitrate must be between 1 and 999999',
    });
    expect(await issues('POST', '/api/presets/video', videoBody('Bad', 999_999, { videoCodec: 'libfoo' }))).toEqual({
      videoCodec: 'Video codec libfoo is not available in the installed ffmpeg',
      audioPreset: 'Audio preset 999999 does not exist',
    });
    expect(
      await issues('POST', '/api/presets/video', videoBody('Bad options', audio.id, { advancedOption: true, videoCodecParameters: { bogus: 1, crf: 60, preset: 'turbo', bf: 1.5, 'forced-idr': 'yes' } })),
    ).toEqual({
      'videoCodecParameters.bogus': 'bogus is not an option of libx264',
      'videoCodecParameters.crf': 'Constant rate factor (crf) must be between 0 and 51',
      'videoCodecParameters.preset': 'Preset must be one of: ultrafast, superfast, veryfast, faster, fast, medium, slow, slower, veryslow, placebo',
      'videoCodecParameters.bf': 'B-frames (bf) must be a whole number',
      'videoCodecParameters.forced-idr': 'Forced keyframes as IDR must be true or false',
    });
    expect(await issues('POST', '/api/presets/video', videoBody('GPU?', audio.id, { gpu: true }))).toEqual({ gpu: 'libx264 is not a GPU encoder' });
  });

  it('the message of a 400 names the option', async () => {
    const { body } = await call<ErrorBody>('POST', '/api/presets/video', videoBody('One bad', audio.id, { advancedOption: true, videoCodecParameters: { refs: 40 } }));
    expect(body.message).toBe('body.videoCodecParameters.refs: Reference frames (refs) must be between 1 and 16');
  });

  it('updates and clones a preset; the copy is named "<name> (copy)" unless a name is given', async () => {
    const original = await createVideo('To clone', audio.id, { advancedOption: true, videoCodecParameters: { preset: 'fast' } });
    const updated = await call<VideoPreset>('PUT', `/api/presets/video/${original.id}`, videoBody('To clone', audio.id, { videoBitrate: 4500, advancedOption: true, videoCodecParameters: { preset: 'slow' } }));
    expect(updated.body).toMatchObject({ videoBitrate: 4500, videoCodecParameters: { preset: 'slow' } });
    const copy = await call<VideoPreset>('POST', `/api/presets/video/${original.id}/clone`);
    expect(copy.status).toBe(201);
    expect(copy.body).toMatchObject({ name: 'To clone (copy)', videoBitrate: 4500, videoCodecParameters: { preset: 'slow' }, usageCount: 0 });
    expect(copy.body.id).not.toBe(original.id);
    const named = await call<VideoPreset>('POST', `/api/presets/video/${original.id}/clone?name=${encodeURIComponent('Clone two')}`);
    expect(named.body.name).toBe('Clone two');
    const audioCopy = await call<AudioPreset>('POST', `/api/presets/audio/${audio.id}/clone`);
    expect(audioCopy.body).toMatchObject({ name: 'Video default audio (copy)', audioCodec: 'aac', audioBitrate: 128 });
  });
});

describe('usage and deletion', () => {
  it('counts the jobs that use a preset and refuses to delete it while used, saying how many', async () => {
    const audio = await createAudio('Used audio');
    const video = await createVideo('Used video', audio.id);
    await insertJob(app.db, 'encoding', {
      name: 'uses both',
      input: { type: 'uri', uri: 'udp://127.0.0.1:5000' },
      outputs: [{ type: 'udp', uri: 'udp://127.0.0.1:5001' }],
      preset: video.id,
      audioSetting: { audioDisabled: false, normalizationEnabled: false, volume: 1, tracks: [{ source: 'AUTO', audioPreset: audio.id }] },
    } as never);
    await insertJob(app.db, 'encoding', { name: 'uses video', input: { type: 'uri', uri: 'udp://127.0.0.1:5002' }, outputs: [{ type: 'udp', uri: 'udp://127.0.0.1:5003' }], preset: video.id } as never);

    const videos = await call<Schemas['VideoPresetList']>('GET', '/api/presets/video');
    expect(videos.body.items.find((p) => p.id === video.id)?.usageCount).toBe(2);
    const audios = await call<Schemas['AudioPresetList']>('GET', '/api/presets/audio');
    // One job's audio track and one video preset refer to it.
    expect(audios.body.items.find((p) => p.id === audio.id)?.usageCount).toBe(2);

    const refusedVideo = await call<ErrorBody>('DELETE', `/api/presets/video/${video.id}`);
    expect(refusedVideo.status).toBe(409);
    expect(refusedVideo.body).toMatchObject({ code: 'PRESET_IN_USE', message: 'Preset Used video is used by 2 jobs; remove it from those jobs first.' });
    const refusedAudio = await call<ErrorBody>('DELETE', `/api/presets/audio/${audio.id}`);
    expect(refusedAudio.status).toBe(409);
    expect(refusedAudio.body.message).toBe('Audio preset Used audio is used by 1 job and 1 video preset; remove it from them first.');
  });

  it('deletes a preset nothing uses', async () => {
    const audio = await createAudio('Unused audio');
    const video = await createVideo('Unused video', audio.id);
    expect((await call('DELETE', `/api/presets/video/${video.id}`)).status).toBe(200);
    expect((await call('GET', `/api/presets/video/${video.id}`)).status).toBe(404);
    expect((await call('DELETE', `/api/presets/audio/${audio.id}`)).status).toBe(200);
    const gone = await call<ErrorBody>('GET', `/api/presets/audio/${audio.id}`);
    expect(gone.body).toMatchObject({ code: 'NOT_FOUND', message: `Audio preset ${audio.id} not found.` });
  });
});

describe('permissions (spec 03 §6: presets use ENCODING_EDIT and ENCODING_VIEW_EDIT)', () => {
  it('lets ENCODING_VIEW view but not change, ENCODING_VIEW_EDIT change, and nobody else see', async () => {
    const audio = await createAudio('Guarded');
    const viewer = await app.createUser({ username: 'encoding-viewer', permissions: { encoding: { level: 'ENCODING_VIEW', hide: false } } });
    const viewEditor = await app.createUser({ username: 'encoding-view-edit', permissions: { encoding: { level: 'ENCODING_VIEW', hide: false, viewEdit: true } } });
    const stranger = await app.createUser({ username: 'relays-only', permissions: { relay: { level: 'RELAY_EDIT', hide: false } } });
    const [viewerCookie, viewEditCookie, strangerCookie] = await Promise.all([viewer, viewEditor, stranger].map((u) => app.signIn(u.username, u.password)));

    expect((await call('GET', '/api/presets/audio', undefined, viewerCookie)).status).toBe(200);
    expect((await call('GET', '/api/presets/codecs', undefined, viewerCookie)).status).toBe(200);
    const refused = await call<ErrorBody>('POST', '/api/presets/audio', audioBody('By viewer'), viewerCookie);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('You need ENCODING_EDIT or ENCODING_VIEW_EDIT to do this.');
    expect((await call('DELETE', `/api/presets/audio/${audio.id}`, undefined, viewerCookie)).status).toBe(403);

    expect((await call('POST', '/api/presets/audio', audioBody('By view-edit'), viewEditCookie)).status).toBe(201);
    expect((await call('POST', `/api/presets/audio/${audio.id}/clone`, undefined, viewEditCookie)).status).toBe(201);
    expect((await call('DELETE', `/api/presets/audio/${audio.id}`, undefined, viewEditCookie)).status).toBe(200);

    expect((await call('GET', '/api/presets/video', undefined, strangerCookie)).status).toBe(403);
  });
});
