import { readdirSync, readFileSync } from 'node:fs';

/** Whether a process is alive (a zombie has ended: only its exit status waits to be collected). */
export function isAlive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Live processes of `program` (e.g. ffmpeg) with an argument containing `text` (a path unique to one test). */
export function processesWithArgument(program: string, text: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (cmdline[0]?.endsWith(program) && cmdline.some((arg) => arg.includes(text)) && isAlive(Number(entry))) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}
