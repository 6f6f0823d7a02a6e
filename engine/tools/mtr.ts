import { MtrTable, mtrErrorText } from './mtr-parser.ts';
import { assertNotOption, runToolProcess } from './tool-process.ts';
import { endOf, type ToolRunEnd, type ToolRunOptions } from './types.ts';

/** How often, at most, the hop table is reported while it fills. */
const REPORT_EVERY_MS = 250;

/** `mtr --raw -c <count> [-n] -- <host>`: one record a line as probes go and come back. */
export function buildMtrArgs(host: string, count: number, noDns: boolean): string[] {
  assertNotOption(host, 'host');
  if (!Number.isInteger(count) || count < 1 || count > 1000) throw new Error(`refusing mtr count ${count}`);
  return ['--raw', '-c', String(count), ...(noDns ? ['-n'] : []), '--', host];
}

/** Trace the route to a host, reporting the whole hop table as it fills (at most 4 times a second) and at the end. */
export async function runMtr(host: string, count: number, noDns: boolean, options: ToolRunOptions): Promise<ToolRunEnd> {
  const table = new MtrTable();
  let failed = false;
  let changed = false;
  let lastReport = 0;
  const report = () => {
    changed = false;
    lastReport = Date.now();
    options.emit({ type: 'hops', hops: table.rows() });
  };
  const pending = setInterval(() => changed && report(), REPORT_EVERY_MS);
  pending.unref();
  try {
    const result = await runToolProcess(options.program ?? 'mtr', buildMtrArgs(host, count, noDns), {
      signal: options.signal,
      // A cycle a second, and a few seconds for the last replies.
      timeoutMs: (count + 30) * 1000,
      onStdoutLine: (line) => {
        if (!table.add(line)) return;
        changed = true;
        if (Date.now() - lastReport >= REPORT_EVERY_MS) report();
      },
      onStderrLine: (line) => {
        if (!line.trim()) return;
        failed = true;
        options.emit({ type: 'error', error: mtrErrorText(line) });
      },
    });
    if (result.spawnError) options.emit({ type: 'error', error: result.spawnError });
    if (!failed && !result.spawnError) report();
    return endOf(result, failed || (result.exitCode !== null && result.exitCode !== 0));
  } finally {
    clearInterval(pending);
  }
}
