import { randomUUID } from 'node:crypto';
import type { ToolRunEnd, ToolRunEvent } from '../../engine/tools/types.ts';
import { AppError } from '../errors.ts';
import type { EventBus } from '../events/event-bus.ts';
import { asNodeToolsMessage, NODE_TOOLS_TOPIC, TOOL_ACCEPT_TIMEOUT_MS, TOOL_LEASE_MS, TOOL_RENEW_MS, type NodeToolsMessage, type ToolRequest } from '../events/node-topics.ts';

/** A run another node accepted: execute streams its events as the node sends them, in order. */
export interface RemoteToolRun {
  nodeId: number;
  nodeName: string;
  execute(signal: AbortSignal, emit: (event: ToolRunEvent) => void): Promise<ToolRunEnd>;
}

export interface RemoteToolRunsOptions {
  acceptTimeoutMs?: number;
  /** How long to wait for the node's own end after an abort before the run counts as ended. */
  abortGraceMs?: number;
}

type Ordered = Extract<NodeToolsMessage, { type: 'event' | 'end' }>;

class PendingRun {
  lastHeard = Date.now();
  private emit?: (event: ToolRunEvent) => void;
  private readonly buffered: ToolRunEvent[] = [];
  /** Events and the end by their seq, until the ones before them are in. */
  private readonly waiting = new Map<number, Ordered>();
  private nextSeq = 1;
  private gapSince = 0;
  ended?: ToolRunEnd;
  private finished!: (end: ToolRunEnd) => void;
  readonly done = new Promise<ToolRunEnd>((resolve) => (this.finished = resolve));
  accept!: { resolve: (node: { nodeId: number; nodeName: string }) => void; reject: (error: Error) => void };
  readonly accepted = new Promise<{ nodeId: number; nodeName: string }>((resolve, reject) => (this.accept = { resolve, reject }));

  constructor(
    readonly nodeId: number,
    readonly nodeName: string,
  ) {
    this.accepted.catch(() => undefined);
  }

  attach(emit: (event: ToolRunEvent) => void): void {
    this.emit = emit;
    for (const event of this.buffered.splice(0)) emit(event);
  }

  private deliver(event: ToolRunEvent): void {
    if (this.emit) this.emit(event);
    else this.buffered.push(event);
  }

  /** An event or the end; delivered once every one before it was. */
  receive(message: Ordered): void {
    if (message.data.seq < this.nextSeq) return;
    this.waiting.set(message.data.seq, message);
    this.drain();
  }

  private drain(): void {
    for (let next = this.waiting.get(this.nextSeq); next; next = this.waiting.get(this.nextSeq)) {
      this.waiting.delete(this.nextSeq);
      this.nextSeq += 1;
      if (next.type === 'event') this.deliver(next.data.event);
      else this.finish(next.data.end);
    }
    this.gapSince = this.waiting.size ? this.gapSince || Date.now() : 0;
  }

  /** A message lost on the way (a dropped LISTEN connection): after a while go on without it. */
  skipGap(olderThanMs: number): void {
    if (!this.gapSince || Date.now() - this.gapSince < olderThanMs) return;
    this.nextSeq = Math.min(...this.waiting.keys());
    this.gapSince = 0;
    this.drain();
  }

  finish(end: ToolRunEnd, error?: string): void {
    if (this.ended) return;
    if (error) this.deliver({ type: 'error', error });
    this.ended = end;
    this.finished(end);
  }
}

/**
 * The requesting side of the tool runs handed to another node over the bus (api/events/
 * node-topics.ts): `start` sends the request to the node and waits for it to accept; `execute`
 * streams what the node sends back, in order, as it comes. Closing the client sends `abort` (the
 * node ends the program); the runs of this process are renewed while they go, and a node that
 * goes silent ends its runs here with an error instead of a stream that never ends.
 */
