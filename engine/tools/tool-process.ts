import { createInterface } from 'node:readline';
import { execa } from 'execa';
import { signalGroup, trackGroup, untrackGroup } from '../supervisor/process-group.ts';

/**
 * One run of a diagnostic program (ping, mtr, ffprobe): started WITHOUT a shell, as the leader of
 * its own process group (so mtr's mtr-packet goes with it), its output read line by line as it
 * comes. Aborting (the client went away or pressed Stop) or running past the time limit ends the
 * whole group: SIGTERM, then SIGKILL after a grace period.
 */

export interface ToolProcessOptions {
  signal?: AbortSignal;
  timeoutMs: number;
  onStdoutLine?: (line: string) => void;
  onStderrLine?: (line: string) => void;
  /** Between SIGTERM and SIGKILL. Default 2 s. */
  killGraceMs?: number;
}

export interface ToolProcessResult {
  exitCode: number | null;
  signal: string | null;
  aborted: boolean;
  timedOut: boolean;
  /** The program could not be started (not installed ...): the reason. */
  spawnError: string | null;
  durationMs: number;
}

/** Arguments that could be read as options are refused here too, whatever validated them before. */
export function assertNotOption(value: string, what: string): void {
  if (value.length === 0 || value.startsWith('-') || /[\s\0]/.test(value)) throw new Error(`refusing ${what} ${JSON.stringify(value)}: not a plain argument`);
}

export async function runToolProcess(program: string, args: readonly string[], options: ToolProcessOptions): Promise<ToolProcessResult> {
  const started = Date.now();
  if (options.signal?.aborted) return { exitCode: null, signal: null, aborted: true, timedOut: false, spawnError: null, durationMs: 0 };
  const child = execa(program, [...args], {
    shell: false,
    reject: false,
    stdin: 'ignore',
    buffer: false,
    detached: true,
    // Stable, parseable output whatever the server's locale.
    env: { LC_ALL: 'C', LANG: 'C' },
    extendEnv: true,
  });
  const pid = child.pid;
  if (pid) trackGroup(pid);
  let aborted = false;
  let timedOut = false;
  let killTimer: NodeJS.Timeout | undefined;
  const end = () => {
    if (!pid || killTimer) return;
    signalGroup(pid, 'SIGTERM');
    killTimer = setTimeout(() => signalGroup(pid, 'SIGKILL'), options.killGraceMs ?? 2000);
    killTimer.unref();
  };
  const onAbort = () => {
    aborted = true;
    end();
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const timeout = setTimeout(() => {
    timedOut = true;
    end();
  }, options.timeoutMs);
  timeout.unref();

  const readers: Promise<void>[] = [];
  for (const [stream, handler] of [
    [child.stdout, options.onStdoutLine],
    [child.stderr, options.onStderrLine],
  ] as const) {
    if (!stream) continue;
    const lines = createInterface({ input: stream, crlfDelay: Infinity });
    readers.push(
      (async () => {
        for await (const line of lines) handler?.(line);
      })().catch(() => undefined),
    );
  }
  const result = await child;
  await Promise.all(readers);
  clearTimeout(timeout);
  options.signal?.removeEventListener('abort', onAbort);
  if (pid) {
    // Whatever the program left in its group (it exited first) goes with it.
    try {
      signalGroup(pid, 'SIGKILL');
    } catch {
      // gone
    }
    untrackGroup(pid);
  }
  if (killTimer) clearTimeout(killTimer);
  const cause = result.cause as NodeJS.ErrnoException | undefined;
  const spawnError = result.exitCode === undefined && !result.signal && !aborted && !timedOut ? (cause?.code === 'ENOENT' ? `${program} is not installed on this node` : (cause?.message ?? `${program} did not start`)) : null;
  return {
    exitCode: result.exitCode ?? null,
    signal: result.signal ?? null,
    aborted,
    timedOut,
    spawnError,
    durationMs: Date.now() - started,
  };
}
