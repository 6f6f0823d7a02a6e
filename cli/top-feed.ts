import { ApiError, unwrap, type ApiClient, type Schemas } from '../openapi/client/index.ts';
import { jobPath, type JobKind } from './job-input.ts';
import { readSse } from './sse.ts';
import { sumBps } from './ui/job-views.tsx';

/**
 * The data of `mediaplane top`: the jobs that are switched on (relays and encodings), kept live
 * from the event stream GET /api/events?topics=relays,encodings. The nodes' `stats` events carry
 * CPU, RSS and bitrates and are applied in place; any other change of a job (status, switched
 * on or off, created, deleted, ...) refetches the lists, at most once per `throttleMs`.
 */

export const TOP_KINDS: readonly JobKind[] = ['relay', 'encoding'];

export interface TopRow {
  kind: JobKind;
  id: number;
  name: string;
  workStatus: string;
  state: Schemas['JobStatus']['state'];
  /** Why it is not running (the named reason of the last exit), when it is not. */
  reason: string | null;
  node: string;
  cpu: number;
  rss: number;
  inputBps: number | null;
  outputBps: number | null;
  restarts: number;
  /** As the API last said; `uptimeAt` adds the time since. */
  uptimeSeconds: number | null;
  /** When uptimeSeconds was read (ms since the epoch). */
  readAt: number;
}

export type TopSort = 'cpu' | 'rss' | 'name';
export type Connection = 'connecting' | 'live' | 'reconnecting';

/** The uptime at `now`: it goes on counting while the job runs. */
export function uptimeAt(row: TopRow, now: number): number | null {
  if (row.uptimeSeconds === null) return null;
  return row.state === 'running' ? row.uptimeSeconds + Math.max(0, now - row.readAt) / 1000 : row.uptimeSeconds;
}

export function sortRows(rows: TopRow[], sort: TopSort): TopRow[] {
  const byName = (a: TopRow, b: TopRow) => a.name.localeCompare(b.name) || a.kind.localeCompare(b.kind) || a.id - b.id;
  const compare = sort === 'cpu' ? (a: TopRow, b: TopRow) => b.cpu - a.cpu || byName(a, b) : sort === 'rss' ? (a: TopRow, b: TopRow) => b.rss - a.rss || byName(a, b) : byName;
  return [...rows].sort(compare);
}


export function rowOf(job: Schemas['JobSummary'], readAt: number): TopRow {
  const { status } = job;
  return {
    kind: job.kind,
    id: job.id,
    name: job.name,
    workStatus: status.workStatus,
    state: status.state,
    reason: status.reason,
    node: status.executionNode ?? job.nodeName ?? (job.node ? `#${job.node}` : 'auto'),
    cpu: status.cpu,
    rss: status.rss,
    inputBps: sumBps(status.inputs),
    outputBps: sumBps(status.outputs),
    restarts: status.restarts,
    uptimeSeconds: status.uptimeSeconds,
    readAt,
  };
}

interface StatsItem {
  id: number;
  cpu?: number;
  rss?: number;
  inputBps?: number | null;
  outputBps?: number | null;
}

export interface TopSnapshot {
  rows: TopRow[];
  /** The footer counts of each kind the user may see (over every job of the kind). */
  counts: Partial<Record<JobKind, Schemas['JobCounts']>>;
  /** Jobs switched on beyond the 500 fetched per kind. */
  hidden: number;
  connection: Connection;
}

const PAGE_SIZE = 500;

export class TopFeed {
  private rows = new Map<string, TopRow>();
  private counts: TopSnapshot['counts'] = {};
  private hidden = 0;
  private kinds: JobKind[] = [...TOP_KINDS];
  private connection: Connection = 'connecting';
  private readonly listeners = new Set<() => void>();
  private readonly abort = new AbortController();
  private refreshTimer?: NodeJS.Timeout;
  private lastRefresh = 0;
  private refreshing?: Promise<void>;
  /** Set when the stream can no longer be read (signed out, token revoked): the view ends with it. */
  fatal?: Error;

  constructor(
    private readonly client: ApiClient,
    private readonly options: { throttleMs?: number; retryMs?: number; now?: () => number } = {},
  ) {}

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  snapshot(): TopSnapshot {
    return { rows: [...this.rows.values()], counts: this.counts, hidden: this.hidden, connection: this.connection };
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }

