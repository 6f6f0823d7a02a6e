import type { ExitReason } from '../types.ts';

export interface ExitFacts {
  code: number | null;
  signal: string | null;
  /** The last stderr lines of the process, oldest first, as ffmpeg wrote them (level tags included). */
  lastLines: string[];
  /** The supervisor itself ended the process (stop, restart, reload, failover switch). */
  stopRequested: boolean;
  /** The supervisor killed it because it made no progress for the stale timeout. */
  hang: boolean;
  /** The process could not be started at all (the spawn error's message). */
  spawnError?: string;
  /**
   * The process's inputs as given after `-i`: an error printed as `<input>: <error>` is the input's,
   * any other `<url or path>: <error>` is an output's. Without them the classifier infers the side
   * from ffmpeg's own `Input #n, ..., from '<input>'` lines.
   */
  inputs?: string[];
}

export interface ExitClassification {
  reason: ExitReason;
  detail: string;
}

type Side = 'input' | 'output' | 'unknown';

interface Line {
  level: string | null;
  text: string;
  /** The line came from a component (`[tcp @ 0x...]`), not from ffmpeg's own report. */
  context: boolean;
}

const LEVELS = new Set(['quiet', 'panic', 'fatal', 'error', 'warning', 'info', 'verbose', 'debug', 'trace']);

/**
 * `[h264 @ 0x55...] [error] text` → { level: 'error', text: 'h264: text' }; lines without tags keep
 * level null. libsrt writes its own lines (`11:25:42.742166/SRT:RcvQ:w1!W:SRT.cn: ...`): they are
 * shortened to `SRT: ...`.
 */
function parseLine(raw: string): Line {
  let rest = raw.trimEnd();
  let level: string | null = null;
  let context = '';
  for (;;) {
    const m = /^\[([^\]]*)\]\s?/.exec(rest);
    if (!m) break;
    if (LEVELS.has(m[1])) level = m[1];
    else if (m[1].includes(' @ ')) context = m[1].split(' @ ')[0];
    else break; // a bracket that is part of the text
    rest = rest.slice(m[0].length);
  }
  rest = rest.trim().replace(/^\d{2}:\d{2}:\d{2}\.\d+\/SRT:\S*\s*(processAsyncConnectRequest: )?/, 'SRT: ');
  return { level, text: context ? `${context}: ${rest}` : rest, context: context !== '' };
}

const SEVERE = new Set(['panic', 'fatal', 'error']);

interface Rule {
  reason: ExitReason;
  /** Tried in order: the first pattern that matches a line gives the detail, so the most telling come first. */
  patterns: RegExp[];
  /** What the reason becomes when the failure is an output's. */
  onOutput?: ExitReason;
}

/** Most specific first: the first rule that matches a line wins. */
const RULES: Rule[] = [
  {
    reason: 'option_unsupported',
    patterns: [/Unrecognized option '/, /Missing argument for option/, /Invalid option/, /Option not found|Error splitting the argument list/],
  },
  {
    reason: 'codec_unsupported',
    patterns: [
      /Unknown (encoder|decoder) '/,
      /(Decoder|Encoder) \(codec [^)]*\) not found|(Encoder|Decoder) not found/,
      /Cannot load lib(cuda|nvcuvid|nvidia-encode)|Failed loading nvcuvid|No NVENC capable devices|No capable devices found/,
      /codec not currently supported in container|Could not find tag for codec/,
      /Error while opening (encoder|decoder)/,
    ],
  },
  { reason: 'out_of_memory', patterns: [/Cannot allocate memory|[Oo]ut of memory/] },
  {
    // Probing ended before the input's streams were known (a live input joined mid-GOP, a late PMT):
    // a longer probe is likely to succeed (engine/job-runner.ts starts one at once).
    reason: 'probe_incomplete',
    patterns: [/dimensions not set|sample rate not set/, /does not contain any stream/, /Could not find codec parameters/],
  },
  { reason: 'address_in_use', patterns: [/Address already in use/, /bind failed/] },
  {
    reason: 'authorization_refused',
    patterns: [
      /Incorrect passphrase|Password required|BADSECRET/,
      /(HTTP error|Server returned|failed:?) 40[13]\b|\b40[13] (Unauthorized|Forbidden)\b|\bUnauthorized\b|\bForbidden\b|authorization failed|access denied|Authentication failed|NetConnection\.Connect\.Rejected/,
      /Permission denied/,
    ],
    onOutput: 'output_refused',
  },
  {
    reason: 'not_found',
    patterns: [/(Server returned|failed:?) 404\b|\b404 Not Found\b|StreamNotFound|Stream not found/, /No such file or directory/],
    onOutput: 'output_refused',
  },
  {
    reason: 'output_refused',
    patterns: [/Error opening output|Could not write header|Error writing trailer|av_interleaved_write_frame\(\)|Error submitting a packet to the muxer|Broken pipe|Unable to open resource|No space left on device/],
  },
  { reason: 'invalid_data', patterns: [/Invalid data found when processing input/] },
  { reason: 'connection_refused', patterns: [/Connection refused/], onOutput: 'output_refused' },
  {
    reason: 'input_unreachable',
    patterns: [
      /Failed to resolve hostname|Name or service not known|Temporary failure in name resolution/,
      /No route to host|Network is unreachable|Host is unreachable/,
      /Connection timed out|timed out/,
      /Connection reset by peer/,
      /Input\/output error/,
    ],
    onOutput: 'output_refused',
  },
];