export class RemoteToolRuns {
  private readonly runs = new Map<string, PendingRun>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly bus: EventBus,
    private readonly options: RemoteToolRunsOptions = {},
  ) {
    bus.subscribe((event) => {
      const message = asNodeToolsMessage(event);
      if (message) this.received(message);
    });
  }

  private received(message: NodeToolsMessage): void {
    if (message.type === 'alive') {
      for (const id of message.data.runIds) {
        const run = this.runs.get(id);
        if (run?.nodeId === message.data.nodeId) run.lastHeard = Date.now();
      }
      return;
    }
    if (!('id' in message)) return;
    const run = this.runs.get(message.id);
    if (!run) return;
    run.lastHeard = Date.now();
    if (message.type === 'accepted') run.accept.resolve(message.data);
    else if (message.type === 'refused') run.accept.reject(new AppError(message.data.status, message.data.code, message.data.message, undefined, message.data.status === 429 ? { 'Retry-After': '5' } : undefined));
    else if (message.type === 'event' || message.type === 'end') run.receive(message);
  }

  /** Runs this process has going on other nodes. */
  get count(): number {
    return this.runs.size;
  }

  /**
   * Hand a run to a node. Resolves once the node accepted it (what it sends before `execute` is
   * kept); rejects with the node's refusal (429 when it runs too many), or 503 NODE_UNREACHABLE
   * when it does not answer within 5 s.
   */
  async start(node: { id: number; name: string }, request: ToolRequest): Promise<RemoteToolRun> {
    const id = randomUUID();
    const run = new PendingRun(node.id, node.name);
    this.runs.set(id, run);
    this.keepUp();
    const send = (type: 'run' | 'abort') =>
      this.bus.publish((type === 'run' ? { topic: NODE_TOOLS_TOPIC, type, id, data: { nodeId: node.id, request } } : { topic: NODE_TOOLS_TOPIC, type, id, data: { nodeId: node.id } }) satisfies NodeToolsMessage);
    const timeoutMs = this.options.acceptTimeoutMs ?? TOOL_ACCEPT_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    try {
      await send('run');
      const accepted = await Promise.race([
        run.accepted,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new AppError(503, 'NODE_UNREACHABLE', `Node ${node.name} (${node.id}) did not answer within ${timeoutMs / 1000} s: is its server or agent running?`)), timeoutMs);
        }),
      ]);
      return {
        ...accepted,
        execute: async (signal, emit) => {
          run.attach(emit);
          const onAbort = () => {
            void send('abort').catch(() => undefined);
            // The node answers with its end (reason aborted) at once; a node gone silent does not hold the client.
            setTimeout(() => run.finish({ reason: 'aborted', exitCode: null, durationMs: 0 }), this.options.abortGraceMs ?? 5000).unref();
          };
          if (signal.aborted) onAbort();
          else signal.addEventListener('abort', onAbort, { once: true });
          try {
            return await run.done;
          } finally {
            signal.removeEventListener('abort', onAbort);
            this.runs.delete(id);
          }
        },
      };
    } catch (error) {
      this.runs.delete(id);
      // It may still accept later: tell it to end at once.
      void send('abort').catch(() => undefined);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /** While runs go: renew them at their nodes, and end those whose node went silent. */
  private keepUp(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.runs.size === 0) {
        clearInterval(this.timer);
        this.timer = undefined;
        return;
      }
      const now = Date.now();
      for (const run of this.runs.values()) {
        run.skipGap(TOOL_RENEW_MS);
        if (now - run.lastHeard > TOOL_LEASE_MS) run.finish({ reason: 'failed', exitCode: null, durationMs: 0 }, `node ${run.nodeName} stopped answering: how the run ended is not known`);
      }
      void this.bus.publish({ topic: NODE_TOOLS_TOPIC, type: 'renew', data: { runIds: [...this.runs.keys()] } }).catch(() => undefined);
    }, TOOL_RENEW_MS);
    this.timer.unref();
  }
}
