import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../api/events/event-bus.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { waitFor } from '../support/jobs.ts';
import { client, encodingBody, insertNode, insertPreset, relayBody, userWith, writeOf, type ErrorBody, type Job } from './jobs-api-support.ts';

/**
 * The jobs API end to end on a real Postgres: create, the list with every filter and its footer
 * counts, get, update (with what the node observes), delete; the rules of spec 01 §5 as a table.
 */
let app: TestApp;
let admin: ReturnType<typeof client>;
let encodings: ReturnType<typeof client>;
let localNode: number;

beforeAll(async () => {
  app = await startTestApp();
  const { cookie } = await userWith(app, 'admin', {}, 'ADMIN');
  admin = client(app, cookie, 'relay');
  encodings = client(app, cookie, 'encoding');
  localNode = (await app.db.selectFrom('nodes').select('id').where('node_id', '=', 'test-node').executeTakeFirstOrThrow()).id;
});
afterAll(() => app.close());

/**
 * What a node does after observing the job: write its job_status row, then publish a status event
 * (here waited for, so the API has seen it before the next request).
 */
async function observe(job: Pick<Job, 'id'>, status: { state: string; appliedConfigVersion?: number; cpu?: number; rss?: number; nodeId?: number }) {
  const row = await app.db.selectFrom('jobs').select(['config_version', 'kind']).where('id', '=', job.id).executeTakeFirstOrThrow();
  const values = {
    state: status.state,
    node_id: status.nodeId ?? localNode,
    cpu_percent: status.cpu ?? 12.5,
    rss_bytes: status.rss ?? 50_000_000,
    input_bps: 3_000_000,
    output_bps: 2_900_000,
    started_at: new Date(Date.now() - 60_000),
    applied_config_version: status.appliedConfigVersion ?? row.config_version,
  };
  await app.db
    .insertInto('job_status')
    .values({ job_id: job.id, ...values })
    .onConflict((oc) => oc.column('job_id').doUpdateSet(values))
    .execute();
  const seen: LiveEvent[] = [];
  const unsubscribe = app.services.events.subscribe((event) => seen.push(event));
  await app.services.events.publish({ topic: `${row.kind}s`, type: 'status', id: job.id });
  await waitFor(async () => seen.some((e) => e.type === 'status' && e.id === job.id), 'the status event');
  unsubscribe();
}

const jobRow = (id: number) => app.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('POST /api/relays', () => {
  it('creates a relay that GET returns with the defaults of the form, switched off', async () => {
    const created = await admin.create(relayBody('News HD'));
    expect(created).toMatchObject({
      kind: 'relay',
      name: 'News HD',
      videoType: 'LIVE',
      active: false,
      saved: false,
      isTemplate: false,
      changedConfigSinceLastStart: false,
      executionLocationType: 'auto',
      node: null,
      restartAttempts: 10,
      logLevel: 'NOTICE',
      statisticsDays: 7,
      input: { type: 'uri', uri: 'udp://239.0.0.1:1234' },
      outputs: [{ type: 'udp', uri: 'udp://127.0.0.1:5000', disabled: false }],
      comments: [],
      createdBy: 'admin',
      status: { on: false, state: 'stopped', workStatus: 'Stopped', cpu: 0, rss: 0, startedAt: null, executionNode: null },
    });
    expect(await admin.get(created.id)).toEqual(created);
    const row = await jobRow(created.id);
    expect(row).toMatchObject({ input_type: 'uri', output_types: ['udp'], preset_id: null, config_version: 1, active: false });
    expect(row.desired_actor).toEqual({ kind: 'user', userId: expect.any(Number), username: 'admin' });
  });

  it('publishes the change on the relays topic, which wakes the node reconcilers', async () => {
    const seen: LiveEvent[] = [];
    const unsubscribe = app.services.events.subscribe((event) => seen.push(event));
    const created = await admin.create(relayBody('Published'));
    await waitFor(async () => seen.find((e) => e.topic === 'relays' && e.id === created.id), 'the created event');
    unsubscribe();
    expect(seen.find((e) => e.id === created.id)).toMatchObject({ topic: 'relays', type: 'created' });
  });

  it('refuses an unknown video preset, watermark and node, naming each field', async () => {
    const preset = await insertPreset(app, 'Refs');
    const { status, body } = await encodings.call<ErrorBody>('POST', '', encodingBody('Refs', 999_999, { watermark: 888_888, node: 777_777 }));
    expect(status).toBe(400);
    expect(body.details?.map((d) => `${d.path}: ${d.message}`).sort()).toEqual([
      'body.node: Node 777777 does not exist',
      'body.preset: Video preset 999999 does not exist',
      'body.watermark: Watermark 888888 does not exist',
    ]);
    expect((await encodings.call('POST', '', encodingBody('Refs', preset))).status).toBe(201);
  });
});

