import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, api, type Schemas } from '../client.ts';

/**
 * A run of a diagnostic tool: POST /api/tools/{tool} answers a Server-Sent Events stream, read
 * here as it arrives. Stopping (or leaving the screen) aborts the request, which ends the program
 * on the node.
 */

export type ToolEvent = Schemas['ToolEvent'];
export type ToolName = 'ping' | 'mtr' | 'keyframe' | 'mediachecker';

export interface ToolBodies {
  ping: Schemas['PingRequest'];
  mtr: Schemas['MtrRequest'];
  keyframe: Schemas['KeyframeRequest'];
  mediachecker: Schemas['MediaCheckRequest'];
}

/** The SSE events of a stream, as they arrive (the `data` of each is a ToolEvent). */
export async function* toolEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ToolEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline).replace(/\r$/, '');
        buffer = buffer.slice(newline + 1);
        if (line === '') {
          if (data.length) yield JSON.parse(data.join('\n')) as ToolEvent;
          data = [];
        } else if (line.startsWith('data:')) {
          data.push(line.slice(5).replace(/^ /, ''));
        }
      }
    }
  } finally {
    reader.releaseLock();
  }
}

export type RunStatus = 'idle' | 'running' | 'done';

export interface ToolRunState {
  status: RunStatus;
  events: ToolEvent[];
  /** The request was refused (400, 403, 409, 429 ...) or the stream broke. */
  error: unknown;
  /** The user stopped it. */
  stopped: boolean;
}

const IDLE: ToolRunState = { status: 'idle', events: [], error: null, stopped: false };

/** Start, follow and stop runs of one tool. A new start stops the run before it. */
export function useToolRun<T extends ToolName>(tool: T) {
  const [state, setState] = useState<ToolRunState>(IDLE);
  const current = useRef<AbortController | null>(null);

  useEffect(() => () => current.current?.abort(), []);

  const start = useCallback(
    async (body: ToolBodies[T]) => {
      current.current?.abort();
      const abort = new AbortController();
      current.current = abort;
      setState({ status: 'running', events: [], error: null, stopped: false });
      try {
        const { data, error, response } = await api.POST(`/api/tools/${tool}` as '/api/tools/ping', {
          body: body as Schemas['PingRequest'],
          parseAs: 'stream',
          signal: abort.signal,
          headers: { Accept: 'text/event-stream' },
        });
        if (!response.ok || !data) throw ApiError.from(response.status, error, response.headers.get('x-request-id'));
        for await (const event of toolEvents(data as ReadableStream<Uint8Array>)) {
          if (abort.signal.aborted) break;
          setState((s) => (current.current === abort ? { ...s, events: [...s.events, event] } : s));
        }
        if (current.current === abort) setState((s) => ({ ...s, status: 'done' }));
      } catch (error) {
        if (current.current !== abort) return;
        if (abort.signal.aborted) setState((s) => ({ ...s, status: 'done', stopped: true }));
        else setState((s) => ({ ...s, status: 'done', error }));
      }
    },
    [tool],
  );

  const stop = useCallback(() => {
    const abort = current.current;
    if (!abort) return;
    abort.abort();
    setState((s) => (s.status === 'running' ? { ...s, status: 'done', stopped: true } : s));
  }, []);

  const reset = useCallback(() => {
    current.current?.abort();
    current.current = null;
    setState(IDLE);
  }, []);

  return { ...state, running: state.status === 'running', start, stop, reset };
}

/** The events of one type. */
export function eventsOf<K extends ToolEvent['type']>(events: readonly ToolEvent[], type: K): Extract<ToolEvent, { type: K }>[] {
  return events.filter((e) => e.type === type) as Extract<ToolEvent, { type: K }>[];
}

/**
 * The tokens the keyframe tool offers to choose from. The token sources (CDN token extensions)
 * are not part of the product yet, so the list is empty and the choice is not offered.
 */
export function useTokenChoices(): Array<{ label: string; value: string }> {
  return [];
}
