import { createInterface, type Interface } from 'node:readline';

/**
 * Asks for what a command is missing. On a terminal: a visible question, or a hidden one for
 * passwords (nothing echoed). Otherwise: the next line of stdin, so `printf 'admin\nsecret\n' |
 * mediaplane login` works in scripts. Questions go to stderr; stdout stays the command's output.
 */
export class Prompter {
  private lines?: AsyncIterator<string>;
  private reader?: Interface;
  /** Typed ahead on the terminal, not yet answered. */
  private pending = '';

  constructor(
    private readonly input: NodeJS.ReadStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stderr,
  ) {}

  get interactive(): boolean {
    return Boolean(this.input.isTTY);
  }

  /** A visible answer; undefined when stdin ended. */
  async ask(question: string): Promise<string | undefined> {
    return this.interactive ? this.readTerminalLine(question, true) : this.nextLine();
  }

  /** An answer that is not echoed: passwords. */
  async askHidden(question: string): Promise<string | undefined> {
    return this.interactive ? this.readTerminalLine(question, false) : this.nextLine();
  }

  /** Yes or no on a terminal; `fallback` elsewhere (no one to ask). */
  async confirm(question: string, fallback = false): Promise<boolean> {
    if (!this.interactive) return fallback;
    const answer = await this.ask(`${question} [y/N] `);
    return /^(y|yes)$/i.test((answer ?? '').trim());
  }

  close(): void {
    this.reader?.close();
  }

  /**
   * One line from the terminal in raw mode, echoed or not. What was typed ahead past the Enter
   * (typing the password before its question shows, a paste of both lines) is kept for the next question.
   */
  private readTerminalLine(question: string, echo: boolean): Promise<string> {
    const input = this.input;
    this.output.write(question);
    input.setRawMode(true);
    input.setEncoding('utf8');
    return new Promise<string>((resolve) => {
      let value = '';
      const take = (chunk: string): boolean => {
        if (chunk.startsWith('\u001b')) return false; // arrow keys and other escape sequences
        const chars = [...chunk];
        for (let i = 0; i < chars.length; i += 1) {
          const ch = chars[i];
          if (ch === '\r' || ch === '\n' || ch === '\u0004') {
            this.pending = chars.slice(i + (ch === '\r' && chars[i + 1] === '\n' ? 2 : 1)).join('');
            return true;
          }
          if (ch === '\u0003') {
            this.restore();
            interrupted(this.output);
          }
          if (ch === '\u007f' || ch === '\b') {
            if (value.length && echo) this.output.write('\b \b');
            value = [...value].slice(0, -1).join('');
          } else if (ch >= ' ') {
            value += ch;
            if (echo) this.output.write(ch);
          }
        }
        return false;
      };
      const finish = () => {
        input.off('data', onData);
        this.restore();
        this.output.write('\n');
        resolve(value);
      };
      const onData = (chunk: string) => {
        if (take(chunk)) finish();
      };
      const pending = this.pending;
      this.pending = '';
      if (pending && take(pending)) return finish();
      input.on('data', onData);
      input.resume();
    });
  }

  private restore(): void {
    this.input.setRawMode(false);
    this.input.pause();
  }

  private async nextLine(): Promise<string | undefined> {
    if (!this.lines) {
      this.reader = createInterface({ input: this.input, terminal: false, crlfDelay: Infinity });
      this.lines = this.reader[Symbol.asyncIterator]();
    }
    const next = await this.lines.next();
    return next.done ? undefined : next.value;
  }
}

function interrupted(output: NodeJS.WritableStream): never {
  output.write('\n');
  process.exit(130);
}
