import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PRODUCT_VERSION } from '../../openapi/version.ts';
import type { DataPaths } from '../config.ts';
import type { NodeRow } from '../db/tables.ts';
import { NotFoundError } from '../errors.ts';
import type { NodesRepository } from '../repositories/nodes.repository.ts';
import type { StatisticsRepository, TaskCounts } from '../repositories/statistics.repository.ts';
import type { MachineSample, SystemSampler } from './system-sampler.ts';

function osUser(): string {
  try {
    return os.userInfo().username;
  } catch {
    return String(process.getuid?.() ?? 'unknown');
  }
}

/**
 * The dashboard of spec 03: the readings of a node. The node this server runs on is read live by
 * the shared SystemSampler; another node is known here only by what it stores (tasks, version).
 */
export class DashboardService {
  private readonly user = osUser();

  constructor(
    private readonly nodes: NodesRepository,
    private readonly statistics: StatisticsRepository,
    private readonly sampler: SystemSampler,
    private readonly paths: DataPaths,
  ) {}

  /** This server's node id (the registration file of its data directory), when it registered. */
  private localNodeId(): string | undefined {
    try {
      return readFileSync(path.join(path.dirname(this.paths.logsDir), 'node-id'), 'utf8').trim();
    } catch {
      return undefined;
    }
  }

  /** The node asked for (404 when unknown) and whether it is this machine. */
  async resolve(nodeId?: number): Promise<{ node: NodeRow | undefined; local: boolean; single: boolean }> {
    const all = await this.nodes.list();
    const mine = this.localNodeId();
    if (nodeId === undefined) {
      const node = all.find((n) => n.node_id === mine) ?? (all.length === 1 ? all[0] : undefined);
      return { node, local: true, single: all.length <= 1 };
    }
    const node = all.find((n) => n.id === nodeId);
    if (!node) throw new NotFoundError(`Node ${nodeId} not found`);
    return { node, local: node.node_id === mine || (all.length === 1 && mine === undefined), single: all.length <= 1 };
  }

  private compose(target: { node: NodeRow | undefined; local: boolean; single: boolean }, tasks: TaskCounts, sample: MachineSample | undefined) {
    const host = target.local ? sample?.host : undefined;
    return {
      nodeId: target.node?.id ?? null,
      nodeName: target.node?.name ?? null,
      live: target.local,
      at: (sample?.at ?? new Date()).toISOString(),
      cpu: host?.cpu ?? null,
      cpuCoreCount: host?.cpuCoreCount ?? null,
      cpuAverageLoad: host?.cpuAverageLoad ?? null,
      uptime: host?.uptime ?? null,
      localTime: host?.localTime ?? null,
      timezone: host?.timezone ?? null,
      memoryTotal: host?.memoryTotal ?? null,
      memoryAvailable: host?.memoryAvailable ?? null,
      memoryPercentage: host?.memoryPercentage ?? null,
      hddTotal: host?.hddTotal ?? null,
      hddFree: host?.hddFree ?? null,
      hddPercentage: host?.hddPercentage ?? null,
      bandwidthIn: host?.bandwidthIn ?? null,
      bandwidthOut: host?.bandwidthOut ?? null,
      ...tasks,
      gpus: target.local && sample ? sample.gpus.map(({ uuid: _uuid, ...gpu }) => gpu) : [],
      mfxDevice: target.local ? (sample?.quickSync ?? null) : null,
      rixjobUser: this.user,
      rixjobVersion: target.local ? PRODUCT_VERSION : (target.node?.version ?? PRODUCT_VERSION),
      licenseStatus: 'Active',
    };
  }

  private counts(target: { node: NodeRow | undefined; single: boolean }): Promise<TaskCounts> {
    return this.statistics.taskCounts(target.single || !target.node ? undefined : target.node.id);
  }

  async status(nodeId?: number) {
    const target = await this.resolve(nodeId);
    const [sample, tasks] = await Promise.all([target.local ? this.sampler.once() : Promise.resolve(undefined), this.counts(target)]);
    return this.compose(target, tasks, sample);
  }

  /**
   * Live readings: `send` gets one status per sample of the shared sampler (the task counts are
   * read once per sample for all streams of a node, not once per stream). Returns the stop.
   */
  async follow(nodeId: number | undefined, send: (status: ReturnType<DashboardService['compose']>) => void): Promise<() => void> {
    const target = await this.resolve(nodeId);
    const deliver = (sample: MachineSample) => {
      void this.countsOf(target, sample).then((tasks) => send(this.compose(target, tasks, sample))).catch(() => undefined);
    };
    return this.sampler.subscribe(deliver);
  }

  private readonly countCache = new Map<string, { sample: MachineSample; counts: Promise<TaskCounts> }>();

  /** The counts of a node for one sample, shared by every stream of that node. */
  private countsOf(target: { node: NodeRow | undefined; single: boolean }, sample: MachineSample): Promise<TaskCounts> {
    const key = target.single || !target.node ? 'all' : String(target.node.id);
    const cached = this.countCache.get(key);
    if (cached && cached.sample === sample) return cached.counts;
    const counts = this.counts(target);
    this.countCache.set(key, { sample, counts });
    return counts;
  }
}
