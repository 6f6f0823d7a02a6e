/**
 * Restart delays: the first retry comes quickly (a live source that blinked should be back within
 * a second), then each further consecutive attempt waits twice as long, up to a cap. The supervisor
 * counts attempts from 1 and starts counting again once a process has run healthy for a while.
 */
export interface BackoffOptions {
  /** Delay before the first attempt (default 250 ms). */
  initialMs?: number;
  /** Growth per attempt (default 2). */
  factor?: number;
  /** Longest delay (default 30 s). */
  maxMs?: number;
}

export type Backoff = (attempt: number) => number;

export function exponentialBackoff(options: BackoffOptions = {}): Backoff {
  const initial = options.initialMs ?? 250;
  const factor = options.factor ?? 2;
  const max = options.maxMs ?? 30_000;
  return (attempt) => Math.min(max, Math.round(initial * factor ** Math.max(0, attempt - 1)));
}

export const DEFAULT_BACKOFF: Backoff = exponentialBackoff();
