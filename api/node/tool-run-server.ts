import type { ToolRunEnd } from '../../engine/tools/types.ts';
import { AppError } from '../errors.ts';
import type { EventBus } from '../events/event-bus.ts';
import { asNodeToolsMessage, NODE_TOOLS_TOPIC, TOOL_LEASE_MS, TOOL_RENEW_MS, type NodeToolsMessage, type ToolRequest } from '../events/node-topics.ts';
import type { NodeToolHost } from './tool-host.ts';

type Outgoing = Extract<NodeToolsMessage, { type: 'accepted' | 'refused' | 'event' | 'end' | 'alive' }>;
type Data<T extends Outgoing['type']> = Extract<Outgoing, { type: T }>['data'];

interface ServedRun {
  abort: AbortController;
  renewedAt: number;
  /** The run's messages go out one after the other, in the order the tool reported them. */
  sending: Promise<void>;
  seq: number;
  done: Promise<void>;
}

/**
 * This node's side of the tool runs that API processes hand it over the bus (api/events/
 * node-topics.ts): a `run` addressed to this node is admitted by the node's tool host and run by
 * its engine; its events go back as they come, in order; `abort` ends it at once, and so does the
 * requester's silence (no `renew` for TOOL_LEASE_MS: the API process went away).
 */
export class ToolRunServer {
  private readonly runs = new Map<string, ServedRun>();
  private unsubscribe?: () => void;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly bus: EventBus,
    private readonly host: NodeToolHost,
    private readonly node: { id: number; name: string },
    private readonly log: (line: string) => void = () => {},
  ) {}

  start(): void {
    this.unsubscribe = this.bus.subscribe((event) => {
      const message = asNodeToolsMessage(event);
      if (!message) return;
      if (message.type === 'run' && message.data.nodeId === this.node.id) this.serve(message.id, message.data.request);
      else if (message.type === 'abort' && message.data.nodeId === this.node.id) this.runs.get(message.id)?.abort.abort();
      else if (message.type === 'renew') {
        for (const id of message.data.runIds) {
          const run = this.runs.get(id);
          if (run) run.renewedAt = Date.now();
        }
      }
    });
    this.timer = setInterval(() => this.upkeep(), TOOL_RENEW_MS);
    this.timer.unref();
  }

  /** Runs going on for other API processes. */
  get servedCount(): number {
    return this.runs.size;
  }

  private send<T extends Outgoing['type']>(type: T, id: string | undefined, data: Data<T>): Promise<void> {
    const message = { topic: NODE_TOOLS_TOPIC, type, ...(id === undefined ? {} : { id }), data } as Outgoing;
    return this.bus.publish(message);
  }

  private serve(id: string, request: ToolRequest): void {
    if (this.runs.has(id)) return;
    let admitted;
    try {
      admitted = this.host.admit(request);
    } catch (error) {
      const known = error instanceof AppError ? error : undefined;
      void this.send('refused', id, { status: known?.status ?? 500, code: known?.code ?? 'INTERNAL', message: known?.message ?? `the node could not run the tool: ${(error as Error).message}` }).catch((failure: Error) =>
        this.log(`tool run ${id}: sending the refusal: ${failure.message}`),
      );
      return;
    }
    const abort = new AbortController();
    const run: ServedRun = { abort, renewedAt: Date.now(), sending: Promise.resolve(), seq: 0, done: Promise.resolve() };
    this.runs.set(id, run);
    const queue = (step: () => Promise<void>) => {
      run.sending = run.sending.then(step).catch((error: Error) => this.log(`tool run ${id}: sending to its requester: ${error.message}`));
    };
    queue(() => this.send('accepted', id, { nodeId: this.node.id, nodeName: this.node.name }));
    this.log(`running ${request.tool} ${admitted.target} for another API process (run ${id})`);
    run.done = (async () => {
      let end: ToolRunEnd;
      try {
        end = await admitted.execute(abort.signal, (event) => {
          const seq = ++run.seq;
          queue(() => this.send('event', id, { seq, event }));
        });
      } catch (error) {
        const seq = ++run.seq;
        queue(() => this.send('event', id, { seq, event: { type: 'error', error: `the tool could not run: ${(error as Error).message}` } }));
        end = { reason: 'failed', exitCode: null, durationMs: 0 };
      }
      const seq = ++run.seq;
      queue(() => this.send('end', id, { seq, end }));
      await run.sending;
      this.runs.delete(id);
    })();
  }

  /** Tell the requesters their runs are alive; end the runs whose requester went silent. */
  private upkeep(): void {
    if (this.runs.size === 0) return;
    const now = Date.now();
    for (const [id, run] of this.runs) {
      if (now - run.renewedAt > TOOL_LEASE_MS && !run.abort.signal.aborted) {
        this.log(`tool run ${id}: its requester went silent; ending it`);
        run.abort.abort();
      }
    }
    void this.send('alive', undefined, { nodeId: this.node.id, runIds: [...this.runs.keys()] }).catch((error: Error) => this.log(`tool runs: sending alive: ${error.message}`));
  }

  /** End every run (their requesters get `end` with reason aborted), then stop listening. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    for (const run of this.runs.values()) run.abort.abort();
    await Promise.all([...this.runs.values()].map((run) => run.done));
    this.unsubscribe?.();
  }
}
