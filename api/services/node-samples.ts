import type { EventBus } from '../events/event-bus.ts';
import { asNodeSamplesMessage, NODE_SAMPLES_TOPIC, WATCH_LEASE_MS, WATCH_RENEW_MS, type NodeSampleMessage } from '../events/node-topics.ts';
import { SAMPLE_INTERVAL_MS, type MachineSample, type SystemSampler } from './system-sampler.ts';

/** A sample of some node of the cluster, as that node published it. */
export interface NodeReading extends MachineSample {
  nodeId: number;
  nodeName: string;
  leader: boolean;
  user: string;
  version: string;
  /** When this process received it (the nodes' clocks may differ from this one's). */
  receivedAt: number;
}

type Listener = (reading: NodeReading) => void;
type Target = number | 'all';

/** A sample is live while younger than this many intervals; past it the node is not answering. */
const FRESH_INTERVALS = 3;

function readingOf(message: NodeSampleMessage): NodeReading {
  const { at, ...rest } = message;
  return { ...rest, at: new Date(at), receivedAt: Date.now() };
}

/**
 * The live samples of the nodes of the cluster, in this API process (the API side of the
 * `node-samples` exchange of api/events/node-topics.ts): each node samples itself and publishes
 * its samples while somebody watches, so any API process serves the dashboard of any node. This
 * keeps the watches of this process going (one renewal for all of them) and the latest sample of
 * each node. `local` is this machine's own sampler, for the node this process runs on.
 */
export class NodeSamples {
  private readonly latest = new Map<number, NodeReading>();
  private readonly listeners = new Map<Target, Set<Listener>>();
  /** Watches held for a while without a listener (a one-off read, the alarm monitor's passes). */
  private readonly heldUntil = new Map<Target, number>();
  /** Callers of `current` waiting for samples: they do not watch anything by themselves. */
  private readonly waiters = new Set<() => void>();
  private renewal?: NodeJS.Timeout;
  private announce?: Promise<void>;

  constructor(
    private readonly bus: EventBus,
    readonly local: SystemSampler,
    private readonly intervalMs = SAMPLE_INTERVAL_MS,
  ) {
    bus.subscribe((event) => {
      const message = asNodeSamplesMessage(event);
      if (message?.type === 'sample') this.received(readingOf(message.data));
    });
  }

  private received(reading: NodeReading): void {
    this.latest.set(reading.nodeId, reading);
    for (const target of [reading.nodeId, 'all'] as const) {
      for (const listener of [...(this.listeners.get(target) ?? [])]) listener(reading);
    }
    for (const waiter of [...this.waiters]) waiter();
  }

  /** The latest sample of a node while it is live (younger than 3 intervals), else undefined. */
  latestOf(nodeId: number): NodeReading | undefined {
    const reading = this.latest.get(nodeId);
    return reading && Date.now() - reading.receivedAt < FRESH_INTERVALS * this.intervalMs ? reading : undefined;
  }

  /** Every sample of a node (or of every node) as it arrives, until the returned stop. */
  subscribe(target: Target, listener: Listener): () => void {
    let set = this.listeners.get(target);
    const added = !set;
    if (!set) this.listeners.set(target, (set = new Set()));
    set.add(listener);
    if (typeof target === 'number') {
      const fresh = this.latestOf(target);
      if (fresh) listener(fresh);
    }
    if (added) this.watchChanged();
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(target) === set) {
        this.listeners.delete(target);
        this.watchChanged();
      }
    };
  }

  /**
   * The latest samples of these nodes: those that are live at once, the others as they answer a
   * watch, waiting at most `waitMs`. The watch is held `holdMs` after (a caller that reads every
   * few seconds then finds them live). A node that does not answer is left out.
   */
  async current(nodeIds: number[], options: { waitMs?: number; holdMs?: number } = {}): Promise<Map<number, NodeReading>> {
    const until = Date.now() + Math.max(options.holdMs ?? 0, WATCH_LEASE_MS);
    let changed = false;
    for (const id of nodeIds) {
      if ((this.heldUntil.get(id) ?? 0) < until) {
        changed ||= !this.isWatched(id);
        this.heldUntil.set(id, until);
      }
    }
    if (changed) this.watchChanged();
    const found = () => new Map(nodeIds.flatMap((id) => (this.latestOf(id) ? [[id, this.latestOf(id) as NodeReading] as const] : [])));
    const missing = () => nodeIds.filter((id) => !this.latestOf(id));
    if (missing().length === 0 || !options.waitMs) return found();
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(waiter);
        resolve();
      };
      const waiter = () => missing().length === 0 && done();
      const timer = setTimeout(done, options.waitMs);
      this.waiters.add(waiter);
    });
    return found();
  }

  /** One sample of a node: the latest while live, else the next it publishes within `waitMs`. */
  async once(nodeId: number, waitMs = 3 * this.intervalMs): Promise<NodeReading | undefined> {
    return (await this.current([nodeId], { waitMs })).get(nodeId);
  }

  private isWatched(target: Target): boolean {
    return this.listeners.has(target) || (this.heldUntil.get(target) ?? 0) > Date.now();
  }

  /** What this process watches now. */
  private watches(): { nodeIds: number[]; all: boolean } {
    const now = Date.now();
    for (const [target, until] of this.heldUntil) if (until <= now) this.heldUntil.delete(target);
    const targets = new Set<Target>([...this.listeners.keys(), ...this.heldUntil.keys()]);
    return { nodeIds: [...targets].filter((t): t is number => t !== 'all'), all: targets.has('all') };
  }

  /** Tell the nodes at once (once per turn of the event loop, whatever changed in it), and keep renewing while anything is watched. */
  private watchChanged(): void {
    this.announce ??= Promise.resolve().then(() => {
      this.announce = undefined;
      this.sendWatch();
    });
    if (!this.renewal) {
      this.renewal = setInterval(() => this.sendWatch(), WATCH_RENEW_MS);
      this.renewal.unref();
    }
  }

  private sendWatch(): void {
    const watches = this.watches();
    if (watches.nodeIds.length === 0 && !watches.all) {
      clearInterval(this.renewal);
      this.renewal = undefined;
      return;
    }
    void this.bus.publish({ topic: NODE_SAMPLES_TOPIC, type: 'watch', data: watches }).catch(() => undefined);
  }

  /** The nodes this process watches now (for tests and measurements). */
  get watching(): { nodeIds: number[]; all: boolean } {
    return this.watches();
  }
}
