import { readFileSync } from 'node:fs';

/**
 * Bytes a process has read with read(2) and its kin so far (`rchar` of /proc/<pid>/io): for a job
 * whose input is a file, the bytes of its input. Sockets read with recv(2) (UDP, TCP, SRT) are not
 * in it, so it says nothing of network inputs. Undefined when the process is gone or unreadable.
 */
export async function bytesReadByProcess(pid: number): Promise<number | undefined> {
  try {
    const io = readFileSync(`/proc/${pid}/io`, 'utf8'); // /proc: memory, not disk (see process-tree.ts)
    const m = /^rchar:\s*(\d+)$/m.exec(io);
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}
