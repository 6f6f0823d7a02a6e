import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PRODUCT_VERSION } from '../../openapi/version.ts';
import type { DataPaths } from '../config.ts';
import type { NodeRow } from '../db/tables.ts';
import { NotFoundError } from '../errors.ts';
import { isNodeOnline, type NodesRepository } from '../repositories/nodes.repository.ts';
import type { StatisticsRepository, TaskCounts } from '../repositories/statistics.repository.ts';
import type { NodeReading, NodeSamples } from './node-samples.ts';
import { SAMPLE_INTERVAL_MS, type MachineSample } from './system-sampler.ts';

function osUser(): string {
  try {
    return os.userInfo().username;
  } catch {
    return String(process.getuid?.() ?? 'unknown');
  }
}

/** The node a dashboard shows, whether it is the one this server runs on, and whether it is the only one. */
interface Target {
  node: NodeRow | undefined;
  local: boolean;
  single: boolean;
}

/** A sample of the node read: this machine's own, or one a node published (with its user, version and leadership). */
type Reading = MachineSample & Partial<Pick<NodeReading, 'user' | 'version' | 'leader'>>;

/** The nodes and their task counts, read at most once a second for every open dashboard. */
interface Overview {
  nodes: NodeRow[];
  mine: string | undefined;
  total: TaskCounts;
  byNode: Map<number, TaskCounts>;
}

const NO_TASKS: TaskCounts = { activeTasks: 0, allTasks: 0, servicesUp: 0, servicesDown: 0 };
const OVERVIEW_TTL_MS = 1000;
/** A node that published nothing this long gets a status of its stored figures, so its stream is not silent. */
const QUIET_MS = 2 * SAMPLE_INTERVAL_MS;

/**
 * The dashboard of spec 03: the readings of a node and the nodes table. Every node samples itself
 * and publishes its samples (api/node/sample-publisher.ts): the node this server runs on is read
 * from this machine's sampler, any other from what it publishes (api/services/node-samples.ts),
 * so any API process serves the live dashboard of any node. A node that publishes nothing
 * (offline) shows its stored figures (tasks, version).
 */
export class DashboardService {
  private readonly user = osUser();
  private overview?: { at: number; value: Promise<Overview> };

