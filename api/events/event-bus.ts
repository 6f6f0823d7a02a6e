import { sql } from 'kysely';
import pg from 'pg';
import type { z } from 'zod';
import type { LiveEvent as LiveEventSchema } from '../../openapi/schemas/system.ts';
import type { Db } from '../db/database.ts';

/** A change that live screens react to: the topic names the area, the payload what changed. */
export type LiveEvent = z.infer<typeof LiveEventSchema>;

type Listener = (event: LiveEvent) => void;

const CHANNEL = 'mediaplane_events';

/**
 * Fans live events out to every API process through Postgres LISTEN/NOTIFY, so a change made
 * through one process reaches the consoles connected to any other.
 */
export class EventBus {
  private readonly listeners = new Set<Listener>();
  private client?: pg.Client;
  private closed = false;
  /** A reconnection is scheduled or under way: a dropped connection may report several errors. */
  private reconnecting = false;

  constructor(
    private readonly connectionString: string,
    private readonly db: Db,
    private readonly log: (line: string) => void = () => {},
  ) {}

  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('notification', (message) => {
      if (message.channel !== CHANNEL || !message.payload) return;
      let event: LiveEvent;
      try {
        event = JSON.parse(message.payload) as LiveEvent;
      } catch {
        this.log(`event bus: dropped an unreadable notification`);
        return;
      }
      this.deliver(event);
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

  private deliver(event: LiveEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.log(`event bus: a listener failed: ${(error as Error).message}`);
      }
    }
  }

  /** Publish to every process; this process receives it through its own LISTEN. */
  async publish(event: LiveEvent): Promise<void> {
    await sql`select pg_notify(${CHANNEL}, ${JSON.stringify(event)})`.execute(this.db);
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async stop(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    await this.client?.end().catch(() => {});
  }
}
