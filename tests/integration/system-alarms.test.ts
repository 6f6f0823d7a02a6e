import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '../../api/config.ts';
import type { Db } from '../../api/db/database.ts';
import { NodesRepository } from '../../api/repositories/nodes.repository.ts';
import { createAlarmsService, type AlarmsService } from '../../api/services/alarms.service.ts';
import { SystemAlarmMonitor, type NodeSystemReadings, type SystemReadings } from '../../api/services/system-alarm-monitor.ts';
import { createTestDatabase } from '../support/db.ts';

/**
 * System alarms (spec 03 Alarms): a watched value that reaches its threshold on a node raises one
 * alarm naming the node, with its deliveries, and one that is back below clears it. The state is
 * kept per node: nodes on either side of a threshold do not flip each other. Every API process
 * runs a monitor; the raised state flips in Postgres, so two monitors reading the same values
 * raise it once. The readings are given to the monitors (what the nodes' samples would say), so
 * the crossing is exact; tests/integration/node-agent-operations.test.ts reads a real agent's.
 */
let database: { db: Db; drop: () => Promise<void> };
let alarms: AlarmsService;
let dir: string;
let core: { id: number; name: string };
let edge: { id: number; name: string };
let readings: Map<number, SystemReadings> = new Map();

const read = async (): Promise<NodeSystemReadings[]> => [core, edge].flatMap((node) => (readings.has(node.id) ? [{ nodeId: node.id, nodeName: node.name, readings: readings.get(node.id) as SystemReadings }] : []));
const monitor = () => new SystemAlarmMonitor(alarms.repo, alarms, { read });

async function history() {
  return (await alarms.history({ page: 1, size: 50, order: 'asc' })).items.map((item) => ({ alarm: item.alarm, cause: item.cause, recipients: item.deliveries.map((d) => `${d.channel} ${d.recipient}`) }));
}
const cpuItem = async () => (await alarms.systemAlarms()).items.find((item) => item.name === 'cpu');

beforeAll(async () => {
  database = await createTestDatabase();
  dir = mkdtempSync(path.join(tmpdir(), 'mediaplane-system-alarms-'));
  alarms = createAlarmsService(database.db, dataPaths(dir));
  const nodes = new NodesRepository(database.db);
  core = await nodes.upsert({ nodeId: 'alarm-core', name: 'core-1', ip: '10.0.0.1', version: 'test' });
  edge = await nodes.upsert({ nodeId: 'alarm-edge', name: 'edge-1', ip: '10.0.0.2', version: 'test' });
  await alarms.updateSettings({ general: { ...(await alarms.defaults()), recipientEmails: [{ id: 1, email: 'noc@example.test' }] } });
  const { items } = await alarms.systemAlarms();
  await alarms.updateSystemAlarms({ items: items.map((item) => ({ name: item.name, value: item.name === 'cpu' ? 90 : item.value, email: item.name === 'cpu', sms: false })) });
}, 60_000);

afterAll(async () => {
  await database?.drop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('system alarms', () => {
  it('raises once when a value reaches its threshold, however many monitors see it, and clears once when it is back below', async () => {
    readings = new Map([[core.id, { cpu: 42 }]]);
    await monitor().check();
    expect(await history()).toEqual([]);

    readings = new Map([[core.id, { cpu: 97.5 }]]);
    await Promise.all([monitor().check(), monitor().check()]);
    expect(await history()).toEqual([{ alarm: 'CPU usage raised on core-1', cause: 'CPU usage 97.5 % on node core-1 reached the threshold 90 %', recipients: ['EMAIL noc@example.test'] }]);
    // Still above: nothing new.
    await monitor().check();
    expect(await history()).toHaveLength(1);
    expect(await cpuItem()).toMatchObject({ raised: true, current: 97.5, nodes: [{ nodeId: core.id, nodeName: 'core-1', raised: true, current: 97.5 }] });

    readings = new Map([[core.id, { cpu: 12 }]]);
    await Promise.all([monitor().check(), monitor().check()]);
    expect((await history()).map((item) => item.alarm)).toEqual(['CPU usage raised on core-1', 'CPU usage cleared on core-1']);
    expect((await history())[1]).toMatchObject({ cause: 'CPU usage 12 % on node core-1 is back below the threshold 90 %' });
    expect(await cpuItem()).toMatchObject({ raised: false, current: 12 });
  });

  it('keeps the state per node: a threshold crossed on one node and not on another raises one alarm, for that node only, and nothing flips', async () => {
    const before = (await history()).length;
    readings = new Map([
      [core.id, { cpu: 20 }],
      [edge.id, { cpu: 95 }],
    ]);
    for (let pass = 0; pass < 3; pass += 1) await Promise.all([monitor().check(), monitor().check()]);
    const added = (await history()).slice(before);
    expect(added).toEqual([{ alarm: 'CPU usage raised on edge-1', cause: 'CPU usage 95 % on node edge-1 reached the threshold 90 %', recipients: ['EMAIL noc@example.test'] }]);
    expect(await cpuItem()).toMatchObject({
      raised: true,
      current: 95,
      nodes: [
        { nodeName: 'core-1', raised: false, current: 20 },
        { nodeName: 'edge-1', raised: true, current: 95 },
      ],
    });

    // The edge comes back below: its alarm clears; the core, never raised, sends nothing.
    readings = new Map([
      [core.id, { cpu: 20 }],
      [edge.id, { cpu: 30 }],
    ]);
    await monitor().check();
    expect((await history()).slice(before).map((item) => item.alarm)).toEqual(['CPU usage raised on edge-1', 'CPU usage cleared on edge-1']);
  });

  it('watches nothing without a channel: a value past a threshold with neither e-mail nor SMS raises nothing', async () => {
    readings = new Map([[core.id, { memory: 99, disk: 99 }]]);
    const before = (await history()).length;
    await monitor().check();
    expect(await history()).toHaveLength(before);
  });
});
