import type { z } from 'zod';
import type { SystemAlarmName } from '../../openapi/schemas/alarms.ts';
import type { AlarmsRepository } from '../repositories/alarms.repository.ts';
import { isNodeOnline, type NodesRepository } from '../repositories/nodes.repository.ts';
import type { AlarmsService } from './alarms.service.ts';
import type { NodeSamples } from './node-samples.ts';
import { SAMPLE_INTERVAL_MS } from './system-sampler.ts';

type Name = z.infer<typeof SystemAlarmName>;
export type SystemReadings = Partial<Record<Name, number>>;

/** What the thresholds watch on one node. */
export interface NodeSystemReadings {
  nodeId: number;
  nodeName: string;
  readings: SystemReadings;
}

const DEFAULT_INTERVAL_MS = 15_000;
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * Reads what the thresholds watch on every online node, from the sample each node published of
 * itself (api/services/node-samples.ts): CPU, memory and disk in percent as its dashboard shows
 * them, bandwidth (in and out, loopback left out) in Mbit/s; and the failed jobs it ran. The
 * nodes stay watched `holdMs` after, so the next pass finds their samples live. A node that
 * publishes nothing within 6 s is left out of this pass.
 */
export async function readNodeSystems(samples: NodeSamples, nodes: NodesRepository, repo: AlarmsRepository, holdMs = 2 * DEFAULT_INTERVAL_MS): Promise<NodeSystemReadings[]> {
  const online = (await nodes.list()).filter((n) => isNodeOnline(n));
  const [latest, failed] = await Promise.all([samples.current(online.map((n) => n.id), { waitMs: 3 * SAMPLE_INTERVAL_MS, holdMs }), repo.failedJobsByNode()]);
  return online.flatMap((node) => {
    const sample = latest.get(node.id);
    if (!sample) return [];
    const { host } = sample;
    return [
      {
        nodeId: node.id,
        nodeName: node.name,
        readings: {
          cpu: round(host.cpu),
          memory: round(host.memoryPercentage),
          disk: round(host.hddPercentage),
          failedJobs: failed.get(node.id) ?? 0,
          bandwidth: round((host.bandwidthIn + host.bandwidthOut) / 1e6, 2),
        },
      },
    ];
  });
}

export interface SystemAlarmMonitorOptions {
  /** The readings of the nodes: readNodeSystems in the server. Without it the monitor reads no node. */
  read?: () => Promise<NodeSystemReadings[]>;
  intervalMs?: number;
  log?: (line: string) => void;
  /** An alarm was raised or cleared with its deliveries queued (the dispatcher sends them at once). */
  onRaised?: () => void;
}

/**
 * Raises a system alarm when a watched value reaches its threshold on a node and clears it when it
 * is back below there; each raise and clear is an alarm naming the node, with its deliveries. The
 * state is kept per node and threshold, so nodes on either side of a threshold do not flip each
 * other. Every API process runs one: the state flips with one conditional UPDATE, so only one
 * process raises (or clears) each time.
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
    this.interval = setInterval(() => void this.check(), this.options.intervalMs ?? DEFAULT_INTERVAL_MS);
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
    if (watched.length === 0 || !this.options.read) return;
    const nodes = await this.options.read();
    const defaults = await this.alarms.defaults();
    for (const { nodeId, nodeName, readings } of nodes) {
      for (const item of watched) {
        const current = readings[item.name];
        if (current === undefined) continue;
        const raised = current >= item.value;
        if (!(await this.repo.flipSystemState(nodeId, item.name, raised, current))) continue;
        const alarm = `${item.label} ${raised ? 'raised' : 'cleared'} on ${nodeName}`;
        const cause = `${item.label} ${current} ${item.unit} on node ${nodeName} ${raised ? 'reached' : 'is back below'} the threshold ${item.value} ${item.unit}`;
        const subject = `Mediaplane system alarm: ${alarm}`;
        const body = `${cause}.\nNode: ${nodeName} (${nodeId})\nGroup: ${item.group}\nTime: ${new Date().toISOString()}`;
        const deliveries = await this.alarms.deliveriesFor(defaults, { email: item.email, sms: item.sms }, subject, body);
        await this.repo.raise({ type: 'SYSTEM', resource: item.name, alarm, cause }, deliveries);
        this.options.log?.(`${subject}: ${deliveries.length} deliveries queued`);
        this.options.onRaised?.();
      }
    }
  }
}
