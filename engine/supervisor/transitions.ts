import type { JobState } from '../types.ts';

/**
 * The observed states of a supervised process and the only moves between them. `desired` (what the
 * operator asked for) is kept apart and never appears here: a stop changes `desired`, then the
 * process is brought down; a crash changes only the observed state.
 *
 *   stopped    → starting                 start
 *   starting   → running                  the first progress block
 *              → restarting               it exited (or was killed for a hang) and will be started again
 *              → stopping                 stop while the process is up
 *              → stopped                  stop before it was spawned; a VOD that ended
 *              → failed                   it exited and no restart attempt is left (or it could not be spawned)
 *   running    → restarting | stopping | stopped | failed      as for starting
 *   restarting → starting                 the backoff delay passed, or the old process of a restart is gone
 *              → stopping                 stop while the old process is still going down
 *              → stopped                  stop while waiting for the next attempt (no process)
 *   stopping   → stopped                  the process is gone
 *              → starting                 start came while it was going down: it is started again
 *   failed     → starting | stopped       start again; stop acknowledges the failure
 */
export const TRANSITIONS: Readonly<Record<JobState, readonly JobState[]>> = {
  stopped: ['starting'],
  starting: ['running', 'restarting', 'stopping', 'stopped', 'failed'],
  running: ['restarting', 'stopping', 'stopped', 'failed'],
  restarting: ['starting', 'stopping', 'stopped'],
  stopping: ['stopped', 'starting'],
  failed: ['starting', 'stopped'],
};

export function isLegalTransition(from: JobState, to: JobState): boolean {
  return TRANSITIONS[from].includes(to);
}

export class IllegalTransitionError extends Error {
  constructor(
    readonly from: JobState,
    readonly to: JobState,
    readonly jobId: string,
  ) {
    super(`illegal state transition ${from} → ${to} (job ${jobId})`);
    this.name = 'IllegalTransitionError';
  }
}

/** In development and tests an illegal transition is a bug that must surface: it throws. In production it is logged and the move happens anyway, so the supervisor never wedges. */
export function strictTransitions(): boolean {
  const env = process.env.NODE_ENV;
  return env === 'development' || env === 'test' || process.env.MEDIAPLANE_DEV === '1';
}
