import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

/**
 * One long-lived `nft -j -i` (nftables' interactive mode, JSON output) that answers read commands
 * such as `list counters table inet <t>`, one JSON line per command. The counters of every running
 * job are read every second or two; spawning `nft` for each read cost the control plane more than
 * everything else it does for a running job (a fork of the whole Node process each time).
 *
 * - Commands go one at a time; each waits for its line on stdout, or fails on the first output to
 *   stderr (nft reports a failed command there and prints nothing on stdout), or after `timeoutMs`.
 * - A session that fails or times out is ended, and the next command starts a new one.
 * - The session ends when its stdin closes, so it never outlives the node process, even one
 *   killed outright.
 */
export class NftSession {
  private child: ChildProcessWithoutNullStreams | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private pending: { resolve: (line: string) => void; reject: (error: Error) => void } | undefined;
  private stdout = '';

  constructor(
    private readonly nftPath: string,
    private readonly timeoutMs = 5_000,
  ) {}

  /** Runs one command and resolves with its JSON output (one line). */
  request(command: string): Promise<string> {
    if (/[\r\n]/.test(command)) return Promise.reject(new Error('an nft command is one line'));
    const run = () => this.send(command);
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Ends the session (the next request starts another). */
  close(): void {
    const child = this.child;
    this.child = undefined;
    this.stdout = '';
    if (child) {
      child.stdin.end();
      child.kill('SIGKILL');
    }
    this.pending?.reject(new Error('nft session closed'));
    this.pending = undefined;
  }

  private start(): ChildProcessWithoutNullStreams {
    const child = spawn(this.nftPath, ['-j', '-i'], { stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      this.stdout += chunk;
      let newline = this.stdout.indexOf('\n');
      while (newline >= 0) {
        const line = this.stdout.slice(0, newline).trim();
        this.stdout = this.stdout.slice(newline + 1);
        if (line) this.settle((p) => p.resolve(line));
        newline = this.stdout.indexOf('\n');
      }
    });
    // A failed command speaks on stderr only; the session is ended with it, so that the rest of the
    // message can never be taken for the answer to the next command.
    child.stderr.on('data', (chunk: string) => {
      if (this.child !== child) return;
      this.settle((p) => p.reject(new Error(`nft: ${chunk.trim()}`)));
      this.close();
    });
    const gone = (why: string) => {
      if (this.child !== child) return;
      this.child = undefined;
      this.stdout = '';
      this.settle((p) => p.reject(new Error(`nft session ended (${why})`)));
    };
    child.once('error', (error) => gone(error.message));
    child.once('exit', (code, signal) => gone(signal ?? `exit ${code}`));
    child.stdin.on('error', () => undefined);
    return child;
  }

  private settle(action: (pending: { resolve: (line: string) => void; reject: (error: Error) => void }) => void): void {
    const pending = this.pending;
    this.pending = undefined;
    if (pending) action(pending);
  }

  private send(command: string): Promise<string> {
    this.child ??= this.start();
    const child = this.child;
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending = undefined;
        this.close();
        reject(new Error(`nft did not answer "${command}" within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      this.pending = {
        resolve: (line) => (clearTimeout(timer), resolve(line)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      };
      child.stdin.write(`${command}\n`);
    });
  }
}
