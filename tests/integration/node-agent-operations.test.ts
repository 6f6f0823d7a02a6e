import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodeRow } from '../../api/db/tables.ts';
import { NodeSamplePublisher } from '../../api/node/sample-publisher.ts';
import { readNodeSystems, SystemAlarmMonitor } from '../../api/services/system-alarm-monitor.ts';
import { SystemSampler } from '../../api/services/system-sampler.ts';
import type { Schemas } from '../../openapi/client/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { insertJob, waitFor } from '../support/jobs.ts';
import { processesWithArgument } from '../support/processes.ts';
import { readDashboardStatuses } from './dashboard-support.ts';
import { ofType, readToolStream, waitUntilGone, type Arrived } from './tools-support.ts';

/**
 * The operations areas on a cluster: an API process (this test's app, which runs no node of its
 * own) and a real `mediaplane agent` process on the same Postgres. The agent samples itself and
 * publishes its samples, so the API serves its live dashboard; a tool asked of the agent's node is
 * handed to the agent over the bus and run by its engine, its results streamed back as they come;
 * the system alarms are kept per node.
 */
const BIN = fileURLToPath(new URL('../../cli/bin.mjs', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

let app: TestApp;
let admin: string;
let dir: string;
let agent: ResultPromise | undefined;
let edge: NodeRow;
let agentLog = '';

/** The parent of a process, as /proc tells it. */
function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

async function toolStream(body: unknown, onEvent?: Parameters<typeof readToolStream>[2], signal?: AbortSignal): Promise<Arrived[]> {
  const started = Date.now();
  const response = await app.request('/api/tools/ping', { method: 'POST', cookie: admin, json: body, signal });
  expect(response.status, response.status === 200 ? '' : await response.clone().text()).toBe(200);
  return readToolStream(response, started, onEvent);
}

/** Read `count` status events of a dashboard stream, then close it. */
async function readStatuses(query: string, count: number): Promise<Schemas['DashboardStatus'][]> {
  const { statuses, close } = await readDashboardStatuses(app, admin, count, query);
  close();
  return statuses;
}

beforeAll(async () => {
  app = await startTestApp();
  const user = await app.createUser({ username: 'admin', role: 'ADMIN' });
  admin = await app.signIn(user.username, user.password);
  dir = mkdtempSync(path.join(tmpdir(), 'mediaplane-agent-ops-'));
  agent = execa('node', [BIN, 'agent', '--name', 'edge-7'], {
    cwd: ROOT,
    env: { DATABASE_URL: app.databaseUrl, MEDIAPLANE_DATA_DIR: path.join(dir, 'agent') },
    reject: false,
    all: true,
  });
  agent.all?.on('data', (chunk: Buffer) => (agentLog += chunk.toString()));
  try {
    edge = await waitFor(() => app.db.selectFrom('nodes').selectAll().where('name', '=', 'edge-7').executeTakeFirst(), 'the agent registered', 60_000);
    // The agent listens to the bus once its node started: its first answer to a watch says so.
    await waitFor(async () => (await app.services.samples.once(edge.id, 1000)) !== undefined, 'the agent answering a watch', 60_000);
  } catch (error) {
    throw new Error(`${(error as Error).message}; the agent said:\n${agentLog}`);
  }
}, 120_000);

afterAll(async () => {
  if (agent) {
    agent.kill('SIGTERM');
    await agent;
  }
  await app?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the dashboard of an agent\'s node', () => {
  it('serves the live samples the agent publishes of itself, and fills the nodes table with them', async () => {
    const response = await app.request(`/api/dashboard?node=${edge.id}`, { cookie: admin });
    expect(response.status).toBe(200);
    const once = (await response.json()) as Schemas['DashboardStatus'];
    expect(once).toMatchObject({ nodeId: edge.id, nodeName: 'edge-7', live: true, rixjobUser: os.userInfo().username });
    expect(once.cpuCoreCount).toBe(os.cpus().length);
    expect(once.memoryTotal).toBeGreaterThan(0);

    const statuses = await readStatuses(`?node=${edge.id}`, 3);
    expect(statuses.every((s) => s.live && s.nodeId === edge.id && s.cpu !== null)).toBe(true);
    // A sample every 2 s, each one new.
    expect(new Set(statuses.map((s) => s.at)).size).toBe(3);
    const row = statuses[2].nodes.find((n) => n.nodeId === edge.id);
    expect(row).toMatchObject({ nodeName: 'edge-7', nodeType: 'REMOTE', status: 'ONLINE', live: true });
    expect(row?.cpu).toEqual(expect.any(Number));
    expect(row?.memory).toBeGreaterThan(0);
    // The API process's own sampler took none of them: the agent sampled itself.
    expect(app.services.sampler.samples).toBe(0);
  });

  it('shows every node of the table live at once, the selected one or not', async () => {
    // A second node in this process: only its sampling, publishing as every node does.
    const local = await app.db.selectFrom('nodes').selectAll().where('node_id', '=', 'test-node').executeTakeFirstOrThrow();
    const publisher = new NodeSamplePublisher(app.services.events, new SystemSampler(), { id: local.id, name: local.name, isLeader: () => false });
    publisher.start();
    try {
      const statuses = await readStatuses(`?node=${edge.id}`, 3);
      const rows = statuses[2].nodes;
      expect(rows.map((n) => [n.nodeName, n.live])).toEqual([
        ['edge-7', true],
        ['local', true],
      ]);
      expect(rows.find((n) => n.nodeName === 'local')?.cpu).toEqual(expect.any(Number));
      expect(publisher.published).toBeGreaterThan(0);
    } finally {
      publisher.stop();
    }
  });
});

describe('a tool run on an agent\'s node', () => {
  it('hands a ping of 127.0.0.1 to the agent, whose engine runs it, and streams each reply as it comes', async () => {
    let byAgent: number[] = [];
    const events = await toolStream({ address: '127.0.0.1', count: 3, node: edge.id }, (event) => {
      if (event.type === 'line' && event.kind === 'reply' && byAgent.length === 0) byAgent = processesWithArgument('ping', '127.0.0.1').filter((pid) => parentOf(pid) === agent?.pid);
    });
    expect(events[0].event).toMatchObject({ type: 'start', tool: 'ping', target: '127.0.0.1', nodeId: edge.id, nodeName: 'edge-7' });
    // While the replies came, the agent process had the ping running.
    expect(byAgent).toHaveLength(1);
    const replies = events.filter((e) => e.event.type === 'line' && e.event.kind === 'reply');
    expect(replies.map((e) => e.event.type === 'line' && e.event.reply?.seq)).toEqual([1, 2, 3]);
    const end = events.at(-1) as Arrived;
    expect(end.event).toMatchObject({ type: 'end', reason: 'completed', exitCode: 0 });
    // One request a second: the first reply reached the client about 2 s before the end.
    expect(end.atMs - replies[0].atMs).toBeGreaterThan(1500);
    expect(ofType(events, 'summary')[0].summary).toMatchObject({ transmitted: 3, received: 3, lossPercent: 0 });
  });

  it('runs the ping as a child of the agent process, and ends it there when the client aborts', async () => {
    const abort = new AbortController();
    let pid = 0;
    let parent = 0;
    const events = await toolStream(
      { address: '127.61.0.7', count: 1000, node: edge.id },
      (event) => {
        if (event.type === 'line' && event.kind === 'reply' && !pid) {
          [pid] = processesWithArgument('ping', '127.61.0.7');
          parent = parentOf(pid);
          abort.abort();
        }
      },
      abort.signal,
    );
    expect(ofType(events, 'line').length).toBeGreaterThan(0);
    expect(pid).toBeGreaterThan(0);
    expect(parent).toBe(agent?.pid);
    await waitUntilGone(pid, 'the agent ended ping after the abort');
    expect(processesWithArgument('ping', '127.61.0.7')).toEqual([]);
  });
});

describe('system alarms on a cluster', () => {
  it('raises a threshold crossed on the agent\'s node once, for that node only, from the samples both nodes publish', async () => {
    const local = await app.db.selectFrom('nodes').selectAll().where('node_id', '=', 'test-node').executeTakeFirstOrThrow();
    const publisher = new NodeSamplePublisher(app.services.events, new SystemSampler(), { id: local.id, name: local.name, isLeader: () => false });
    publisher.start();
    try {
      const { alarms, nodes, samples } = app.services;
      await alarms.updateSettings({ general: { ...(await alarms.defaults()), recipientEmails: [{ id: 1, email: 'noc@example.test' }] } });
      const { items } = await alarms.systemAlarms();
      await alarms.updateSystemAlarms({ items: items.map((item) => ({ name: item.name, value: item.name === 'failedJobs' ? 1 : item.value, email: item.name === 'failedJobs', sms: false })) });
      // A job that failed on the agent's node (switched off, so no node touches it).
      const job = await insertJob(app.db, 'relay', { name: 'failed on edge', input: { type: 'uri', uri: 'udp://239.0.0.1:1234' } } as never, { active: false, nodeId: edge.id });
      await app.db.insertInto('job_status').values({ job_id: job.id, node_id: edge.id, state: 'failed', pid: null, input_bps: null, output_bps: null, active_input: null, started_at: null, last_reset_at: null, reason: 'input_unreachable', reason_detail: null, srt_stats: null, io_rates: null }).execute();

      const read = () => readNodeSystems(samples, nodes, alarms.repo);
      const readings = await read();
      expect(readings.map((r) => [r.nodeName, r.readings.failedJobs]).sort()).toEqual([
        ['edge-7', 1],
        ['local', 0],
      ]);
      // Two API processes' monitors, three passes each: one alarm.
      for (let pass = 0; pass < 3; pass += 1) {
        await Promise.all([new SystemAlarmMonitor(alarms.repo, alarms, { read }).check(), new SystemAlarmMonitor(alarms.repo, alarms, { read }).check()]);
      }
      const history = (await alarms.history({ page: 1, size: 50, order: 'asc' })).items;
      expect(history.map((item) => item.alarm)).toEqual(['Failed jobs raised on edge-7']);
      expect(history[0].cause).toBe('Failed jobs 1 jobs on node edge-7 reached the threshold 1 jobs');
      const failedJobs = (await alarms.systemAlarms()).items.find((item) => item.name === 'failedJobs');
      expect(failedJobs?.nodes.map((n) => [n.nodeName, n.raised, n.current])).toEqual([
        ['edge-7', true, 1],
        ['local', false, 0],
      ]);
    } finally {
      publisher.stop();
    }
  });
});
