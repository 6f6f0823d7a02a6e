import { runKeyframeInterval } from '../../engine/tools/keyframe-interval.ts';
import { runMediaCheck } from '../../engine/tools/media-check.ts';
import { runMtr } from '../../engine/tools/mtr.ts';
import { runPing } from '../../engine/tools/ping.ts';
import type { ToolRunEnd, ToolRunEvent } from '../../engine/tools/types.ts';
import type { KeyframeRequestValue, MediaCheckRequestValue, MtrRequestValue, PingRequestValue } from '../../openapi/schemas/tools.ts';
import type { Principal } from '../auth/principal.ts';
import type { Db } from '../db/database.ts';
import { AppError, ConflictError, NotFoundError } from '../errors.ts';
import type { EventBus } from '../events/event-bus.ts';
import type { NodesRepository } from '../repositories/nodes.repository.ts';
import { TimersRepository } from '../repositories/timers.repository.ts';
import { TimersService } from './timers.service.ts';

export type ToolName = 'ping' | 'mtr' | 'keyframe' | 'mediacheck';

export type ToolRequest =
  | { tool: 'ping'; body: PingRequestValue }
  | { tool: 'mtr'; body: MtrRequestValue }
  | { tool: 'keyframe'; body: KeyframeRequestValue }
  | { tool: 'mediacheck'; body: MediaCheckRequestValue };

export interface ToolsServiceOptions {
  /** Programs to run instead of those on PATH. */
  programs?: Partial<Record<'ping' | 'mtr' | 'ffprobe', string>>;
  maxRuns?: number;
  maxRunsPerUser?: number;
}

/** A run admitted to start: its target as shown, and how to carry it out. */
export interface ToolRun {
  tool: ToolName;
  target: string;
  nodeId: number | null;
  execute(signal: AbortSignal, emit: (event: ToolRunEvent) => void): Promise<ToolRunEnd>;
}

/**
 * The diagnostic tools (spec 03 Tools) run on a node through engine/tools. The request was
 * validated by the contract (a host is a host, a URL has an allowed scheme); here a run is
 * admitted (the node, the number of runs at once) and handed to the engine, which runs the
 * program without a shell and ends it when the client goes away.
 *
 * For now the tools run in the API process on ITS node: a request for another node is a 409.
 */
export class ToolsService {
  private localNodeId: number | null = null;
  private readonly running = new Map<number, number>();
  private total = 0;

  constructor(
    private readonly nodes: NodesRepository,
    private readonly options: ToolsServiceOptions = {},
  ) {}

  /** The node this API process runs on (set by the server once it registered it). */
  setLocalNode(id: number): void {
    this.localNodeId = id;
  }

  /** Admit a run (404 unknown node, 409 not this API's node, 429 too many at once); `release` when it ends. */
  async admit(principal: Principal, request: ToolRequest): Promise<ToolRun & { release(): void }> {
    const nodeId = await this.checkNode(request.body.node);
    const mine = this.running.get(principal.userId) ?? 0;
    const maxPerUser = this.options.maxRunsPerUser ?? 8;
    const max = this.options.maxRuns ?? 32;
    if (mine >= maxPerUser || this.total >= max) {
      throw new AppError(429, 'TOO_MANY_RUNS', mine >= maxPerUser ? `You have ${mine} tool runs going: stop one first (at most ${maxPerUser} at once).` : `${this.total} tool runs are going on this node: try again in a moment.`, undefined, { 'Retry-After': '5' });
    }
    this.running.set(principal.userId, mine + 1);
    this.total += 1;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.total -= 1;
      const left = (this.running.get(principal.userId) ?? 1) - 1;
      if (left > 0) this.running.set(principal.userId, left);
      else this.running.delete(principal.userId);
    };
    return { ...this.plan(request), nodeId, release };
  }

  private async checkNode(node: number | undefined): Promise<number | null> {
    if (node === undefined || node === this.localNodeId) return this.localNodeId;
    const found = (await this.nodes.list()).find((n) => n.id === node);
    if (!found) throw new NotFoundError('Node', node);
    throw new ConflictError(`Tools run on the node this API runs on${this.localNodeId === null ? '' : ` (node ${this.localNodeId})`}; node ${found.name} (${node}) is another node: open the console of that node to run tools there.`, 'NODE_NOT_LOCAL');
  }

  private plan(request: ToolRequest): Omit<ToolRun, 'nodeId'> {
    const programs = this.options.programs ?? {};
    switch (request.tool) {
      case 'ping': {
        const { address, count } = request.body;
        return { tool: 'ping', target: address, execute: (signal, emit) => runPing(address, count, { signal, emit, program: programs.ping }) };
      }
      case 'mtr': {
        const { host, count, noDns } = request.body;
        return { tool: 'mtr', target: host, execute: (signal, emit) => runMtr(host, count, noDns, { signal, emit, program: programs.mtr }) };
      }
      case 'keyframe': {
        const { uri, intervalCount } = request.body;
        const token = request.body.tokenRequired ? request.body.token : undefined;
        return { tool: 'keyframe', target: uri, execute: (signal, emit) => runKeyframeInterval(uri, token, intervalCount, { signal, emit, program: programs.ffprobe }) };
      }
      case 'mediacheck': {
        const { uri } = request.body;
        const token = request.body.tokenRequired ? request.body.token : undefined;
        return { tool: 'mediacheck', target: uri, execute: (signal, emit) => runMediaCheck(uri, token, { signal, emit, program: programs.ffprobe }) };
      }
    }
  }
}

/** The services of the Tools area (spec 03: the diagnostic tools and the timers), wired once (createServices spreads them). */
export function createToolServices(db: Db, events: EventBus, nodes: NodesRepository) {
  return { tools: new ToolsService(nodes), timers: new TimersService(new TimersRepository(db), events) };
}
