import { createClient } from 'redis';

/** Where the Redis of the "Redis Settings" tab is: `host:port`, with an optional password. */
export interface RedisEndpoint {
  host: string;
  port: number;
  password?: string;
}

/** Parse `host:port` (IPv6 as `[::1]:6379`); undefined when it is not one. */
export function parseRedisHost(value: string): { host: string; port: number } | undefined {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})$/.exec(value.trim());
  if (!match) return undefined;
  const port = Number(match[3]);
  if (port < 1 || port > 65535) return undefined;
  return { host: match[1] ?? match[2] ?? '', port };
}

function clientOptions(endpoint: RedisEndpoint, reconnect: boolean) {
  return {
    socket: {
      host: endpoint.host,
      port: endpoint.port,
      connectTimeout: 2000,
      // Keep trying with a backoff capped at 5 s; a check (reconnect false) fails at once.
      reconnectStrategy: reconnect ? (retries: number) => Math.min(250 * 2 ** Math.min(retries, 5), 5000) : (false as const),
    },
    ...(endpoint.password ? { password: endpoint.password } : {}),
  };
}

/** Connect and PING within `timeoutMs`: resolves when Redis answers, rejects with the reason. */
export async function pingRedis(endpoint: RedisEndpoint, timeoutMs = 2000): Promise<void> {
  const client = createClient(clientOptions(endpoint, false));
  // The socket's own error (ECONNREFUSED, WRONGPASS ...) says more than the client's "closed".
  let socketError: Error | undefined;
  client.on('error', (error: Error) => {
    socketError ??= error;
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
  });
  try {
    await Promise.race([
      (async () => {
        await client.connect();
        const answer = await client.ping();
        if (answer !== 'PONG') throw new Error(`unexpected answer ${answer}`);
      })(),
      timeout,
    ]);
  } catch (error) {
    const reason = socketError ?? (error as Error);
    throw new Error(reason.message || (reason as NodeJS.ErrnoException).code || String(reason));
  } finally {
    clearTimeout(timer);
    if (client.isOpen) client.destroy();
  }
}

/**
 * Live events over Redis pub/sub: one connection publishes, one subscribes to `channel`. node-redis
 * reconnects both on its own (backoff capped at 5 s) and re-subscribes after a reconnect; while
 * either is down `ready` is false and the bus publishes through Postgres alone.
 */
export class RedisTransport {
  private readonly publisher;
  private readonly subscriber;
  private closed = false;

  constructor(
    readonly endpoint: RedisEndpoint,
    private readonly channel: string,
    private readonly onMessage: (payload: string) => void,
    private readonly log: (line: string) => void = () => {},
  ) {
    this.publisher = createClient(clientOptions(endpoint, true));
    this.subscriber = createClient(clientOptions(endpoint, true));
    for (const [name, client] of [['publisher', this.publisher], ['subscriber', this.subscriber]] as const) {
      client.on('error', (error: Error) => {
        if (!this.closed) this.log(`event bus: redis ${name} ${endpoint.host}:${endpoint.port}: ${error.message}`);
      });
      client.on('reconnecting', () => this.log(`event bus: redis ${name} reconnecting to ${endpoint.host}:${endpoint.port}`));
    }
  }

  /** Resolves once both connections are up and subscribed; keeps retrying in the background otherwise. */
  async start(): Promise<void> {
    await Promise.all([this.publisher.connect(), this.subscriber.connect()]);
    await this.subscriber.subscribe(this.channel, (message) => {
      if (!this.closed) this.onMessage(message);
    });
    this.log(`event bus: fanning events out through redis ${this.endpoint.host}:${this.endpoint.port}`);
  }

  get ready(): boolean {
    return !this.closed && this.publisher.isReady && this.subscriber.isReady;
  }

  async publish(payload: string): Promise<void> {
    await this.publisher.publish(this.channel, payload);
  }

  async stop(): Promise<void> {
    this.closed = true;
    for (const client of [this.publisher, this.subscriber]) {
      if (client.isOpen) await client.close().catch(() => client.isOpen && client.destroy());
    }
  }
}