describe('spec 01 §5 rules', () => {
  const preset = () => app.db.selectFrom('video_presets').select('id').executeTakeFirstOrThrow().then((r) => r.id);
  const cases: Array<{ rule: string; kind: 'relay' | 'encoding'; body: (preset: number) => Record<string, unknown>; path: string; message: string }> = [
    { rule: 'name required', kind: 'relay', body: () => relayBody(''), path: 'body.name', message: 'Name is required' },
    { rule: 'name max 100', kind: 'relay', body: () => relayBody('x'.repeat(101)), path: 'body.name', message: 'Name must be at most 100 characters' },
    { rule: 'input uri required for type uri', kind: 'relay', body: () => relayBody('a', { input: { type: 'uri' } }), path: 'body.input.uri', message: 'Input uri is required' },
    { rule: 'playlist required when chosen', kind: 'relay', body: () => relayBody('a', { input: { type: 'playlist' } }), path: 'body.input.playlist', message: 'Playlist is required' },
    { rule: 'multiviewer required when chosen', kind: 'relay', body: () => relayBody('a', { input: { type: 'multiviewer' } }), path: 'body.input.multiviewer', message: 'Multiviewer is required' },
    { rule: 'failover timeout a number', kind: 'relay', body: () => relayBody('a', { failover: { input: { type: 'uri', uri: 'udp://239.0.0.2:1' }, timeout: 'soon' } }), path: 'body.failover.timeout', message: 'Failover timeout must be a number' },
    { rule: 'restart attempts min 0', kind: 'relay', body: () => relayBody('a', { restartAttempts: -1 }), path: 'body.restartAttempts', message: 'Restart attempts must be at least 0' },
    { rule: 'statistics days 1 to 30', kind: 'relay', body: () => relayBody('a', { statisticsDays: 31 }), path: 'body.statisticsDays', message: 'Statistics days must be between 1 and 30' },
    { rule: 'delay time min 0', kind: 'encoding', body: (p) => encodingBody('a', p, { delayTime: -1 }), path: 'body.delayTime', message: 'Delay time must be at least 0' },
    { rule: 'video bitrate 1 to 999999', kind: 'encoding', body: (p) => encodingBody('a', p, { adaptive: true, countOfProfiles: 2, profiles: [{ width: 640, height: 360, videoBitrate: 0, audioBitrate: 64 }, { width: 320, height: 180, videoBitrate: 300, audioBitrate: 64 }] }), path: 'body.profiles.0.videoBitrate', message: 'Video bitrate must be between 1 and 999999' },
    { rule: 'audio bitrate 1 to 999999', kind: 'encoding', body: (p) => encodingBody('a', p, { audioSetting: { tracks: [{ source: 'AUTO', bitrate: 1_000_000 }] } }), path: 'body.audioSetting.tracks.0.bitrate', message: 'Audio bitrate must be between 1 and 999999' },
    { rule: 'custom width min 0', kind: 'encoding', body: (p) => encodingBody('a', p, { videoResolution: 'CUSTOM', width: -2, height: 100 }), path: 'body.width', message: 'Custom width must be at least 0' },
    { rule: 'custom size required for CUSTOM', kind: 'encoding', body: (p) => encodingBody('a', p, { videoResolution: 'CUSTOM' }), path: 'body.width', message: 'Custom width is required for a CUSTOM resolution' },
    { rule: 'custom height required for CUSTOM', kind: 'encoding', body: (p) => encodingBody('a', p, { videoResolution: 'CUSTOM', width: 640 }), path: 'body.height', message: 'Custom height is required for a CUSTOM resolution' },
    { rule: 'an audio track unless the sound is off', kind: 'encoding', body: (p) => encodingBody('a', p, { audioSetting: { tracks: [] } }), path: 'body.audioSetting.tracks', message: 'At least one audio track is required' },
    { rule: 'an output port 1–65536', kind: 'relay', body: () => relayBody('a', { outputs: [{ type: 'udp', uri: 'udp://127.0.0.1:70000' }] }), path: 'body.outputs.0.uri', message: 'Port must be between 1 and 65536' },
    { rule: 'an output port at all', kind: 'relay', body: () => relayBody('a', { outputs: [{ type: 'tcp', uri: 'tcp://127.0.0.1' }] }), path: 'body.outputs.0.uri', message: 'Port is required (host:port)' },
    { rule: 'volume 0 to 10', kind: 'encoding', body: (p) => encodingBody('a', p, { audioSetting: { volume: 11 } }), path: 'body.audioSetting.volume', message: 'Volume must be between 0 and 10' },
    { rule: 'volume step 0.1', kind: 'encoding', body: (p) => encodingBody('a', p, { audioSetting: { volume: 1.05 } }), path: 'body.audioSetting.volume', message: 'Volume goes in steps of 0.1' },
    { rule: 'adaptive profiles 2 to 9', kind: 'encoding', body: (p) => encodingBody('a', p, { adaptive: true, countOfProfiles: 10 }), path: 'body.countOfProfiles', message: 'Adaptive profiles must be 2 to 9' },
    { rule: 'adaptive needs its profiles', kind: 'encoding', body: (p) => encodingBody('a', p, { adaptive: true, countOfProfiles: 2 }), path: 'body.profiles', message: 'Adaptive needs 2 profiles, 0 given' },
    { rule: 'no audio track added when AUTO', kind: 'encoding', body: (p) => encodingBody('a', p, { audioSetting: { tracks: [{ source: 'AUTO' }, { source: 1 }] } }), path: 'body.audioSetting.tracks', message: 'More audio tracks cannot be added when the source is AUTO or ALL' },
    { rule: 'no audio track added while muxing', kind: 'encoding', body: (p) => encodingBody('a', p, { muxAudioAndVideo: true, audioSetting: { tracks: [{ source: 0 }, { source: 1 }] } }), path: 'body.audioSetting.tracks', message: 'More audio tracks cannot be added while muxing audio and video' },
    { rule: 'no subtitles with mux', kind: 'encoding', body: (p) => encodingBody('a', p, { muxAudioAndVideo: true, subtitles: [{ type: 'DVB' }] }), path: 'body.subtitles', message: 'Subtitles are not available with Mux audio and video ON.' },
    { rule: 'subtitle upload and URL only for VOD', kind: 'encoding', body: (p) => encodingBody('a', p, { subtitles: [{ type: 'URL', url: 'https://cdn.example.com/a.vtt' }] }), path: 'body.subtitles', message: 'Subtitle upload and URL are offered only for VOD' },
    { rule: 'a URL subtitle needs a value', kind: 'encoding', body: (p) => encodingBody('a', p, { videoType: 'VOD', subtitles: [{ type: 'URL' }] }), path: 'body.subtitles.0.url', message: 'A URL subtitle needs a value' },
    { rule: 'one default subtitle', kind: 'encoding', body: (p) => encodingBody('a', p, { subtitles: [{ type: 'DVB', default: true }, { type: 'DVB', default: true }] }), path: 'body.subtitles', message: 'Only one subtitle may be the default' },
    { rule: 'subtitle file types', kind: 'encoding', body: (p) => encodingBody('a', p, { videoType: 'VOD', subtitles: [{ type: 'FILE', fileName: 'a.ass' }] }), path: 'body.subtitles.0.fileName', message: 'Accepted subtitle file types: .srt, .vtt, .stl' },
    { rule: 'no DRM with muxed audio and video', kind: 'encoding', body: (p) => encodingBody('a', p, { muxAudioAndVideo: true, outputs: [{ type: 'hls', uri: 'live/a', drmEnabled: true }] }), path: 'body.outputs', message: 'DRM is unavailable with muxed audio and video' },
    { rule: 'DRM on needs its DRM', kind: 'encoding', body: (p) => encodingBody('a', p, { outputs: [{ type: 'hls', uri: 'live/a', drmEnabled: true }] }), path: 'body.outputs.0.drm', message: 'DRM needs a provider, a content id and at least one DRM system' },
    { rule: 'DRM content id required', kind: 'encoding', body: (p) => encodingBody('a', p, { outputs: [{ type: 'dash', uri: 'live/a', drmEnabled: true, drm: { drmProvider: { providerType: 'IRDETO' }, drmSystems: ['WIDEVINE'] } }] }), path: 'body.outputs.0.drm.contentId', message: 'Content id is required' },
    { rule: 'at least one DRM system', kind: 'encoding', body: (p) => encodingBody('a', p, { outputs: [{ type: 'cmaf', uri: 'live/a', drmEnabled: true, drm: { drmProvider: { providerType: 'IRDETO' }, contentId: 'ch-1', drmSystems: [] } }] }), path: 'body.outputs.0.drm.drmSystems', message: 'Choose at least one DRM system' },
    { rule: 'ad markers on need an event source', kind: 'encoding', body: (p) => encodingBody('a', p, { outputs: [{ type: 'hls', uri: 'live/a', adMarkersEnabled: true }] }), path: 'body.outputs.0.adMarkers', message: 'Ad markers need an event source' },
    { rule: 'the scheduler needs its schedule', kind: 'encoding', body: (p) => encodingBody('a', p, { outputs: [{ type: 'hls', uri: 'live/a', adMarkersEnabled: true, adMarkers: { eventSource: 'SCHEDULER' } }] }), path: 'body.outputs.0.adMarkers.schedule', message: 'The scheduler needs a frequency and a duration' },
    { rule: 'ad scheduler frequency 1 to 1440 minutes', kind: 'encoding', body: (p) => encodingBody('a', p, { outputs: [{ type: 'hls', uri: 'live/a', adMarkersEnabled: true, adMarkers: { eventSource: 'SCHEDULER', schedule: { frequencyInMinutes: 1441, durationInSeconds: 60 } } }] }), path: 'body.outputs.0.adMarkers.schedule.frequencyInMinutes', message: 'Scheduler frequency must be 1 to 1440 minutes' },
    { rule: 'ad scheduler duration 1 to 86400 seconds', kind: 'encoding', body: (p) => encodingBody('a', p, { outputs: [{ type: 'hls', uri: 'live/a', adMarkersEnabled: true, adMarkers: { eventSource: 'SCHEDULER', schedule: { frequencyInMinutes: 30, durationInSeconds: 0 } } }] }), path: 'body.outputs.0.adMarkers.schedule.durationInSeconds', message: 'Scheduler duration must be 1 to 86400 seconds' },
    { rule: 'smart ad needs its option', kind: 'encoding', body: (p) => encodingBody('a', p, { outputs: [{ type: 'hls', uri: 'live/a', adMarkersEnabled: true, adMarkers: { eventSource: 'SMART_AD' } }] }), path: 'body.outputs.0.adMarkers.smartAdOption', message: 'Smart ad needs a minimum interval and a duration' },
    { rule: 'smart ad minimum interval 1 to 1440 minutes', kind: 'encoding', body: (p) => encodingBody('a', p, { outputs: [{ type: 'hls', uri: 'live/a', adMarkersEnabled: true, adMarkers: { eventSource: 'SMART_AD', smartAdOption: { minimumIntervalInMinutes: 0, durationInSeconds: 30 } } }] }), path: 'body.outputs.0.adMarkers.smartAdOption.minimumIntervalInMinutes', message: 'Smart ad minimum interval must be 1 to 1440 minutes' },
    { rule: 'smart ad duration 1 to 86400 seconds', kind: 'encoding', body: (p) => encodingBody('a', p, { outputs: [{ type: 'hls', uri: 'live/a', adMarkersEnabled: true, adMarkers: { eventSource: 'SMART_AD', smartAdOption: { minimumIntervalInMinutes: 10, durationInSeconds: 86401 } } }] }), path: 'body.outputs.0.adMarkers.smartAdOption.durationInSeconds', message: 'Smart ad duration must be 1 to 86400 seconds' },
    { rule: 'ad detection slot duration 1 to 86400 seconds', kind: 'encoding', body: (p) => encodingBody('a', p, { outputs: [{ type: 'hls', uri: 'live/a', adMarkersEnabled: true, adMarkers: { eventSource: 'AD_DETECTION', adDetectionOption: { durationInSeconds: 0 } } }] }), path: 'body.outputs.0.adMarkers.adDetectionOption.durationInSeconds', message: 'Ad detection slot duration must be 1 to 86400 seconds' },
    { rule: 'preset required', kind: 'encoding', body: () => encodingBody('a', 1, { preset: null }), path: 'body.preset', message: 'Preset is required' },
    { rule: 'batch only for VOD', kind: 'relay', body: () => relayBody('a', { input: { type: 'uri', uri: '/media/**/*.mp4', batchLogEnabled: true } }), path: 'body.input.batchLogEnabled', message: 'Batch is only for VOD jobs' },
    { rule: 'batch only for a uri input', kind: 'relay', body: () => relayBody('a', { videoType: 'VOD', input: { type: 'playlist', playlist: 1, batchLogEnabled: true } }), path: 'body.input.batchLogEnabled', message: 'Batch is only for a uri input' },
    { rule: 'batch URL needs a glob', kind: 'relay', body: () => relayBody('a', { videoType: 'VOD', input: { type: 'uri', uri: '/media/a.mp4', batchLogEnabled: true } }), path: 'body.input.uri', message: 'The URL must contain a glob pattern (*, **, ?, [abc]), e.g. prefix/**/*.mp4' },
    { rule: 'no program selection for batch', kind: 'relay', body: () => relayBody('a', { videoType: 'VOD', input: { type: 'uri', uri: '/media/*.mp4', batchLogEnabled: true, program: 1 } }), path: 'body.input.program', message: 'Program selection is not available for batch jobs' },
    { rule: 'batch playback URLs name the source', kind: 'encoding', body: (p) => encodingBody('a', p, { videoType: 'VOD', input: { type: 'uri', uri: '/media/*.mp4', batchLogEnabled: true }, outputs: [{ type: 'hls', uri: 'vod/out' }] }), path: 'body.outputs.0.uri', message: 'Playback URLs must contain at least one of {SRC_SUB_DIR}, {SRC_FILE_TITLE}, {SRC_FILE_EXT}' },
    { rule: 'UDP port 1 to 65536', kind: 'relay', body: () => relayBody('a', { outputs: [{ type: 'srt', srtMode: 'listener', port: 70_000 }] }), path: 'body.outputs.0.port', message: 'Port must be between 1 and 65536' },
    { rule: 'RTMP credentials when auth is on', kind: 'relay', body: () => relayBody('a', { outputs: [{ type: 'rtmp', uri: 'rtmp://cdn/app/key', auth: { enabled: true } }] }), path: 'body.outputs.0.auth', message: 'RTMP credentials are required when auth is on' },
    { rule: 'MPEG-TS program number required', kind: 'relay', body: () => relayBody('a', { outputs: [{ type: 'udp', uri: 'udp://127.0.0.1:5000', mpegTsPrograms: [{ name: 'one' }] }] }), path: 'body.outputs.0.mpegTsPrograms.0.number', message: 'Program number is required' },
    { rule: 'programs fewer than profiles', kind: 'relay', body: () => relayBody('a', { outputs: [{ type: 'udp', uri: 'udp://127.0.0.1:5000', mpegTsPrograms: [{ number: 1 }, { number: 2 }] }] }), path: 'body.outputs.0.mpegTsPrograms', message: 'A new program can be added only while programs are fewer than profiles' },
    { rule: 'push base URL differs from the stream location', kind: 'encoding', body: (p) => encodingBody('a', p, { outputs: [{ type: 'hls', uri: 'live/a', pushBaseUrl: 'live/a/' }] }), path: 'body.outputs.0.pushBaseUrl', message: 'Base URL should be different from stream location' },
    { rule: 'stream pool needs server and pool', kind: 'encoding', body: (p) => encodingBody('a', p, { outputs: [{ type: 'hls', uri: 'live/a', deliveryOptions: [{ deliveryType: 'STREAMPOOL' }] }] }), path: 'body.outputs.0.deliveryOptions.0.server', message: 'Stream pool needs a server' },
    { rule: 'Akamai needs an ingest point', kind: 'encoding', body: (p) => encodingBody('a', p, { outputs: [{ type: 'hls', uri: 'live/a', deliveryOptions: [{ deliveryType: 'AKAMAI_MSLV4' }] }] }), path: 'body.outputs.0.deliveryOptions.0.akamaiIngestPoint', message: 'Akamai needs an ingest point' },
    { rule: 'live push needs a slot', kind: 'encoding', body: (p) => encodingBody('a', p, { outputs: [{ type: 'hls', uri: 'live/a', deliveryOptions: [{ deliveryType: 'EDGIO_LIVE_PUSH', edgioUser: 'u', edgioPass: 'p' }] }] }), path: 'body.outputs.0.deliveryOptions.0.edgioSlot', message: 'Live push needs a slot' },
    { rule: 'SRT passphrase 10 to 79 characters', kind: 'relay', body: () => relayBody('a', { outputs: [{ type: 'srt', uri: 'srt://10.0.0.2:9000', secured: { passphrase: 'short' } }] }), path: 'body.outputs.0.secured.passphrase', message: 'Passphrase must be 10 to 79 characters' },
    { rule: 'SRT caller needs a host', kind: 'relay', body: () => relayBody('a', { outputs: [{ type: 'srt', srtMode: 'caller' }] }), path: 'body.outputs.0.uri', message: 'An SRT caller needs a host' },
    { rule: 'SRT stream id hidden in listener mode', kind: 'relay', body: () => relayBody('a', { outputs: [{ type: 'srt', srtMode: 'listener', port: 9000, srtStreamId: 'live/a' }] }), path: 'body.outputs.0.srtStreamId', message: 'Stream id is only for caller mode (hidden in listener mode)' },
    { rule: 'no stream id in an SRT listener\'s URL', kind: 'relay', body: () => relayBody('a', { outputs: [{ type: 'srt', srtMode: 'listener', uri: 'srt://0.0.0.0:9000?streamid=live/a' }] }), path: 'body.outputs.0.uri', message: 'Stream id is only for caller mode (hidden in listener mode)' },
    { rule: 'no stream id for an SRT listener input', kind: 'relay', body: () => relayBody('a', { input: { type: 'uri', uri: 'srt://:9000?mode=listener&streamid=live/a' } }), path: 'body.input.uri', message: 'Stream id is only for caller mode (hidden in listener mode)' },
    { rule: 'SRT latency at least 0', kind: 'relay', body: () => relayBody('a', { outputs: [{ type: 'srt', uri: 'srt://10.0.0.2:9000', srtLatencyMs: -1 }] }), path: 'body.outputs.0.srtLatencyMs', message: 'Latency must be at least 0' },
    { rule: 'at least one enabled output', kind: 'relay', body: () => relayBody('a', { outputs: [{ type: 'udp', uri: 'udp://127.0.0.1:5000', disabled: true }] }), path: 'body.outputs', message: 'At least one output must be enabled' },
    { rule: 'features from the catalogue', kind: 'relay', body: () => relayBody('a', { features: [{ name: 'turbo' }] }), path: 'body.features.0.name', message: 'Unknown feature turbo (known: staleTimeoutSeconds, failoverReturnAfterHealthySeconds, udpTtl)' },
  ];

  it.each(cases)('$rule: 400 naming $path', async ({ kind, body, path, message }) => {
    const api = kind === 'relay' ? admin : encodings;
    const { status, body: error } = await api.call<ErrorBody>('POST', '', body(await preset()));
    expect(status, JSON.stringify(error)).toBe(400);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details).toContainEqual(expect.objectContaining({ path, message }));
    expect(error.message).toContain(`${path}: ${message}`);
  });

  it('stores an output\'s DRM and ad markers as given, and the list marks it E and AD', async () => {
    const drm = { drmProvider: { providerType: 'IRDETO' }, contentId: 'channel-1', drmSystems: ['WIDEVINE', 'PLAYREADY'], keyEncryptionKey: '00112233445566778899aabbccddeeff' };
    const adMarkers = { eventSource: 'AD_DETECTION', cueStyle: 'SCTE35', adDetectionOption: { durationInSeconds: 90 }, adClassifier: 3, featureExtractor: 4 };
    const job = await encodings.create(encodingBody('Protected', await preset(), { outputs: [{ type: 'dash', uri: 'live/protected', drmEnabled: true, drm, adMarkersEnabled: true, adMarkers }] }));
    expect((await encodings.get(job.id)).outputs[0]).toMatchObject({ drmEnabled: true, drm, adMarkersEnabled: true, adMarkers });
    expect((await encodings.list(`search=${job.id}`)).items[0].outputMarkers).toMatchObject({ encrypted: true, ad: true });
  });

  it('stores nothing when a rule is broken, and keeps the old record whole when an update is refused', async () => {
    const before = (await admin.list('size=500')).counts.total;
    await admin.call('POST', '', relayBody('', {}));
    expect((await admin.list('size=500')).counts.total).toBe(before);
    const job = await admin.create(relayBody('Whole'));
    const { status } = await admin.call('PUT', `/${job.id}`, writeOf(job, { name: 'Changed', restartAttempts: -5 }));
    expect(status).toBe(400);
    const { status: refStatus } = await admin.call('PUT', `/${job.id}`, writeOf(job, { name: 'Changed', node: 999_999 }));
    expect(refStatus).toBe(400);
    expect(await admin.get(job.id)).toEqual(job);
  });
});

