import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import type { z } from 'zod';
import type { LiveEvent as LiveEventSchema } from '../../openapi/schemas/system.ts';
import type { Db } from '../db/database.ts';
import { RedisTransport, type RedisEndpoint } from './redis-transport.ts';

/** A change that live screens react to: the topic names the area, the payload what changed. */
export type LiveEvent = z.infer<typeof LiveEventSchema>;

type Listener = (event: LiveEvent) => void;

const CHANNEL = 'mediaplane_events';
const REDIS_CHANNEL = 'mediaplane:events';
/** pg_notify refuses payloads of 8000 bytes or more: a longer event goes in parts of at most this many bytes. */
export const NOTIFY_LIMIT = 7900;
/** A part of a long event: `#part:<origin>:<seq>:<index>:<count>:` and a slice of its JSON. */
const PART_PREFIX = '#part:';
/** Parts of one event travel in one transaction, so they arrive together; what is left incomplete this long is dropped. */
const PARTS_TTL_MS = 10_000;
const ORIGIN = randomUUID();

/** Cut `payload` into slices of at most `maxBytes` UTF-8 bytes, never inside a character. */
export function splitUtf8(payload: string, maxBytes: number): string[] {
  const bytes = Buffer.from(payload, 'utf8');
  const slices: string[] = [];
  let start = 0;
  while (start < bytes.length) {
    let end = Math.min(start + maxBytes, bytes.length);
    // Back off a continuation byte (10xxxxxx): the slice ends before the character it belongs to.
    while (end < bytes.length && end > start && (bytes[end] & 0xc0) === 0x80) end--;
    // A limit under one character's bytes: the slice is that character.
    if (end === start) for (end = start + 1; end < bytes.length && (bytes[end] & 0xc0) === 0x80; end++);
    slices.push(bytes.subarray(start, end).toString('utf8'));
    start = end;
  }
  return slices;
}

/** What travels on a transport: the event plus who sent it, so one sent on both arrives once. */
type Envelope = LiveEvent & { _origin?: string; _seq?: number };

/**
 * Fans live events out to every API process through Postgres LISTEN/NOTIFY, so a change made
 * through one process reaches the consoles connected to any other. With a Redis configured
 * (System settings, Redis Settings) every event also goes through Redis pub/sub: the processes
 * that follow the setting get it from whichever transport is first, once (deduplicated by sender
 * and sequence), and a node agent that only listens to Postgres still gets it. An event too long
 * for one notification (a media check's result, a node's sample with many GPU processes) goes
 * through Postgres in parts, sent in one transaction and put together again by the receivers.
 */
export class EventBus {
  private readonly listeners = new Set<Listener>();
  private client?: pg.Client;
  private closed = false;
  /** A reconnection is scheduled or under way: a dropped connection may report several errors. */
  private reconnecting = false;
  private redis?: RedisTransport;
  private seq = 0;
  /** Keys (`origin:seq`) of the events delivered lately, oldest first. */
  private readonly seen = new Set<string>();
  /** Long events being put together, by `origin:seq`. */
  private readonly parts = new Map<string, { slices: string[]; received: number; at: number }>();

  constructor(
    private readonly connectionString: string,
    private readonly db: Db,
    private readonly log: (line: string) => void = () => {},
  ) {}

  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('notification', (message) => {
      if (message.channel !== CHANNEL || !message.payload) return;
      if (message.payload.startsWith(PART_PREFIX)) this.receivePart(message.payload);
      else this.receive(message.payload, 'notification');
    });
    client.on('error', (error) => {
      if (client !== this.client) return;
      this.log(`event bus: ${error.message}; reconnecting`);
      this.scheduleReconnect(1000);
    });
    client.on('end', () => {
      if (client !== this.client) return;
      this.log('event bus: the listening connection ended; reconnecting');
      this.scheduleReconnect(1000);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
  }

  private scheduleReconnect(delayMs: number): void {
    if (this.closed || this.reconnecting) return;
    this.reconnecting = true;
    setTimeout(() => void this.reconnect(), delayMs);
  }

  private async reconnect(): Promise<void> {
    const old = this.client;
    this.client = undefined;
    await old?.end().catch(() => {});
    try {
      if (!this.closed) await this.start();
      this.reconnecting = false;
    } catch (error) {
      this.log(`event bus: reconnect failed: ${(error as Error).message}`);
      this.reconnecting = false;
      this.scheduleReconnect(2000);
    }
  }

  private receive(payload: string, via: string): void {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(payload) as Envelope;
    } catch {
      this.log(`event bus: dropped an unreadable ${via}`);
      return;
    }
    const { _origin, _seq, ...event } = envelope;
    if (_origin !== undefined && _seq !== undefined) {
      const key = `${_origin}:${_seq}`;
      if (this.seen.has(key)) return;
      this.seen.add(key);
      if (this.seen.size > 5000) this.seen.delete(this.seen.values().next().value as string);
    }
    this.deliver(event);
  }

