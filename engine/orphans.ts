import { readdir, readFile } from 'node:fs/promises';
import { processStartTicks } from './process-registry.ts';

/**
 * Helper processes of a job that live beside ffmpeg (the SRT companions, the probes of a failover
 * primary) carry two marks in their environment: what they are for (`<marker>=<job id>`) and who
 * started them (`<owner>=<pid>:<start time>` of the node process). A node process killed outright
 * (SIGKILL) takes none of its detached children with it; the next one finds them by their marks and
 * ends those whose owner is gone. Processes of a living owner (another node process on this machine,
 * another test) are never touched.
 */

/** The environment entries that mark a helper process of `jobId` started by this node process. */
export function ownedProcessEnv(marker: string, ownerVar: string, jobId: string): Record<string, string> {
  return { [marker]: jobId, [ownerVar]: `${process.pid}:${processStartTicks(process.pid) ?? '0'}` };
}

/** A kind of helper process: the environment variable that marks it, and the one that names its owner. */
export interface OrphanKind {
  marker: string;
  ownerVar: string;
}

/**
 * Ends (SIGKILL) every process marked with `marker` whose owner no longer exists; with a job id,
 * only that job's. Returns the pids it ended.
 */
export function reapOrphans(marker: string, ownerVar: string, jobId?: string): Promise<number[]> {
  return reapOrphansOf([{ marker, ownerVar }], jobId);
}

/** reapOrphans for several kinds in ONE pass over /proc (a node's start reaps them all). */
export async function reapOrphansOf(kinds: OrphanKind[], jobId?: string): Promise<number[]> {
  const ended: number[] = [];
  let names: string[];
  try {
    names = await readdir('/proc');
  } catch {
    return ended;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    let environ: string;
    try {
      environ = await readFile(`/proc/${pid}/environ`, 'utf8');
    } catch {
      continue;
    }
    const vars = environ.split('\0');
    const kind = kinds.find((k) => vars.some((v) => v.startsWith(`${k.marker}=`)));
    if (!kind) continue;
    const job = vars.find((v) => v.startsWith(`${kind.marker}=`))?.slice(kind.marker.length + 1);
    if (job === undefined || (jobId !== undefined && job !== jobId)) continue;
    const owner = vars.find((v) => v.startsWith(`${kind.ownerVar}=`))?.slice(kind.ownerVar.length + 1) ?? '';
    const [ownerPid, ownerTicks] = owner.split(':');
    if (ownerPid && Number(ownerPid) > 0 && processStartTicks(Number(ownerPid)) === ownerTicks) continue;
    if (processStartTicks(pid) === undefined) continue; // already ended (a zombie)
    try {
      process.kill(pid, 'SIGKILL');
      ended.push(pid);
    } catch {
      // gone meanwhile
    }
  }
  return ended;
}