describe('GET /api/relays and /api/encodings', () => {
  let ids: Record<string, number>;
  let presetA: number;
  let presetB: number;
  let nodeB: number;

  beforeAll(async () => {
    presetA = await insertPreset(app, 'H264 720p');
    presetB = await insertPreset(app, 'HEVC 1080p');
    nodeB = await insertNode(app, 'edge-b');
    const e = async (name: string, extra: Record<string, unknown> = {}, preset = presetA) => (await encodings.create(encodingBody(name, preset, extra))).id;
    ids = {
      alpha: await e('Alpha Sport', { outputs: [{ type: 'hls', uri: 'live/alpha', encryption: true }] }),
      beta: await e('beta news', { node: nodeB, input: { type: 'uri', uri: 'https://origin.example.com/live.m3u8?token=secret&x=1' }, outputs: [{ type: 'udp', uri: 'udp://127.0.0.1:6000' }] }, presetB),
      gamma: await e('Gamma Movies', { videoType: 'VOD', input: { type: 'uri', uri: '/media/gamma.mp4' }, outputs: [{ type: 'dash', uri: 'vod/gamma', adMarkersEnabled: true, adMarkers: { eventSource: 'SCHEDULER', schedule: { frequencyInMinutes: 15, durationInSeconds: 60 } } }, { type: 'srt', uri: 'srt://10.0.0.3:9000', disabled: true }] }),
      delta: await e('Delta ABR', {
        adaptive: true,
        countOfProfiles: 2,
        profiles: [{ width: 1280, height: 720, videoBitrate: 3000, audioBitrate: 128 }, { width: 640, height: 360, videoBitrate: 800, audioBitrate: 96 }],
        outputs: [{ type: 'cmaf', uri: 'live/delta' }],
      }),
      epsilon: await e('epsilon', { input: { type: 'playlist', playlist: 4 }, outputs: [{ type: 'rtmp', uri: 'rtmp://cdn/app/key', drmEnabled: false }] }),
    };
    // Switched on: alpha runs, beta waits (not placed yet), gamma gave up, delta runs.
    for (const name of ['alpha', 'beta', 'gamma', 'delta']) expect((await encodings.call('POST', `/${ids[name]}/start`)).status).toBe(200);
    await observe({ id: ids.alpha }, { state: 'running', cpu: 42.5 });
    await observe({ id: ids.gamma }, { state: 'failed' });
    await observe({ id: ids.delta }, { state: 'running', nodeId: nodeB });
    // epsilon is off but its node last saw it running (it keeps CPU 0 and no start information).
    await observe({ id: ids.epsilon }, { state: 'stopped' });
    await app.request(`/api/encodings/${ids.alpha}/comments`, { method: 'POST', cookie: (await userWith(app, 'commenter', {}, 'ADMIN')).cookie, json: { type: 'NOTICE', comment: 'ok' } });
    await app.request(`/api/encodings/${ids.alpha}/comments`, { method: 'POST', cookie: (await userWith(app, 'commenter2', {}, 'ADMIN')).cookie, json: { type: 'CRITICAL', comment: 'fix the audio' } });
  });

  const names = (page: { items: Array<{ name: string }> }) => page.items.map((i) => i.name);

  it('answers a row per job with its preset, node, markers, comments and status', async () => {
    const page = await encodings.list('search=a&size=100');
    const alpha = page.items.find((i) => i.id === ids.alpha);
    expect(alpha).toMatchObject({
      kind: 'encoding',
      active: true,
      preset: { id: presetA, name: 'H264 720p' },
      inputType: 'uri',
      inputUri: 'srt://10.0.0.1:9000',
      outputTypes: ['hls'],
      outputMarkers: { multiProfile: false, encrypted: true, ad: false },
      worstComment: 'CRITICAL',
      commentCount: 2,
      nodeName: null,
      createdBy: 'admin',
      status: { on: true, state: 'running', workStatus: 'Streaming', cpu: 42.5, rss: 50_000_000, executionNode: 'local', inputs: [{ bps: 3_000_000, srtStat: null }], outputs: [{ position: 0, bps: 2_900_000, srtStat: null }] },
    });
    const alphaJob = await encodings.get(ids.alpha);
    expect([alpha?.createdAt, alpha?.updatedAt, alpha?.status.startedAt]).toEqual([alphaJob.createdAt, alphaJob.updatedAt, alphaJob.status.startedAt]);
    expect(alpha?.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(alpha?.status.uptimeSeconds).toBeGreaterThanOrEqual(59);
    const byId = new Map(page.items.map((i) => [i.id, i]));
    expect(byId.get(ids.beta)).toMatchObject({ inputUri: 'https://origin.example.com/live.m3u8?x=1', nodeName: 'edge-b', node: nodeB, preset: { name: 'HEVC 1080p' }, worstComment: null, commentCount: 0 });
    expect(byId.get(ids.beta)?.status).toMatchObject({ on: true, state: 'stopped', workStatus: 'Waiting', cpu: 0 });
    expect(byId.get(ids.gamma)).toMatchObject({ videoType: 'VOD', outputTypes: ['dash'], outputMarkers: { multiProfile: false, encrypted: false, ad: true } });
    expect(byId.get(ids.gamma)?.status).toMatchObject({ workStatus: 'Failed', cpu: 0, rss: 0 });
    expect(byId.get(ids.delta)).toMatchObject({ outputMarkers: { multiProfile: true, encrypted: false, ad: false }, nodeName: null });
    expect(byId.get(ids.delta)?.status.executionNode).toBe('edge-b');
    const epsilon = (await encodings.list(`search=${ids.epsilon}`)).items[0];
    expect(epsilon).toMatchObject({ inputType: 'playlist', inputUri: null, active: false });
    expect(epsilon.status).toMatchObject({ on: false, workStatus: 'Stopped', cpu: 0, rss: 0, startedAt: null, uptimeSeconds: null, executionNode: null, inputs: [], outputs: [] });
  });

  it('searches the name case-insensitively, or an exact ID', async () => {
    expect(names(await encodings.list('search=BETA'))).toEqual(['beta news']);
    expect(names(await encodings.list('search=mov'))).toEqual(['Gamma Movies']);
    expect(names(await encodings.list(`search=${ids.delta}`))).toEqual(['Delta ABR']);
    expect((await encodings.list('search=100%25')).items).toEqual([]);
  });

  it('filters by type, status, node, preset, output types and input types', async () => {
    expect(names(await encodings.list('type=VOD'))).toEqual(['Gamma Movies']);
    expect(names(await encodings.list('status=active&sort=name&order=asc'))).toEqual(['Alpha Sport', 'beta news', 'Delta ABR', 'Gamma Movies']);
    expect(names(await encodings.list('status=inactive&search=epsilon'))).toEqual(['epsilon']);
    expect(names(await encodings.list('status=streaming&sort=name&order=asc'))).toEqual(['Alpha Sport', 'Delta ABR']);
    expect(names(await encodings.list('status=waiting'))).toEqual(['beta news']);
    expect(names(await encodings.list('status=failed'))).toEqual(['Gamma Movies']);
    // The chosen node (beta) or the node it was placed on (delta, auto).
    await app.db.updateTable('jobs').set({ assigned_node_id: nodeB }).where('id', '=', ids.delta).execute();
    expect(names(await encodings.list(`node=${nodeB}&sort=id&order=asc`))).toEqual(['beta news', 'Delta ABR']);
    expect(names(await encodings.list(`preset=${presetB}`))).toEqual(['beta news']);
    expect(names(await encodings.list(`preset=${presetA},${presetB}&search=e`)).sort()).toEqual(['beta news', 'Delta ABR', 'Gamma Movies', 'epsilon'].sort());
    expect(names(await encodings.list('outputTypes=udp,cmaf&sort=name'))).toEqual(['Delta ABR', 'beta news']);
    // A disabled output does not count: gamma's SRT output is off.
    expect(names(await encodings.list('outputTypes=srt'))).toEqual([]);
    expect(names(await encodings.list('inputTypes=playlist'))).toEqual(['epsilon']);
    expect(names(await encodings.list(`inputTypes=uri&outputTypes=hls&search=alpha`))).toEqual(['Alpha Sport']);
  });

  it('sorts by ID or name, pages, and counts the footer over the whole kind', async () => {
    const all = await encodings.list('sort=name&order=asc&size=500');
    const sorted = [...all.items].sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.id - b.id);
    expect(names(all)).toEqual(names({ items: sorted }));
    const byIdDesc = await encodings.list('size=500');
    expect(byIdDesc.items.map((i) => i.id)).toEqual([...byIdDesc.items.map((i) => i.id)].sort((a, b) => b - a));
    const page2 = await encodings.list('sort=id&order=asc&size=2&page=2');
    expect(page2.items.map((i) => i.id)).toEqual(all.items.map((i) => i.id).sort((a, b) => a - b).slice(2, 4));
    expect(page2).toMatchObject({ page: 2, size: 2, total: all.total });
    const filtered = await encodings.list('status=failed');
    expect(filtered.total).toBe(1);
    expect(filtered.counts).toEqual(all.counts);
    expect(all.counts).toEqual({ total: all.total, active: 4, failed: 1, waiting: 1 });
  });

  it('refuses an unknown filter value, naming the parameter', async () => {
    const { status, body } = await encodings.call<ErrorBody>('GET', '?status=sleeping&outputTypes=udp,carrier-pigeon');
    expect(status).toBe(400);
    expect(body.details?.map((d) => d.path).sort()).toEqual(['query.outputTypes.1', 'query.status']);
  });
});

