import { lineKind, parsePingLine, pingErrorText, PingSummaryReader } from './ping-parser.ts';
import { assertNotOption, runToolProcess } from './tool-process.ts';
import { endOf, type ToolRunEnd, type ToolRunOptions } from './types.ts';

/**
 * `ping -n -O -c <count> -W 5 -- <host>`: numeric output (no reverse lookup per reply), a line for
 * each request left unanswered, `count` requests, each waited for at most 5 s. The host is one
 * argument after `--`: never an option, whatever it holds.
 */
export function buildPingArgs(host: string, count: number): string[] {
  assertNotOption(host, 'host');
  if (!Number.isInteger(count) || count < 1 || count > 1000) throw new Error(`refusing ping count ${count}`);
  return ['-n', '-O', '-c', String(count), '-W', '5', '--', host];
}

/** Ping a host, reporting each line as ping prints it (replies parsed), then the statistics. */
export async function runPing(host: string, count: number, options: ToolRunOptions): Promise<ToolRunEnd> {
  const summary = new PingSummaryReader();
  let failed = false;
  const result = await runToolProcess(options.program ?? 'ping', buildPingArgs(host, count), {
    signal: options.signal,
    timeoutMs: (count + 20) * 1000,
    onStdoutLine: (text) => {
      if (!text.trim()) return;
      const parsed = parsePingLine(text);
      summary.add(parsed);
      options.emit(parsed.kind === 'reply' ? { type: 'line', kind: 'reply', text, reply: parsed.reply } : { type: 'line', kind: lineKind(parsed.kind), text });
    },
    onStderrLine: (text) => {
      if (!text.trim()) return;
      failed = true;
      options.emit({ type: 'error', error: pingErrorText(text) });
    },
  });
  if (result.spawnError) options.emit({ type: 'error', error: result.spawnError });
  const statistics = summary.result();
  if (statistics) options.emit({ type: 'summary', summary: statistics });
  // Exit 1 is "no reply": ping did its work. 2 and above is an error (it said which on stderr).
  return endOf(result, failed || (result.exitCode !== null && result.exitCode >= 2));
}