  constructor(
    private readonly nodes: NodesRepository,
    private readonly statistics: StatisticsRepository,
    private readonly samples: NodeSamples,
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

  private isLocal(node: NodeRow, all: NodeRow[], mine: string | undefined): boolean {
    return node.node_id === mine || (all.length === 1 && mine === undefined);
  }

  /** The node asked for (404 when unknown) and whether it is this machine. */
  async resolve(nodeId?: number): Promise<Target> {
    const all = await this.nodes.list();
    const mine = this.localNodeId();
    if (nodeId === undefined) {
      const node = all.find((n) => n.node_id === mine) ?? (all.length === 1 ? all[0] : undefined);
      return { node, local: true, single: all.length <= 1 };
    }
    const node = all.find((n) => n.id === nodeId);
    if (!node) throw new NotFoundError(`Node ${nodeId} not found`);
    return { node, local: this.isLocal(node, all, mine), single: all.length <= 1 };
  }

  private overviewNow(): Promise<Overview> {
    if (this.overview && Date.now() - this.overview.at < OVERVIEW_TTL_MS) return this.overview.value;
    const value = Promise.all([this.nodes.list(), this.statistics.taskCountsByNode()]).then(([nodes, counts]) => ({ nodes, mine: this.localNodeId(), ...counts }));
    const entry = { at: Date.now(), value };
    this.overview = entry;
    value.catch(() => this.overview === entry && (this.overview = undefined));
    return value;
  }

  /** The live reading of a node of the table: what it published lately, or this machine's own sample for the local node. */
  private latestOf(node: NodeRow, local: boolean): Reading | undefined {
    const published = this.samples.latestOf(node.id);
    if (published) return published;
    const own = local ? this.samples.local.last : undefined;
    return own && Date.now() - own.at.getTime() < 3 * SAMPLE_INTERVAL_MS ? own : undefined;
  }

  private row(node: NodeRow, overview: Overview) {
    const local = this.isLocal(node, overview.nodes, overview.mine);
    const reading = this.latestOf(node, local);
    const host = reading?.host;
    const online = isNodeOnline(node);
    const tasks = overview.byNode.get(node.id) ?? NO_TASKS;
    return {
      nodeId: node.id,
      nodeName: node.name,
      nodeType: local ? ('LOCAL' as const) : ('REMOTE' as const),
      leader: reading?.leader ?? null,
      status: online ? ('ONLINE' as const) : ('OFFLINE' as const),
      nodeAddress: node.ip,
      live: reading !== undefined,
      cpu: host?.cpu ?? null,
      gpu: reading?.gpus.length ? Math.max(...reading.gpus.map((g) => g.streamingMultiprocessorUsagePercent ?? 0)) : null,
      memory: host?.memoryPercentage ?? null,
      activeTasks: tasks.activeTasks,
      allTasks: tasks.allTasks,
      bandwidthIn: host?.bandwidthIn ?? null,
      bandwidthOut: host?.bandwidthOut ?? null,
      licenseStatus: 'Active',
      rixjobVersion: reading?.version ?? (local ? PRODUCT_VERSION : node.version),
    };
  }

  private compose(target: Target, overview: Overview, reading: Reading | undefined) {
    const host = reading?.host;
    const tasks = target.single || !target.node ? overview.total : (overview.byNode.get(target.node.id) ?? NO_TASKS);
    return {
      nodeId: target.node?.id ?? null,
      nodeName: target.node?.name ?? null,
      live: reading !== undefined,
      at: (reading?.at ?? new Date()).toISOString(),
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
      gpus: reading ? reading.gpus.map(({ uuid: _uuid, ...gpu }) => gpu) : [],
      mfxDevice: reading?.quickSync ?? null,
      rixjobUser: reading?.user ?? (target.local ? this.user : 'unknown'),
      rixjobVersion: reading?.version ?? (target.local ? PRODUCT_VERSION : (target.node?.version ?? PRODUCT_VERSION)),
      licenseStatus: 'Active',
      nodes: overview.nodes.map((node) => this.row(node, overview)),
    };
  }

  /** The online nodes of the table, but the one read by this machine's sampler. */
  private tableNodes(overview: Overview, target: Target): number[] {
    if (overview.nodes.length <= 1) return [];
    return overview.nodes.filter((n) => isNodeOnline(n) && (n.id !== target.node?.id || !target.local)).map((n) => n.id);
  }

  async status(nodeId?: number) {
    const target = await this.resolve(nodeId);
    const overview = await this.overviewNow();
    // The other online nodes of the table get one interval to answer; one that does not shows its stored figures.
    const [reading] = await Promise.all([
      target.local || !target.node ? this.samples.local.once() : this.samples.once(target.node.id, 3 * SAMPLE_INTERVAL_MS),
      this.samples.current(this.tableNodes(overview, target), { waitMs: SAMPLE_INTERVAL_MS }),
    ]);
    return this.compose(target, overview, reading);
  }

  /**
   * Live readings: `send` gets one status per sample of the node (the nodes and their counts are
   * read once a second at most for all streams), or one of its stored figures when it publishes
   * nothing for a while. While the cluster has more than one node, every node is watched for the
   * nodes table. Returns the stop.
   */
  async follow(nodeId: number | undefined, send: (status: ReturnType<DashboardService['compose']>) => void): Promise<() => void> {
    const target = await this.resolve(nodeId);
    let lastSent = Date.now() - SAMPLE_INTERVAL_MS;
    const deliver = (reading: Reading | undefined) => {
      lastSent = Date.now();
      void this.overviewNow()
        .then((overview) => send(this.compose(target, overview, reading)))
        .catch(() => undefined);
    };
    const clustered = (await this.overviewNow()).nodes.length > 1;
    const stops: Array<() => void> = [target.local || !target.node ? this.samples.local.subscribe(deliver) : this.samples.subscribe(target.node.id, deliver)];
    if (clustered) stops.push(this.samples.subscribe('all', () => {}));
    const quiet = setInterval(() => Date.now() - lastSent >= QUIET_MS - 100 && deliver(undefined), SAMPLE_INTERVAL_MS);
    quiet.unref();
    return () => {
      clearInterval(quiet);
      for (const stop of stops) stop();
    };
  }
}
