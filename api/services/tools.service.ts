import type { ToolRunEnd, ToolRunEvent } from '../../engine/tools/types.ts';
import type { Principal } from '../auth/principal.ts';
import type { Db } from '../db/database.ts';
import { AppError, ConflictError, NotFoundError } from '../errors.ts';
import type { EventBus } from '../events/event-bus.ts';
import type { ToolName, ToolRequest } from '../events/node-topics.ts';
import { NodeToolHost, type ToolHostOptions } from '../node/tool-host.ts';
import { isNodeOnline, NODE_STALE_SECONDS, type NodesRepository } from '../repositories/nodes.repository.ts';
import { TimersRepository } from '../repositories/timers.repository.ts';
import { RemoteToolRuns } from './remote-tool-runs.ts';
import { TimersService } from './timers.service.ts';

export type { ToolName, ToolRequest };

export interface ToolsServiceOptions extends ToolHostOptions {
  maxRunsPerUser?: number;
}

/** A run admitted to start: its target as shown, the node that runs it, and how to follow it. */
export interface ToolRun {
  tool: ToolName;
  target: string;
  nodeId: number | null;
  nodeName: string | null;
  execute(signal: AbortSignal, emit: (event: ToolRunEvent) => void): Promise<ToolRunEnd>;
}

function targetOf(request: ToolRequest): string {
  switch (request.tool) {
    case 'ping':
      return request.body.address;
    case 'mtr':
      return request.body.host;
    default:
      return request.body.uri;
  }
}

/**
 * The diagnostic tools (spec 03 Tools) run on the selected node through its engine. The request
 * was validated by the contract (a host is a host, a URL has an allowed scheme); here a run is
 * admitted (the caller's runs at once) and handed to its node: the node this API process runs on
 * directly, another node over the bus (api/services/remote-tool-runs.ts), which streams the
 * results back as they come. Either way the node bounds its runs at once and ends the program
 * when the client goes away.
 */
export class ToolsService {
  private localNode: { id: number; name: string } | null = null;
  private localHost: NodeToolHost;
  private readonly running = new Map<number, number>();

  constructor(
    private readonly nodes: NodesRepository,
    private readonly remote: RemoteToolRuns,
    private readonly options: ToolsServiceOptions = {},
  ) {
    this.localHost = new NodeToolHost(options);
  }

  /** The node this API process runs on and its tool host (set by the server once the node started). */
  setLocalNode(node: { id: number; name: string }, host?: NodeToolHost): void {
    this.localNode = node;
    if (host) this.localHost = host;
  }

  /**
   * Admit a run and hand it to its node: 404 unknown node, 409 NODE_OFFLINE, 503 NODE_UNREACHABLE
   * (it did not answer), 429 too many runs (the caller's, or the node's). `release` when it ends.
   */
  async admit(principal: Principal, request: ToolRequest): Promise<ToolRun & { release(): void }> {
    const mine = this.running.get(principal.userId) ?? 0;
    const maxPerUser = this.options.maxRunsPerUser ?? 8;
    if (mine >= maxPerUser) {
      throw new AppError(429, 'TOO_MANY_RUNS', `You have ${mine} tool runs going: stop one first (at most ${maxPerUser} at once).`, undefined, { 'Retry-After': '5' });
    }
    this.running.set(principal.userId, mine + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const left = (this.running.get(principal.userId) ?? 1) - 1;
      if (left > 0) this.running.set(principal.userId, left);
      else this.running.delete(principal.userId);
    };
    try {
      return { ...(await this.handOver(request)), release };
    } catch (error) {
      release();
      throw error;
    }
  }

  private async handOver(request: ToolRequest): Promise<ToolRun> {
    const wanted = request.body.node;
    if (wanted === undefined || wanted === this.localNode?.id) {
      const run = this.localHost.admit(request);
      return { tool: request.tool, target: run.target, nodeId: this.localNode?.id ?? null, nodeName: this.localNode?.name ?? null, execute: run.execute };
    }
    const node = (await this.nodes.list()).find((n) => n.id === wanted);
    if (!node) throw new NotFoundError('Node', wanted);
    if (!isNodeOnline(node)) {
      throw new ConflictError(`Node ${node.name} (${node.id}) is offline: its heartbeat is older than ${NODE_STALE_SECONDS} s${node.active ? '' : ' (it is switched off)'}.`, 'NODE_OFFLINE');
    }
    const run = await this.remote.start({ id: node.id, name: node.name }, request);
    return { tool: request.tool, target: targetOf(request), nodeId: run.nodeId, nodeName: run.nodeName, execute: run.execute };
  }
}

/** The services of the Tools area (spec 03: the diagnostic tools and the timers), wired once (createServices spreads them). */
export function createToolServices(db: Db, events: EventBus, nodes: NodesRepository) {
  return { tools: new ToolsService(nodes, new RemoteToolRuns(events)), timers: new TimersService(new TimersRepository(db), events) };
}
