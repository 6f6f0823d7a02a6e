import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalNode, type LocalNode } from '../../api/node/index.ts';
import { JobRuntimeRepository } from '../../api/repositories/job-runtime.repository.ts';
import type { SrtStats } from '../../engine/types.ts';
import type { Schemas } from '../../openapi/client/index.ts';
import { makeTestMedia } from '../fixtures/media/lavfi.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { insertJob, setDesired, waitFor } from '../support/jobs.ts';

type JobMonitor = Schemas['JobMonitor'];
type ErrorBody = Schemas['Error'];

let app: TestApp;
let adminCookie: string;
let nodeId: number;
let node: LocalNode | undefined;

const stats = (packets: number): SrtStats => ({
  packets,
  bytes: packets * 1316,
  packetsLost: 2,
  packetsRetransmitted: 3,
  bytesRetransmitted: 3 * 1316,
  packetsDropped: 0,
  bytesDropped: 0,
  bandwidthMbps: 100,
  rateMbps: 4.5,
  negotiatedLatencyMs: 120,
  rttMs: 0.4,
  connections: 1,
});

async function monitor(kind: 'relay' | 'encoding', id: number, cookie = adminCookie): Promise<JobMonitor> {
  const response = await app.request(`/api/${kind}s/${id}/monitor`, { cookie });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as JobMonitor;
}

beforeAll(async () => {
  app = await startTestApp();
  const admin = await app.createUser({ username: 'admin', role: 'ADMIN' });
  adminCookie = await app.signIn(admin.username, admin.password);
  ({ id: nodeId } = await app.db.selectFrom('nodes').select('id').where('node_id', '=', 'test-node').executeTakeFirstOrThrow());
});
afterAll(async () => {
  await node?.stop();
  await app.close();
});

