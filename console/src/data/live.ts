import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { createContext, createElement, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { authKeys } from './auth/keys.ts';
import type { Schemas } from './client.ts';

/** One change as the API streams it on GET /api/events (`event: <topic>`, JSON data). */
export type LiveEvent = Schemas['LiveEvent'];

type Listener = (event: LiveEvent) => void;

/**
 * The one Server-Sent Events connection of a signed-in console. Screens subscribe to topics;
 * the connection carries the union of them (it reopens, a moment later, when the union changes).
 * It stays open even with no topic: the server ends a stream whose session has ended (sign-out,
 * user disabled, timeout), and the console then asks for the session at once, so a signed-out
 * console goes to Sign in without waiting for the next click.
 */
export class LiveConnection {
  private source?: EventSource;
  private readonly counts = new Map<string, number>();
  private readonly listeners = new Set<{ topics: ReadonlySet<string>; listener: Listener }>();
  private openTopics = '';
  private reopenTimer?: number;
  private lastProbe = 0;
  private stopped = false;

  constructor(private readonly queryClient: QueryClient) {}

  start(): void {
    this.stopped = false;
    this.scheduleReopen();
  }

  stop(): void {
    this.stopped = true;
    window.clearTimeout(this.reopenTimer);
    this.source?.close();
    this.source = undefined;
    this.openTopics = '';
  }

  subscribe(topics: readonly string[], listener: Listener): () => void {
    const entry = { topics: new Set(topics), listener };
    this.listeners.add(entry);
    for (const topic of topics) this.counts.set(topic, (this.counts.get(topic) ?? 0) + 1);
    this.scheduleReopen();
    return () => {
      this.listeners.delete(entry);
      for (const topic of topics) {
        const left = (this.counts.get(topic) ?? 1) - 1;
        if (left > 0) this.counts.set(topic, left);
        else this.counts.delete(topic);
      }
      this.scheduleReopen();
    };
  }

  private wanted(): string {
    return [...this.counts.keys()].sort().join(',');
  }

  private scheduleReopen(): void {
    window.clearTimeout(this.reopenTimer);
    // Screens mount and unmount in batches: open once for the final set of topics.
    this.reopenTimer = window.setTimeout(() => {
      if (!this.stopped && (!this.source || this.wanted() !== this.openTopics)) this.reopen();
    }, 50);
  }

  private reopen(): void {
    if (typeof EventSource === 'undefined') return;
    this.source?.close();
    const topics = this.wanted();
    this.openTopics = topics;
    // "session" carries no events: it keeps the stream (and so the session watch) open with no screen subscribed.
    const query = topics ? `session,${topics}` : 'session';
    const source = new EventSource(`/api/events?topics=${encodeURIComponent(query)}`, { withCredentials: true });
    for (const topic of topics ? topics.split(',') : []) source.addEventListener(topic, (message) => this.dispatch(topic, message as MessageEvent<string>));
    let opened = false;
    source.onopen = () => {
      // Reconnected after a drop: events of the gap are lost, so the subscribed data is refreshed.
      if (opened) for (const topic of topics ? topics.split(',') : []) void this.queryClient.invalidateQueries({ queryKey: [topic] });
      opened = true;
    };
    source.onerror = () => {
      this.probeSession();
      // A refused reconnect (401, 5xx) ends the EventSource for good: try again while still signed in.
      if (source.readyState === EventSource.CLOSED && !this.stopped) {
        window.clearTimeout(this.reopenTimer);
        this.reopenTimer = window.setTimeout(() => !this.stopped && this.reopen(), 5000);
      }
    };
    this.source = source;
  }

  private dispatch(topic: string, message: MessageEvent<string>): void {
    let event: LiveEvent;
    try {
      event = JSON.parse(message.data) as LiveEvent;
    } catch {
      return;
    }
    for (const { topics, listener } of this.listeners) if (topics.has(topic)) listener(event);
  }

  /** The stream dropped: is the session still there? (A 401 takes the console to Sign in.) */
  private probeSession(): void {
    if (Date.now() - this.lastProbe < 2000) return;
    this.lastProbe = Date.now();
    void this.queryClient.invalidateQueries({ queryKey: authKeys.session });
  }
}

const LiveContext = createContext<LiveConnection | null>(null);

/** Opens the live connection for the signed-in shell. */
export function LiveUpdatesProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [connection] = useState(() => new LiveConnection(queryClient));
  useEffect(() => {
    connection.start();
    return () => connection.stop();
  }, [connection]);
  return createElement(LiveContext.Provider, { value: connection }, children);
}

/**
 * Live updates for a screen: while it is mounted, events of these topics arrive. By default an
 * event invalidates the queries under `[topic]` (so `users` refreshes every `['users', ...]`
 * query); `onEvent` replaces that.
 */
export function useLiveUpdates(topics: readonly string[], onEvent?: (event: LiveEvent) => void): void {
  const connection = useContext(LiveContext);
  const queryClient = useQueryClient();
  const handler = useRef(onEvent);
  handler.current = onEvent;
  const key = [...topics].sort().join(',');

  useEffect(() => {
    if (!connection || !key) return;
    return connection.subscribe(key.split(','), (event) => {
      if (handler.current) handler.current(event);
      else void queryClient.invalidateQueries({ queryKey: [event.topic] });
    });
  }, [connection, key, queryClient]);
}