describe('PUT /api/relays/{id}', () => {
  it('saves a change; a running job shows changedConfigSinceLastStart once its node reports the older configuration', async () => {
    const job = await admin.create(relayBody('Running'));
    await admin.call('POST', `/${job.id}/start`);
    await observe(job, { state: 'running' });
    expect((await admin.get(job.id)).changedConfigSinceLastStart).toBe(false);
    const { status, body } = await admin.call<Job>('PUT', `/${job.id}`, writeOf(await admin.get(job.id), { name: 'Running v2', restartAttempts: 3 }));
    expect(status).toBe(200);
    expect(body).toMatchObject({ name: 'Running v2', restartAttempts: 3, changedConfigSinceLastStart: true, active: true });
    expect((await admin.list(`search=${job.id}`)).items[0].changedConfigSinceLastStart).toBe(true);
    const row = await jobRow(job.id);
    expect(row).toMatchObject({ config_version: 2, restart_seq: 0, name: 'Running v2' });
    expect(row.config).toMatchObject({ name: 'Running v2', restartAttempts: 3 });
    // The node reloads it (what a reload order does to job_status): the mark goes.
    await observe(job, { state: 'running', appliedConfigVersion: 2 });
    expect((await admin.get(job.id)).changedConfigSinceLastStart).toBe(false);
  });

  it('"Update & Restart" also asks the node for a reload', async () => {
    const job = await admin.create(relayBody('Reloaded'));
    await admin.call('POST', `/${job.id}/start`);
    await observe(job, { state: 'running' });
    const { status } = await admin.call<Job>('PUT', `/${job.id}?restart=true`, writeOf(job, { restartAttempts: 4 }));
    expect(status).toBe(200);
    expect(await jobRow(job.id)).toMatchObject({ config_version: 2, restart_seq: 1, restart_mode: 'reload' });
    // Nothing changed, but a pending configuration is applied.
    await admin.call('PUT', `/${job.id}?restart=true`, writeOf(await admin.get(job.id)));
    expect(await jobRow(job.id)).toMatchObject({ config_version: 2, restart_seq: 2, restart_mode: 'reload' });
  });

  it('keeps a saved (locked) job as it is, except for unlocking it', async () => {
    const job = await admin.create(relayBody('Locked', { saved: true }));
    expect(job.saved).toBe(true);
    const refused = await admin.call<ErrorBody>('PUT', `/${job.id}`, writeOf(job, { name: 'Unlocked?' }));
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'LOCKED', message: 'Relay Locked is locked: switch saved off to change it.' });
    const unlocked = await admin.call<Job>('PUT', `/${job.id}`, writeOf(job, { saved: false }));
    expect(unlocked.status).toBe(200);
    expect(unlocked.body.saved).toBe(false);
    expect((await jobRow(job.id)).config_version).toBe(1);
    expect((await admin.call('PUT', `/${job.id}`, writeOf(unlocked.body, { name: 'Unlocked' }))).status).toBe(200);
  });

  it('moves a job to a chosen node, which is where it is placed', async () => {
    const job = await admin.create(relayBody('Pinned'));
    const { body } = await admin.call<Job>('PUT', `/${job.id}`, writeOf(job, { node: localNode }));
    expect(body).toMatchObject({ node: localNode, nodeName: 'local', executionLocationType: 'LOCALHOST' });
    expect(await jobRow(job.id)).toMatchObject({ node_id: localNode, assigned_node_id: localNode });
  });

  it('shows a change in the next page asked for, however often the same page was asked before', async () => {
    const first = await admin.create(relayBody('Order A'));
    const second = await admin.create(relayBody('Order B'));
    const page = async () => (await admin.list('search=Order&sort=name&order=asc')).items.map((i) => `${i.name}:${i.status.workStatus}`);
    expect(await page()).toEqual(['Order A:Stopped', 'Order B:Stopped']);
    expect(await page()).toEqual(['Order A:Stopped', 'Order B:Stopped']);
    await admin.call('PUT', `/${first.id}`, writeOf(first, { name: 'Order C' }));
    expect(await page()).toEqual(['Order B:Stopped', 'Order C:Stopped']);
    await admin.call('POST', `/${second.id}/start`);
    await observe(second, { state: 'running' });
    expect(await page()).toEqual(['Order B:Streaming', 'Order C:Stopped']);
  });

  it('answers 404 for an id of the other kind', async () => {
    const job = await admin.create(relayBody('Only a relay'));
    const { status, body } = await encodings.call<ErrorBody>('GET', `/${job.id}`);
    expect(status).toBe(404);
    expect(body.message).toBe(`No encoding with id ${job.id}`);
  });
});

