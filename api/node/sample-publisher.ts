import os from 'node:os';
import { PRODUCT_VERSION } from '../../openapi/version.ts';
import type { EventBus } from '../events/event-bus.ts';
import { asNodeSamplesMessage, NODE_SAMPLES_TOPIC, WATCH_LEASE_MS, type NodeSamplesMessage } from '../events/node-topics.ts';
import type { MachineSample } from '../services/system-sampler.ts';

/** What the publisher needs of this machine's sampler (api/services/system-sampler.ts). */
export interface SampleSource {
  subscribe(listener: (sample: MachineSample) => void): () => void;
}

function osUser(): string {
  try {
    return os.userInfo().username;
  } catch {
    return String(process.getuid?.() ?? 'unknown');
  }
}

/**
 * Every node publishes its own samples on the bus, so that any API process can show them (the
 * dashboard of a remote node, the nodes table, the system alarm monitor). It samples only while
 * somebody watches: a `watch` naming this node (or all nodes) holds its sampler for
 * WATCH_LEASE_MS, and each watcher renews it while it still looks.
 */
export class NodeSamplePublisher {
  private watchedUntil = 0;
  private unsubscribeSampler?: () => void;
  private unsubscribeBus?: () => void;
  private expiry?: NodeJS.Timeout;
  private readonly user = osUser();
  /** Samples published since this publisher started (for tests and measurements). */
  published = 0;

  constructor(
    private readonly bus: EventBus,
    private readonly sampler: SampleSource,
    private readonly node: { id: number; name: string; isLeader: () => boolean },
    private readonly log: (line: string) => void = () => {},
  ) {}

  start(): void {
    this.unsubscribeBus = this.bus.subscribe((event) => {
      const message = asNodeSamplesMessage(event);
      if (message?.type === 'watch' && (message.data.all || message.data.nodeIds.includes(this.node.id))) this.watched();
    });
  }

  /** True while a watch holds this node's sampler. */
  get publishing(): boolean {
    return this.unsubscribeSampler !== undefined;
  }

  private watched(): void {
    this.watchedUntil = Date.now() + WATCH_LEASE_MS;
    clearTimeout(this.expiry);
    this.expiry = setTimeout(() => this.release(), WATCH_LEASE_MS);
    this.expiry.unref();
    this.unsubscribeSampler ??= this.sampler.subscribe((sample) => void this.publish(sample));
  }

  private release(): void {
    if (Date.now() < this.watchedUntil) return;
    this.unsubscribeSampler?.();
    this.unsubscribeSampler = undefined;
  }

  private async publish(sample: MachineSample): Promise<void> {
    if (Date.now() >= this.watchedUntil) return this.release();
    const message: NodeSamplesMessage = {
      topic: NODE_SAMPLES_TOPIC,
      type: 'sample',
      id: this.node.id,
      data: {
        nodeId: this.node.id,
        nodeName: this.node.name,
        at: sample.at.toISOString(),
        host: sample.host,
        gpus: sample.gpus,
        quickSync: sample.quickSync,
        leader: this.node.isLeader(),
        user: this.user,
        version: PRODUCT_VERSION,
      },
    };
    try {
      await this.bus.publish(message);
      this.published += 1;
    } catch (error) {
      this.log(`publishing this node's sample: ${(error as Error).message}`);
    }
  }

  stop(): void {
    this.unsubscribeBus?.();
    clearTimeout(this.expiry);
    this.watchedUntil = 0;
    this.release();
  }
}