  /**
   * Read the lists of the jobs switched on. A kind the user may not view is left out; when no
   * kind can be read the error is the first one's.
   */
  async refresh(): Promise<void> {
    this.lastRefresh = this.now();
    const results = await Promise.allSettled(
      this.kinds.map((kind) => unwrap(this.client.GET(jobPath(kind, '/api/relays'), { params: { query: { status: 'active', size: PAGE_SIZE, sort: 'id', order: 'asc' } }, signal: this.abort.signal }))),
    );
    const readAt = this.now();
    const rows = new Map<string, TopRow>();
    const counts: TopSnapshot['counts'] = {};
    let hidden = 0;
    const readable: JobKind[] = [];
    results.forEach((result, i) => {
      const kind = this.kinds[i];
      if (result.status === 'rejected') {
        // Not readable this time (the API restarting ...): what was known of the kind stays.
        for (const [key, row] of this.rows) if (row.kind === kind) rows.set(key, row);
        if (this.counts[kind]) counts[kind] = this.counts[kind];
        return;
      }
      readable.push(kind);
      counts[kind] = result.value.counts;
      hidden += Math.max(0, result.value.total - result.value.items.length);
      for (const job of result.value.items) rows.set(`${kind}:${job.id}`, rowOf(job, readAt));
    });
    if (readable.length === 0) throw (results[0] as PromiseRejectedResult).reason;
    // A kind refused with 403 stays out; other failures (a restart of the API) are tried again next time.
    const forbidden = (result: PromiseSettledResult<unknown>) => result.status === 'rejected' && result.reason instanceof ApiError && result.reason.status === 403;
    this.kinds = this.kinds.filter((_, i) => !forbidden(results[i]));
    this.rows = rows;
    this.counts = counts;
    this.hidden = hidden;
    this.emit();
  }

  /** Refetch soon: at once when the last one is older than the throttle, else when it is. */
  scheduleRefresh(): void {
    if (this.refreshTimer || this.abort.signal.aborted) return;
    const wait = Math.max(0, this.lastRefresh + (this.options.throttleMs ?? 1000) - this.now());
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      this.refreshing = this.refresh().catch(() => this.scheduleRefresh());
    }, wait);
  }

  /** Apply one event of the stream. */
  apply(topic: string, event: { type?: string; id?: number | string; data?: unknown }): void {
    const kind = topic === 'relays' ? 'relay' : topic === 'encodings' ? 'encoding' : undefined;
    if (!kind) return;
    if (event.type === 'stats' && Array.isArray(event.data)) {
      let unknown = false;
      for (const item of event.data as StatsItem[]) {
        const row = this.rows.get(`${kind}:${item.id}`);
        if (!row) {
          unknown = true;
          continue;
        }
        if (typeof item.cpu === 'number') row.cpu = item.cpu;
        if (typeof item.rss === 'number') row.rss = item.rss;
        if (typeof item.inputBps === 'number') row.inputBps = item.inputBps;
        if (typeof item.outputBps === 'number') row.outputBps = item.outputBps;
      }
      if (unknown) this.scheduleRefresh();
      this.emit();
      return;
    }
    this.scheduleRefresh();
  }

  /** Read the event stream until closed, reconnecting after a drop (and refetching what was missed). */
  async listen(): Promise<void> {
    const retryMs = this.options.retryMs ?? 2000;
    while (!this.abort.signal.aborted) {
      try {
        const topics = this.kinds.map((kind) => `${kind}s`).join(',');
        const { data, error, response } = await this.client.GET('/api/events', { params: { query: { topics } }, parseAs: 'stream', signal: this.abort.signal, headers: { Accept: 'text/event-stream' } });
        if (!response.ok || !data) throw ApiError.from(response.status, error, response.headers.get('x-request-id'));
        if (this.connection === 'reconnecting') this.scheduleRefresh();
        this.setConnection('live');
        for await (const event of readSse(data as ReadableStream<Uint8Array>)) {
          try {
            this.apply(event.event, JSON.parse(event.data) as { type?: string; id?: number; data?: unknown });
          } catch {
            // an event this version does not read
          }
        }
      } catch (error) {
        if (this.abort.signal.aborted) return;
        if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
          this.fatal = error;
          this.emit();
          return;
        }
      }
      if (this.abort.signal.aborted) return;
      this.setConnection('reconnecting');
      await new Promise((resolve) => setTimeout(resolve, retryMs));
    }
  }

  private setConnection(connection: Connection): void {
    if (this.connection === connection) return;
    this.connection = connection;
    this.emit();
  }

  async close(): Promise<void> {
    this.abort.abort();
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    await this.refreshing?.catch(() => {});
  }
}