describe('DELETE /api/relays/{id}', () => {
  it('deletes the job with its status, events and comments', async () => {
    const job = await admin.create(relayBody('Doomed'));
    await admin.call('POST', `/${job.id}/start`);
    await observe(job, { state: 'running' });
    await admin.call('POST', `/${job.id}/comments`, { type: 'WARNING', comment: 'going' });
    await app.db.insertInto('job_events').values({ job_id: job.id, type: 'START', actor_kind: 'user' }).execute();
    expect((await admin.call('DELETE', `/${job.id}`)).body).toEqual({ ok: true });
    expect((await admin.call('GET', `/${job.id}`)).status).toBe(404);
    expect((await admin.call('DELETE', `/${job.id}`)).status).toBe(404);
    for (const table of ['job_status', 'job_events', 'job_comments'] as const) {
      expect(await app.db.selectFrom(table).select('job_id').where('job_id', '=', job.id).execute()).toEqual([]);
    }
  });
});

describe('comments', () => {
  it('adds and deletes notes; the list shows the worst level', async () => {
    const job = await admin.create(relayBody('Commented'));
    const warning = await admin.call<Job['comments'][number]>('POST', `/${job.id}/comments`, { type: 'WARNING', comment: 'audio drops at night' });
    expect(warning.status).toBe(201);
    expect(warning.body).toMatchObject({ type: 'WARNING', comment: 'audio drops at night', createdBy: 'admin' });
    expect((await admin.list(`search=${job.id}`)).items[0]).toMatchObject({ worstComment: 'WARNING', commentCount: 1 });
    expect((await admin.get(job.id)).comments).toEqual([warning.body]);
    expect((await admin.call('DELETE', `/${job.id}/comments/${warning.body.id}`)).status).toBe(200);
    expect((await admin.call('DELETE', `/${job.id}/comments/${warning.body.id}`)).status).toBe(404);
    expect((await admin.list(`search=${job.id}`)).items[0]).toMatchObject({ worstComment: null, commentCount: 0 });
    const empty = await admin.call<ErrorBody>('POST', `/${job.id}/comments`, { type: 'NOTICE', comment: '  ' });
    expect(empty.body.details).toContainEqual(expect.objectContaining({ path: 'body.comment', message: 'Comment is required' }));
  });
});