  /** One part of a long event; the event is received once its last part is in. */
  private receivePart(payload: string): void {
    const header = /^#part:([^:]+):(\d+):(\d+):(\d+):/.exec(payload);
    if (!header) {
      this.log('event bus: dropped an unreadable part of a notification');
      return;
    }
    const [prefix, origin, seq, index, count] = header;
    const key = `${origin}:${seq}`;
    const now = Date.now();
    for (const [other, entry] of this.parts) if (now - entry.at > PARTS_TTL_MS) this.parts.delete(other);
    let entry = this.parts.get(key);
    if (!entry) {
      entry = { slices: new Array<string>(Number(count)), received: 0, at: now };
      this.parts.set(key, entry);
    }
    const i = Number(index);
    if (i >= entry.slices.length || entry.slices[i] !== undefined) return;
    entry.slices[i] = payload.slice(prefix.length);
    entry.received += 1;
    if (entry.received < entry.slices.length) return;
    this.parts.delete(key);
    this.receive(entry.slices.join(''), 'notification in parts');
  }

  /**
   * Follow the Redis setting: connect to this endpoint (replacing any other), or leave Redis
   * when undefined. Returns once connected or after 2 s; the transport reconnects in the background.
   */
  async useRedis(endpoint: RedisEndpoint | undefined): Promise<void> {
    const current = this.redis;
    if (current && endpoint && JSON.stringify(current.endpoint) === JSON.stringify(endpoint)) return;
    this.redis = undefined;
    await current?.stop();
    if (!endpoint || this.closed) return;
    const transport = new RedisTransport(endpoint, REDIS_CHANNEL, (payload) => this.receive(payload, 'redis message'), this.log);
    this.redis = transport;
    // Wait for the first connection a little (2 s), so that a caller sees it ready; it keeps trying after.
    const started = transport.start().catch((error: Error) => this.log(`event bus: redis: ${error.message}`));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([started, new Promise<void>((resolve) => (timer = setTimeout(resolve, 2000)))]);
    clearTimeout(timer);
  }

  /** True while events go out through Redis as well. */
  get redisReady(): boolean {
    return this.redis?.ready ?? false;
  }

  private deliver(event: LiveEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.log(`event bus: a listener failed: ${(error as Error).message}`);
      }
    }
  }

  /**
   * Publish to every process; this process receives it through its own LISTEN (or Redis
   * subscription). A long event goes through Postgres in parts, even with Redis up: the node
   * agents listen to Postgres alone.
   */
  async publish(event: LiveEvent): Promise<void> {
    const redis = this.redis?.ready ? this.redis : undefined;
    let payload = JSON.stringify(event);
    const long = Buffer.byteLength(payload) > NOTIFY_LIMIT;
    const seq = ++this.seq;
    if (redis || long) payload = JSON.stringify({ ...event, _origin: ORIGIN, _seq: seq });
    if (redis) {
      await redis.publish(payload).catch((error: Error) => this.log(`event bus: redis publish failed: ${error.message}`));
    }
    if (!long) {
      await sql`select pg_notify(${CHANNEL}, ${payload})`.execute(this.db);
      return;
    }
    const slices = splitUtf8(payload, NOTIFY_LIMIT - 100);
    await this.db.transaction().execute(async (trx) => {
      for (const [index, slice] of slices.entries()) {
        await sql`select pg_notify(${CHANNEL}, ${`${PART_PREFIX}${ORIGIN}:${seq}:${index}:${slices.length}:${slice}`})`.execute(trx);
      }
    });
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async stop(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    await this.redis?.stop();
    this.redis = undefined;
    await this.client?.end().catch(() => {});
  }
}
