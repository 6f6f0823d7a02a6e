import { sql } from 'kysely';
import pg from 'pg';
import type { Db } from '../db/database.ts';

/** A change that live screens react to: the topic names the area, the payload what changed. */
export interface LiveEvent {
  topic: string;
  type: string;
  id?: number | string;
  data?: unknown;
}

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

  constructor(
    private readonly connectionString: string,
    private readonly db: Db,
    private readonly log: (line: string) => void = () => {},
  ) {}

  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('notification', (message) => {
      if (message.channel !== CHANNEL || !message.payload) return;
      try {
        this.deliver(JSON.parse(message.payload) as LiveEvent);
      } catch {
        this.log(`event bus: dropped an unreadable notification`);
      }
    });
    client.on('error', (error) => {
      this.log(`event bus: ${error.message}; reconnecting`);
      if (!this.closed) setTimeout(() => void this.restart(), 1000);
    });
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    this.client = client;
  }

  private async restart(): Promise<void> {
    await this.client?.end().catch(() => {});
    this.client = undefined;
    if (this.closed) return;
    await this.start().catch((error: Error) => {
      this.log(`event bus: reconnect failed: ${error.message}`);
      setTimeout(() => void this.restart(), 2000);
    });
  }

  private deliver(event: LiveEvent): void {
    for (const listener of this.listeners) listener(event);
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
