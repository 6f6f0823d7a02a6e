import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '../../api/config.ts';
import type { SystemReadings } from '../../api/services/system-alarm-monitor.ts';
import { SystemAlarmMonitor } from '../../api/services/system-alarm-monitor.ts';
import { createAlarmsService, type AlarmsService } from '../../api/services/alarms.service.ts';
import { createTestDatabase } from '../support/db.ts';
import type { Db } from '../../api/db/database.ts';

/**
 * System alarms (spec 03 Alarms): a watched value that reaches its threshold raises one alarm with
 * its deliveries, and one that is back below clears it. Every API process runs a monitor; the raised
 * state flips in Postgres, so two monitors reading the same values raise it once. The readings are
 * given to the monitors (what systeminformation would read), so the crossing is exact.
 */
let database: { db: Db; drop: () => Promise<void> };
let alarms: AlarmsService;
let dir: string;
let readings: SystemReadings = {};

const monitor = () => new SystemAlarmMonitor(alarms.repo, alarms, { read: async () => readings });

async function history() {
  return (await alarms.history({ page: 1, size: 50, order: 'asc' })).items.map((item) => ({ alarm: item.alarm, cause: item.cause, recipients: item.deliveries.map((d) => `${d.channel} ${d.recipient}`) }));
}

beforeAll(async () => {
  database = await createTestDatabase();
  dir = mkdtempSync(path.join(tmpdir(), 'mediaplane-system-alarms-'));
  alarms = createAlarmsService(database.db, dataPaths(dir));
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
    readings = { cpu: 42 };
    await monitor().check();
    expect(await history()).toEqual([]);

    readings = { cpu: 97.5 };
    await Promise.all([monitor().check(), monitor().check()]);
    expect(await history()).toEqual([{ alarm: 'CPU usage raised', cause: 'CPU usage 97.5 % reached the threshold 90 %', recipients: ['EMAIL noc@example.test'] }]);
    // Still above: nothing new.
    await monitor().check();
    expect(await history()).toHaveLength(1);
    expect((await alarms.systemAlarms()).items.find((item) => item.name === 'cpu')).toMatchObject({ raised: true, current: 97.5 });

    readings = { cpu: 12 };
    await Promise.all([monitor().check(), monitor().check()]);
    expect((await history()).map((item) => item.alarm)).toEqual(['CPU usage raised', 'CPU usage cleared']);
    expect((await history())[1]).toMatchObject({ cause: 'CPU usage 12 % is back below the threshold 90 %' });
    expect((await alarms.systemAlarms()).items.find((item) => item.name === 'cpu')).toMatchObject({ raised: false, current: 12 });
  });

  it('watches nothing without a channel: a value past a threshold with neither e-mail nor SMS raises nothing', async () => {
    readings = { memory: 99, disk: 99 };
    const before = (await history()).length;
    await monitor().check();
    expect(await history()).toHaveLength(before);
  });
});
