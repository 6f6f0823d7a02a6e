import type { ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import type { EngineEvent, ExitReason, LogLevel, Progress } from '../types.ts';

/** The vocabulary of the process supervisor: what it is given, what it tells, what it keeps per process. */

export interface SupervisedCommand {
  file: string;
  args: string[];
  env?: Record<string, string>;
}

export interface ProcessSupervisorOptions {
  id: string;
  /** Asked before every spawn, so a restart picks up a changed spec (reload) or the failover input. */
  command: () => Promise<SupervisedCommand> | SupervisedCommand;
  /** The fd ffmpeg writes `-progress` to (3 by default); null: the program reports no progress. */
  progressFd?: 3 | null;
  /** No progress for this long is a hang: the group is killed and restarted. 0 disables the check. */
  staleTimeoutMs: number;
  restart: {
    /** Consecutive restart attempts after unexpected exits; 0 = never restart. */
    attempts: number;
    /** Delay before attempt n (from 1). */
    backoff?: (attempt: number) => number;
    /** Once a process has delivered media (progress that moves) for this long, the attempt count starts again (default 10 s). */
    healthyAfterMs?: number;
    /** Restart after a clean exit (code 0) too: a live input that ended should come back (default false: a VOD is done). */
    onFinish?: boolean;
  };
  /**
   * Asked when a process ends before it delivered anything (it never reached running): a line for
   * the job's log means "start it again at once, the next command differs" (a longer probe), and
   * says why; undefined means no. Such a start again is part of the start: no restart attempt is
   * used, no backoff waits, and `restarts` does not count it.
   */
  retryStart?: (exit: { reason: ExitReason; detail: string }) => string | undefined;
  /** How long a process gets after SIGINT before SIGKILL. */
  stopGraceMs: number;
  /** Receives each new process's stdout (an MPEG-TS stream for mpegts outputs); when absent stdout is discarded. */
  onStdout?: (stream: Readable) => void;
  /** Clock for event times (ms since the epoch). Durations use a monotonic clock. */
  now?: () => number;
}

export type StateEvent = Extract<EngineEvent, { type: 'state' }>;
export type ProgressEvent = Extract<EngineEvent, { type: 'progress' }>;
export type ExitEvent = Extract<EngineEvent, { type: 'exit' }>;

export type SupervisorEvents = {
  state: StateEvent;
  progress: ProgressEvent & { advanced: boolean };
  exit: ExitEvent;
  /** One raw stderr line of the process. */
  log: { type: 'log'; jobId: string; raw: string; at: number };
  /** The supervisor's own account of what it does (spawn, signals, restarts), for the job's log. */
  notice: { type: 'notice'; jobId: string; level: LogLevel; text: string; at: number };
  /** A process was spawned. */
  spawn: { type: 'spawn'; jobId: string; pid: number; file: string; args: string[]; at: number };
};

/** One spawned process and what we know of it. */
export interface Run {
  child: ChildProcess;
  pid: number;
  args: string[];
  spawnedAt: number;
  runningAt?: number;
  lastAdvanceAt: number;
  lastProgress?: Progress;
  lastLines: string[];
  /** We ended it (stop, restart): its exit is `stopped`, not a failure. */
  stopRequested: boolean;
  hang: boolean;
  exit?: { code: number | null; signal: NodeJS.Signals | null };
  staleTimer?: NodeJS.Timeout;
  graceTimer?: NodeJS.Timeout;
  finished: boolean;
}

/** Stderr lines kept for the exit classifier. */
export const LAST_LINES_KEPT = 40;
/** After the leader exits, its pipes get this long to deliver their last bytes. */
export const DRAIN_AFTER_EXIT_MS = 2_000;

/** An argv entry as a shell would need it, for the log line that shows the command (nothing is run through a shell). */
export function quoteArg(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`;
}

/** Calls onLine for every line of a text stream (\n, \r\n or \r), the unterminated last one included. */
export function eachLine(stream: Readable, onLine: (line: string) => void): void {
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    const parts = (rest + chunk).split(/\r?\n|\r/);
    rest = parts.pop() ?? '';
    for (const part of parts) if (part !== '') onLine(part);
  });
  stream.on('end', () => {
    if (rest !== '') onLine(rest);
    rest = '';
  });
}