describe('GET /api/relays/{id}/monitor', () => {
  it('lists what a browser can play of each enabled output: the playlist or manifest under /streams/, the MPEG-TS stream', async () => {
    const job = await insertJob(app.db, 'relay', {
      name: 'monitored',
      input: { type: 'uri', uri: 'udp://239.1.1.1:5000' },
      outputs: [
        { type: 'udp', uri: 'udp://239.2.2.2:5000' },
        { type: 'hls', uri: 'live/channel one' },
        { type: 'dash', uri: '/live/ch2/' },
        { type: 'cmaf', uri: 'live/ch3' },
        { type: 'mpegts' },
        { type: 'hls', uri: 'live/off', disabled: true },
      ],
    } as never);
    const body = await monitor('relay', job.id);
    expect(body.deliveries.map(({ outputPosition, outputType, type, url, deliveryType, token }) => ({ outputPosition, outputType, type, url, deliveryType, token }))).toEqual([
      { outputPosition: 1, outputType: 'hls', type: 'hls', url: '/streams/live/channel%20one/index.m3u8', deliveryType: 'LOCAL_STORAGE', token: null },
      { outputPosition: 2, outputType: 'dash', type: 'dash', url: '/streams/live/ch2/manifest.mpd', deliveryType: 'LOCAL_STORAGE', token: null },
      { outputPosition: 3, outputType: 'cmaf', type: 'hls', url: '/streams/live/ch3/master.m3u8', deliveryType: 'LOCAL_STORAGE', token: null },
      { outputPosition: 3, outputType: 'cmaf', type: 'dash', url: '/streams/live/ch3/manifest.mpd', deliveryType: 'LOCAL_STORAGE', token: null },
      { outputPosition: 4, outputType: 'mpegts', type: 'mpegts', url: `/streams/mpegts/relay-${job.id}.ts`, deliveryType: 'LOCAL_STORAGE', token: null },
    ]);
    expect(body.deliveries[0].uri).toBe('live/channel one');
    for (const delivery of body.deliveries) expect(delivery.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(body.deliveries.map((d) => d.uuid)).size).toBe(5);
    expect((await monitor('relay', job.id)).deliveries.map((d) => d.uuid)).toEqual(body.deliveries.map((d) => d.uuid));
    expect(body).toMatchObject({ inputs: [], outputs: [], state: null });
  });

  it('gives an URL the product really serves: the playlist of a running relay\'s HLS output', async () => {
    const source = await makeTestMedia(path.join(path.dirname(app.services.paths.logsDir), 'monitor-source.ts'), { seconds: 30, width: 160, height: 90 });
    node = await startLocalNode({ db: app.db, databaseUrl: app.databaseUrl, bus: app.services.events, nodeId, nodeName: 'local', paths: app.services.paths, sweepIntervalMs: 1000, log: () => {} });
    const job = await insertJob(app.db, 'relay', { name: 'hls relay', input: { type: 'uri', uri: source }, outputs: [{ type: 'hls', uri: 'monitor/hls', adaptiveOptions: { segmentDuration: 1 } }] } as never, { active: true, nodeId });
    await setDesired(app.db, app.services.events, job.id, { active: true });
    const [delivery] = (await monitor('relay', job.id)).deliveries;
    expect(delivery.url).toBe('/streams/monitor/hls/index.m3u8');
    const playlist = await waitFor(async () => {
      const response = await app.request(delivery.url);
      return response.status === 200 ? response.text() : undefined;
    }, 'the HLS playlist served', 30_000);
    expect(playlist).toMatch(/^#EXTM3U/);
    expect(playlist).toMatch(/\.ts\s*$/m);
    await setDesired(app.db, app.services.events, job.id, { active: false });
    await waitFor(async () => (await app.db.selectFrom('job_status').select('state').where('job_id', '=', job.id).executeTakeFirst())?.state === 'stopped', 'the relay stopped');
  }, 60_000);

  it('shows the SRT statistics of inputs and outputs while the job runs, none once it stopped', async () => {
    const job = await insertJob(app.db, 'relay', {
      name: 'srt relay',
      input: { type: 'uri', uri: 'srt://127.0.0.1:9000' },
      outputs: [{ type: 'udp', uri: 'udp://127.0.0.1:6000' }, { type: 'srt', uri: 'srt://127.0.0.1:9001' }],
    } as never);
    const runtime = new JobRuntimeRepository(app.db);
    const links = [
      { direction: 'input', index: 0, stats: stats(1000) },
      { direction: 'output', index: 1, stats: stats(990) },
    ];
    await runtime.writeStatus(job.id, nodeId, { state: 'running', srtStats: links });
    const running = await monitor('relay', job.id);
    expect(running.state).toBe('running');
    expect(running.inputs).toEqual([{ index: 0, srtStat: stats(1000) }]);
    expect(running.outputs).toEqual([{ position: 1, srtStat: stats(990) }]);
    expect(running.deliveries).toEqual([]);
    await runtime.writeStatus(job.id, nodeId, { state: 'stopped' });
    expect(await monitor('relay', job.id)).toMatchObject({ state: 'stopped', inputs: [], outputs: [] });
  });

  it('needs the view permission, and answers 404 for the other kind', async () => {
    const job = await insertJob(app.db, 'encoding', { name: 'watched', relayVideo: true, input: { type: 'uri', uri: 'udp://239.1.1.1:5000' }, outputs: [{ type: 'dash', uri: 'enc/dash' }] } as never);
    const viewer = await app.createUser({ username: 'encoding-viewer', permissions: { encoding: { level: 'ENCODING_VIEW', hide: false } } });
    const relayEditor = await app.createUser({ username: 'relay-editor', permissions: { relay: { level: 'RELAY_EDIT', hide: false } } });
    expect((await monitor('encoding', job.id, await app.signIn(viewer.username, viewer.password))).deliveries.map((d) => d.url)).toEqual(['/streams/enc/dash/manifest.mpd']);
    const denied = await app.request(`/api/encodings/${job.id}/monitor`, { cookie: await app.signIn(relayEditor.username, relayEditor.password) });
    expect(denied.status).toBe(403);
    const other = await app.request(`/api/relays/${job.id}/monitor`, { cookie: adminCookie });
    expect(other.status).toBe(404);
    expect(((await other.json()) as ErrorBody).message).toBe(`No relay with id ${job.id}`);
  });
});
