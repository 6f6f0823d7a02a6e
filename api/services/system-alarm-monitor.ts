import si from 'systeminformation';
import type { SystemAlarmName } from '../../openapi/schemas/alarms.ts';
import type { AlarmsRepository } from '../repositories/alarms.repository.ts';
import type { AlarmsService } from './alarms.service.ts';
import type { z } from 'zod';

type Name = z.infer<typeof SystemAlarmName>;
export type SystemReadings = Partial<Record<Name, number>>;

/** Reads what the thresholds watch: CPU, memory and fullest disk in percent, bandwidth in Mbit/s. */
export async function readSystem(repo: AlarmsRepository): Promise<SystemReadings> {
  const [load, mem, disks, net, failedJobs] = await Promise.all([si.currentLoad(), si.mem(), si.fsSize(), si.networkStats('*'), repo.failedJobsCount()]);
  const disk = Math.max(0, ...disks.filter((d) => d.size > 0).map((d) => d.use ?? 0));
  const bytesPerSecond = net.reduce((sum, n) => sum + Math.max(0, n.rx_sec ?? 0) + Math.max(0, n.tx_sec ?? 0), 0);
  return {
    cpu: Math.round(load.currentLoad * 10) / 10,
    memory: Math.round(((mem.total - mem.available) / mem.total) * 1000) / 10,
    disk: Math.round(disk * 10) / 10,
    failedJobs,
    bandwidth: Math.round((bytesPerSecond * 8) / 1e4) / 100,
  };
}

export interface SystemAlarmMonitorOptions {
  intervalMs?: number;
  read?: () => Promise<SystemReadings>;
  log?: (line: string) => void;
}

/**
 * Raises a system alarm when a watched value reaches its threshold and clears it when it is back
 * below; each raise and clear is an alarm with its deliveries. Every API process runs one: the
 * state flips with one conditional UPDATE, so only one process raises (or clears) each time.
 */
export class SystemAlarmMonitor {
  private interval?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly repo: AlarmsRepository,
    private readonly alarms: AlarmsService,
    private readonly options: SystemAlarmMonitorOptions = {},
  ) {}

  start(): void {
    this.interval = setInterval(() => void this.check(), this.options.intervalMs ?? 15_000);
    this.interval.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.interval);
    await this.running;
  }

  check(): Promise<void> {
    this.running ??= this.pass()
      .catch((error: Error) => this.options.log?.(`system alarms: ${error.message}`))
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  private async pass(): Promise<void> {
    const { items } = await this.alarms.systemAlarms();
    const watched = items.filter((item) => item.email || item.sms);
    if (watched.length === 0) return;
    const readings = await (this.options.read ?? (() => readSystem(this.repo)))();
    const defaults = await this.alarms.defaults();
    for (const item of watched) {
      const current = readings[item.name];
      if (current === undefined) continue;
      const raised = current >= item.value;
      if (!(await this.repo.flipSystemState(item.name, raised, current))) continue;
      const alarm = `${item.label} ${raised ? 'raised' : 'cleared'}`;
      const cause = `${item.label} ${current} ${item.unit} ${raised ? 'reached' : 'is back below'} the threshold ${item.value} ${item.unit}`;
      const subject = `Mediaplane system alarm: ${alarm}`;
      const body = `${cause}.\nGroup: ${item.group}\nTime: ${new Date().toISOString()}`;
      const deliveries = await this.alarms.deliveriesFor(defaults, { email: item.email, sms: item.sms }, subject, body);
      await this.repo.raise({ type: 'SYSTEM', resource: item.name, alarm, cause }, deliveries);
      this.options.log?.(`${subject}: ${deliveries.length} deliveries queued`);
    }
  }
}
