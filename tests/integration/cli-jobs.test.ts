import { spawn, type ChildProcess } from 'node:child_process';
import dgram from 'node:dgram';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalNode, type LocalNode } from '../../api/node/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { waitFor } from '../support/jobs.ts';
import { cliHome, tokenOf, type CliHome } from './cli-run.ts';

/**
 * A relay's life through the real `mediaplane` command against the real API, with a real node
 * running it: a UDP source made by ffmpeg (lavfi test picture), a UDP output received here.
 */

interface JobJson {
  id: number;
  name: string;
  active: boolean;
  input: { type: string; uri: string };
  outputs: Array<{ type: string; uri: string }>;
  comments: Array<{ id: number; type: string; comment: string }>;
  changedConfigSinceLastStart: boolean;
  status: { on: boolean; state: string; workStatus: string; cpu: number; rss: number; uptimeSeconds: number | null; outputs: Array<{ bps: number }> };
}
interface LogJson {
  entries: Array<{ timestamp: string; level: string; text: string }>;
}

const BIN = fileURLToPath(new URL('../../cli/bin.mjs', import.meta.url));

let app: TestApp;
let home: CliHome;
let token: string;
let node: LocalNode;
let nodeId: number;
let sender: ChildProcess;
let sourcePort: number;
const cleanups: Array<() => unknown> = [];

const cli = (args: string[]) => home.run(args, { token });
async function json<T>(args: string[]): Promise<T> {
  const result = await cli([...args, '--json']);
  if (result.exitCode !== 0) throw new Error(`mediaplane ${args.join(' ')} exited ${result.exitCode}: ${result.stderr}`);
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout) as T;
}

async function freeUdpPort(): Promise<number> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

/** A UDP receiver on `port` that counts the MPEG-TS packets (0x47 every 188 bytes) it gets. */
async function receiver(port: number): Promise<{ packets: () => number }> {
  const socket = dgram.createSocket('udp4');
  let packets = 0;
  socket.on('message', (message: Buffer) => {
    for (let i = 0; i + 188 <= message.length; i += 188) if (message[i] === 0x47) packets += 1;
  });
  await new Promise<void>((resolve) => socket.bind(port, '127.0.0.1', resolve));
  cleanups.push(() => socket.close());
  return { packets: () => packets };
}

