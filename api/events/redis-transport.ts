import type { createClient as CreateClient } from 'redis';

type RedisClient = ReturnType<typeof CreateClient>;

/** node-redis, loaded when a Redis is first used: a product without one keeps it out of its heap. */
async function createClient(options: Parameters<typeof CreateClient>[0]): Promise<RedisClient> {
  return (await import('redis')).createClient(options);
}

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
  const client = await createClient(clientOptions(endpoint, false));
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
  private publisher?: RedisClient;
  private subscriber?: RedisClient;
  private closed = false;

  constructor(
    readonly endpoint: RedisEndpoint,
    private readonly channel: string,
    private readonly onMessage: (payload: string) => void,
    private readonly log: (line: string) => void = () => {},
  ) {}

  /** Resolves once both connections are up and subscribed; keeps retrying in the background otherwise. */
  async start(): Promise<void> {
    const { endpoint } = this;
    const [publisher, subscriber] = await Promise.all([createClient(clientOptions(endpoint, true)), createClient(clientOptions(endpoint, true))]);
    for (const [name, client] of [['publisher', publisher], ['subscriber', subscriber]] as const) {
      client.on('error', (error: Error) => {
        if (!this.closed) this.log(`event bus: redis ${name} ${endpoint.host}:${endpoint.port}: ${error.message}`);
      });
      client.on('reconnecting', () => this.log(`event bus: redis ${name} reconnecting to ${endpoint.host}:${endpoint.port}`));
    }
    this.publisher = publisher;
    this.subscriber = subscriber;
    if (this.closed) return this.stop();
    await Promise.all([publisher.connect(), subscriber.connect()]);
    await subscriber.subscribe(this.channel, (message) => {
      if (!this.closed) this.onMessage(message);
    });
    this.log(`event bus: fanning events out through redis ${endpoint.host}:${endpoint.port}`);
  }

  get ready(): boolean {
    return !this.closed && !!this.publisher?.isReady && !!this.subscriber?.isReady;
  }

  async publish(payload: string): Promise<void> {
    if (!this.publisher) throw new Error('not started');
    await this.publisher.publish(this.channel, payload);
  }

  async stop(): Promise<void> {
    this.closed = true;
    for (const client of [this.publisher, this.subscriber]) {
      if (client?.isOpen) await client.close().catch(() => client.isOpen && client.destroy());
    }
  }
}