describe('features and endpoints', () => {
  it('lists the features the engine applies, with their global values from the system settings', async () => {
    await app.db.insertInto('system_settings').values({ key: 'jobFeatures', value: JSON.stringify([{ name: 'staleTimeoutSeconds', status: true, value: '30' }]) }).execute();
    const response = await app.request('/api/job-features', { cookie: (await userWith(app, 'feature-admin', {}, 'ADMIN')).cookie });
    const body = (await response.json()) as { items: Array<{ name: string; global: boolean; globalValue: string | null }> };
    expect(body.items.map((f) => [f.name, f.global, f.globalValue])).toEqual([
      ['staleTimeoutSeconds', true, '30'],
      ['failoverReturnAfterHealthySeconds', false, null],
      ['udpTtl', false, null],
    ]);
  });

  it('keeps the endpoints, empty until set, both required', async () => {
    const { cookie } = await userWith(app, 'endpoints-admin', {}, 'ADMIN');
    const get = async () => (await app.request('/api/endpoints', { cookie })).json();
    expect(await get()).toEqual({ runproxUrl: '', astraUrl: '' });
    const refused = await app.request('/api/endpoints', { method: 'PUT', cookie, json: { runproxUrl: 'http://runprox.local:8080', astraUrl: '' } });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as ErrorBody).details).toContainEqual(expect.objectContaining({ path: 'body.astraUrl', message: 'DVB URL is required' }));
    const endpoints = { runproxUrl: 'http://runprox.local:8080', astraUrl: 'http://astra.local:8000' };
    expect((await app.request('/api/endpoints', { method: 'PUT', cookie, json: endpoints })).status).toBe(200);
    expect(await get()).toEqual(endpoints);
  });
});
