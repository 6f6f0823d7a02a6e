/**
 * Each job runs as the leader of its own process group (spawned with `detached: true`, which
 * calls setsid), so one signal reaches ffmpeg and everything it started: `kill(-pgid, sig)`.
 */

/** Sends a signal to a whole process group; false when the group is already gone. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  if (!Number.isInteger(pgid) || pgid <= 1) throw new Error(`refusing to signal process group ${pgid}`);
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

/** Groups still alive in this Node process: killed if Node itself exits, so no job outlives its node. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

export function trackGroup(pgid: number): void {
  liveGroups.add(pgid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const group of liveGroups) {
        try {
          process.kill(-group, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    });
  }
}

export function untrackGroup(pgid: number): void {
  liveGroups.delete(pgid);
}