beforeAll(async () => {
  app = await startTestApp();
  await app.createUser({ username: 'operator', password: 'operator-pass-1', role: 'ADMIN' });
  token = await tokenOf(app, 'operator', 'operator-pass-1');
  home = cliHome(app);
  ({ id: nodeId } = await app.db.selectFrom('nodes').select('id').where('node_id', '=', 'test-node').executeTakeFirstOrThrow());
  node = await startLocalNode({ db: app.db, databaseUrl: app.databaseUrl, bus: app.services.events, nodeId, nodeName: 'local', paths: app.services.paths, sweepIntervalMs: 1000, log: () => {} });
  // The contribution feed: an H.264 MPEG-TS test picture sent at its real rate to a UDP port.
  sourcePort = await freeUdpPort();
  sender = spawn(
    'ffmpeg',
    ['-hide_banner', '-nostdin', '-loglevel', 'error', '-re', '-f', 'lavfi', '-i', 'testsrc=size=160x90:rate=25', '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '25', '-f', 'mpegts', `udp://127.0.0.1:${sourcePort}?pkt_size=1316`],
    { stdio: 'ignore' },
  );
}, 120_000);

afterAll(async () => {
  sender?.kill('SIGKILL');
  for (const cleanup of cleanups.splice(0)) await cleanup();
  await node?.stop();
  home?.remove();
  await app?.close();
});

describe('mediaplane relays', () => {
  it('creates a relay from a YAML file, runs it, reads its log, stops and deletes it', async () => {
    const outputPort = await freeUdpPort();
    const output = await receiver(outputPort);
    const file = path.join(home.configDir, 'relay.yaml');
    writeFileSync(file, ['name: cli relay', `node: ${nodeId}`, 'input:', '  type: uri', `  uri: udp://127.0.0.1:${sourcePort}`, 'outputs:', '  - type: udp', `    uri: udp://127.0.0.1:${outputPort}`, ''].join('\n'));

    const created = await json<JobJson>(['relays', 'create', '--file', file]);
    expect(created).toMatchObject({ name: 'cli relay', active: false, input: { type: 'uri', uri: `udp://127.0.0.1:${sourcePort}` }, outputs: [{ type: 'udp', uri: `udp://127.0.0.1:${outputPort}` }] });
    const { id } = created;

    expect(await json<JobJson>(['relays', 'start', String(id)])).toMatchObject({ id, active: true });
    const streaming = await waitFor(
      async () => {
        const job = await json<JobJson>(['relays', 'get', String(id)]);
        return job.status.workStatus === 'Streaming' && job.status.state === 'running' ? job : undefined;
      },
      'relays get --json to show the relay streaming',
      60_000,
    );
    expect(streaming.status.on).toBe(true);
    // The stream really goes through: MPEG-TS packets arrive at the output.
    await waitFor(async () => output.packets() > 100, 'MPEG-TS packets at the UDP output', 30_000);

    // The table says it too, with the list's footer counts.
    const table = await cli(['relays', 'list']);
    expect(table.exitCode).toBe(0);
    expect(table.stdout).toMatch(new RegExp(`^\\s*${id}\\s+cli relay\\s+Streaming\\s+local\\s+uri`, 'm'));
    expect(table.stdout.trimEnd().split('\n').at(-1)).toBe('Total relays: 1   Active: 1   Failed: 0   Waiting: 0');

    // `top --once --json` lists it among the jobs that are on.
    const top = await json<{ jobs: Array<{ kind: string; id: number; state: string; workStatus: string }> }>(['top', '--once']);
    expect(top.jobs).toContainEqual(expect.objectContaining({ kind: 'relay', id, state: 'running', workStatus: 'Streaming' }));

    // Its log: the node's own line for the start, with the ffmpeg command reading the source.
    const log = await json<LogJson>(['relays', 'logs', String(id), '--lines', '100', '--direction', 'forward']);
    expect(log.entries[0]).toMatchObject({ level: 'NOTICE', text: expect.stringMatching(new RegExp(`^started pid \\d+: ffmpeg .*udp://127\\.0\\.0\\.1:${sourcePort}`)) });
    const text = await cli(['relays', 'logs', String(id), '--lines', '30', '--text', 'started pid']);
    expect(text.stdout).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3} NOTICE {2}started pid \d+: ffmpeg /m);

    // The three restarts: each is a new ffmpeg (a new "started pid" line), the relay streams again.
    const starts = async () => (await json<LogJson>(['relays', 'logs', String(id), '--lines', '100', '--text', 'started pid'])).entries.length;
    for (const how of ['--hard', '--soft'] as const) {
      const before = await starts();
      expect(await json<JobJson>(['relays', 'restart', String(id), how])).toMatchObject({ id, active: true });
      await waitFor(async () => (await starts()) > before, `a new ffmpeg after restart ${how}`, 30_000);
    }
    // A change to the running relay is pending until --reload applies it.
    const changePort = await freeUdpPort();
    const changed = path.join(home.configDir, 'change.yaml');
    writeFileSync(changed, ['outputs:', '  - type: udp', `    uri: udp://127.0.0.1:${changePort}`, ''].join('\n'));
    expect(await json<JobJson>(['relays', 'update', String(id), '--file', changed])).toMatchObject({ changedConfigSinceLastStart: true });
    expect(await json<JobJson>(['relays', 'restart', String(id), '--reload'])).toMatchObject({ id, active: true });
    await waitFor(async () => (await json<JobJson>(['relays', 'get', String(id)])).changedConfigSinceLastStart === false, 'the reload to apply the change', 30_000);
    const back = path.join(home.configDir, 'back.yaml');
    writeFileSync(back, ['outputs:', '  - type: udp', `    uri: udp://127.0.0.1:${outputPort}`, ''].join('\n'));
    await json<JobJson>(['relays', 'update', String(id), '--file', back, '--restart']);
    await waitFor(async () => (await json<JobJson>(['relays', 'get', String(id)])).status.workStatus === 'Streaming', 'streaming again to the first output', 30_000);

    // --follow prints the lines as the node writes them: here the stop.
    const follow = execa('node', [BIN, 'relays', 'logs', String(id), '--follow', '--lines', '30', '--json'], {
      env: { MEDIAPLANE_TOKEN: token, MEDIAPLANE_URL: app.url, MEDIAPLANE_CONFIG_DIR: home.configDir, DATABASE_URL: '' },
      stdin: 'ignore',
      reject: false,
    });
    cleanups.push(() => follow.kill('SIGKILL'));
    let followed = '';
    follow.stdout?.on('data', (chunk: Buffer) => (followed += chunk.toString()));
    // First the last lines already written (one JSON object a line), then the new ones.
    await waitFor(async () => followed.includes('\n'), 'the follow to print the backlog', 30_000);
    expect(JSON.parse(followed.split('\n')[0])).toMatchObject({ level: expect.any(String), text: expect.any(String) });

    expect(await json<JobJson>(['relays', 'stop', String(id)])).toMatchObject({ id, active: false });
    await waitFor(async () => (await json<JobJson>(['relays', 'get', String(id)])).status.state === 'stopped', 'relays get --json to show the relay stopped', 30_000);
    await waitFor(async () => followed.includes('stop requested'), 'the follow to print the stop', 30_000);
    const lines = followed.trim().split('\n').map((line) => JSON.parse(line) as { level: string; text: string });
    expect(lines.some((entry) => entry.text.startsWith('stop requested'))).toBe(true);
    follow.kill('SIGINT');
    expect((await follow).exitCode).toBe(0);

    const refused = await cli(['relays', 'delete', String(id)]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/^CONFIRMATION_REQUIRED: /);
    expect(await json<{ ok: boolean }>(['relays', 'delete', String(id), '--yes'])).toEqual({ ok: true });
    const gone = await cli(['relays', 'get', String(id)]);
    expect(gone.exitCode).toBe(1);
    expect(gone.stderr).toMatch(/^NOT_FOUND: /);
  }, 240_000);

  it('comments, saves as a template, creates from it and acts in bulk', async () => {
    const file = path.join(home.configDir, 'quiet.json');
    writeFileSync(file, JSON.stringify({ name: 'quiet relay', input: { type: 'uri', uri: 'udp://127.0.0.1:9' }, outputs: [{ type: 'udp', uri: 'udp://127.0.0.1:10' }] }));
    const { id } = await json<JobJson>(['relays', 'create', '--file', file]);

    const comment = await json<{ id: number; type: string }>(['relays', 'comments', 'add', String(id), '--type', 'WARNING', 'check', 'the', 'feed']);
    expect((await json<JobJson>(['relays', 'get', String(id)])).comments).toEqual([expect.objectContaining({ id: comment.id, type: 'WARNING', comment: 'check the feed' })]);
    expect((await cli(['relays', 'comments', 'delete', String(id), String(comment.id)])).stdout.trim()).toBe(`Comment ${comment.id} deleted.`);

    const template = await json<{ id: number; name: string; isTemplate: boolean }>(['relays', 'save-as-template', String(id), '--create', 'Quiet']);
    expect(template).toMatchObject({ name: 'Quiet', isTemplate: true });
    const templates = await json<{ items: Array<{ id: number; name: string }> }>(['templates', 'list', '--kind', 'relay']);
    expect(templates.items.map((t) => t.name)).toEqual(['Quiet']);
    const copy = await json<JobJson>(['templates', 'use', String(template.id), '--kind', 'relay', '--name', 'quiet copy']);
    expect(copy).toMatchObject({ name: 'quiet copy', input: { uri: 'udp://127.0.0.1:9' } });

    const renamed = path.join(home.configDir, 'rename.yaml');
    writeFileSync(renamed, 'name: quieter copy\n');
    expect((await cli(['relays', 'update', String(copy.id), '--file', renamed])).stdout.trim()).toBe(`Relay ${copy.id} updated.`);
    expect((await json<JobJson>(['relays', 'get', String(copy.id)])).name).toBe('quieter copy');

    const bulk = await cli(['relays', 'bulk', 'delete', String(id), String(copy.id), '999999', '--yes']);
    expect(bulk.exitCode).toBe(1);
    expect(bulk.stdout.trim().split('\n')).toEqual([`Relay ${id}: deleted`, `Relay ${copy.id}: deleted`, expect.stringMatching(/^Relay 999999: NOT_FOUND: /)]);
    expect((await cli(['templates', 'delete', String(template.id), '--kind', 'relay', '--yes'])).stdout.trim()).toBe(`Template ${template.id} deleted.`);
    const left = (await json<{ items: Array<{ id: number }> }>(['relays', 'list'])).items.map((job) => job.id);
    expect(left).not.toContain(id);
    expect(left).not.toContain(copy.id);
  }, 180_000);
});
