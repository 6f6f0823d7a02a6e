import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Remembers, on disk, the process group of every running job, so that a control plane killed
 * with SIGKILL (which takes none of its detached children with it) finds and ends them at its next
 * start instead of leaving them orphaned or running a second copy.
 *
 * Each record holds the pid, the pgid and the process's start time from /proc, so a pid reused
 * by an unrelated process is never killed.
 */
export interface ProcessRecord {
  jobId: string;
  pid: number;
  pgid: number;
  /** Field 22 of /proc/<pid>/stat: start time in clock ticks since boot (undefined once it has ended). */
  startTicks: string;
}

export function processStartTicks(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces and parentheses: split after its closing one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // A zombie has ended; only its exit status waits to be collected.
    return fields[0] === 'Z' ? undefined : fields[19];
  } catch {
    return undefined;
  }
}

export class ProcessRegistry {
  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  private file(jobId: string): string {
    return path.join(this.dir, `${jobId.replace(/[^\w.-]/g, '_')}.json`);
  }

  record(jobId: string, pid: number, pgid: number = pid): void {
    const startTicks = processStartTicks(pid);
    if (!startTicks) return;
    writeFileSync(this.file(jobId), JSON.stringify({ jobId, pid, pgid, startTicks } satisfies ProcessRecord));
  }

  forget(jobId: string): void {
    rmSync(this.file(jobId), { force: true });
  }

  list(): ProcessRecord[] {
    const records: ProcessRecord[] = [];
    for (const name of readdirSync(this.dir)) {
      if (!name.endsWith('.json')) continue;
      try {
        records.push(JSON.parse(readFileSync(path.join(this.dir, name), 'utf8')) as ProcessRecord);
      } catch {
        rmSync(path.join(this.dir, name), { force: true });
      }
    }
    return records;
  }

  /**
   * End every process group recorded by an earlier run that is still alive (SIGKILL: the run that
   * owned them is gone, there is nobody to finish gracefully for). Returns the job ids it ended.
   */
  async reapLeftovers(log: (line: string) => void = () => {}): Promise<string[]> {
    const reaped: string[] = [];
    for (const record of this.list()) {
      if (processStartTicks(record.pid) === record.startTicks) {
        try {
          process.kill(-record.pgid, 'SIGKILL');
          reaped.push(record.jobId);
          log(`ended process group ${record.pgid} of ${record.jobId} left by a previous run`);
        } catch {
          /* already gone */
        }
        const deadline = Date.now() + 5000;
        while (processStartTicks(record.pid) === record.startTicks && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      }
      this.forget(record.jobId);
    }
    return reaped;
  }
}