const TERMINATING_SIGNALS = new Set(['SIGKILL', 'SIGTERM', 'SIGINT', 'SIGHUP', 'SIGQUIT', 'SIGPIPE']);

/** A target ffmpeg names before an error: a URL or an absolute path (ffmpeg's print_error: `<target>: <error>`). */
const TARGET = /^((?:[a-z][a-z0-9+.-]*:(?:\/\/)?|\/)\S*): /i;

/**
 * Which side failed. ffmpeg opens every input before any output and names what it could not open
 * (`<target>: <error>`): a target that is one of the inputs (given, or announced by ffmpeg as
 * `Input #n, ..., from '<target>'`) is the input's failure; another target, once inputs are known,
 * an output's.
 */
function failureSide(lines: Line[], inputs: string[] | undefined): (line: Line) => Side {
  const opened = new Set<string>();
  for (const line of lines) {
    const m = /^Input #\d+, [^,]+, from '(.*)':$/.exec(line.text);
    if (m) opened.add(m[1]);
  }
  const known = [...(inputs ?? []), ...opened];
  const sideOfLine = (line: Line): Side => {
    if (line.context) return 'unknown';
    for (const input of known) if (line.text.startsWith(`${input}: `)) return 'input';
    if (/^(Error opening output|Could not write header|Error writing trailer)|for output stream|output file #/.test(line.text)) return 'output';
    if (TARGET.test(line.text) && known.length > 0) return 'output';
    return 'unknown';
  };
  let overall: Side = 'unknown';
  for (let i = lines.length - 1; i >= 0 && overall === 'unknown'; i--) {
    if (lines[i].level !== null && !SEVERE.has(lines[i].level!)) continue;
    overall = sideOfLine(lines[i]);
  }
  return (line) => {
    const own = sideOfLine(line);
    return own === 'unknown' ? overall : own;
  };
}

/**
 * Names why a process ended, from its exit code, its signal and its last stderr lines: the reason
 * an operator reads in the console and the CLI, and the detail (the line that tells it).
 */
export function classifyExit(facts: ExitFacts): ExitClassification {
  const how = facts.signal ? `signal ${facts.signal}` : `code ${facts.code}`;
  if (facts.spawnError !== undefined) return { reason: 'spawn_failed', detail: facts.spawnError };
  if (facts.stopRequested) return { reason: 'stopped', detail: `stopped by the supervisor (${how})` };
  if (facts.hang) return { reason: 'hang', detail: 'no progress within the stale timeout: killed by the supervisor' };
  if (facts.code === 0) return { reason: 'finished', detail: 'the process ended by itself (code 0)' };

  const lines = facts.lastLines.map(parseLine).filter((l) => l.text !== '');
  const sideOf = failureSide(lines, facts.inputs);
  const severe = lines.filter((l) => l.level === null || SEVERE.has(l.level));

  const match = (rules: Rule[]): ExitClassification | undefined => {
    for (const pass of [severe, lines]) {
      for (const rule of rules) {
        for (const pattern of rule.patterns) {
          // The last matching line is the closest to the cause of the exit.
          for (let i = pass.length - 1; i >= 0; i--) {
            const line = pass[i];
            if (!pattern.test(line.text)) continue;
            const reason = rule.onOutput && sideOf(line) === 'output' ? rule.onOutput : rule.reason;
            return { reason, detail: line.text };
          }
        }
      }
    }
    return undefined;
  };

  if (facts.signal) {
    const oom = match(RULES.filter((r) => r.reason === 'out_of_memory'));
    if (oom) return oom;
    if (TERMINATING_SIGNALS.has(facts.signal)) return { reason: 'killed', detail: `killed by ${facts.signal}, not by the supervisor` };
    return { reason: 'crashed', detail: `crashed with ${facts.signal}` };
  }

  const named = match(RULES);
  if (named) return named;
  if (facts.code === 137) return { reason: 'out_of_memory', detail: 'code 137: killed, most likely by the kernel for lack of memory' };
  const received = [...lines].reverse().find((l) => /received signal \d+/.test(l.text));
  if (received) return { reason: 'killed', detail: received.text };
  const lastSevere = [...severe].reverse().find((l) => l.level !== null);
  return { reason: 'crashed', detail: lastSevere ? `${lastSevere.text} (${how})` : `exited with ${how}` };
}

/** The inputs of an ffmpeg argv: every value that follows `-i`. */
export function inputsOfArgs(args: readonly string[]): string[] {
  const inputs: string[] = [];
  for (let i = 0; i < args.length - 1; i++) if (args[i] === '-i') inputs.push(args[i + 1]);
  return inputs;
}
