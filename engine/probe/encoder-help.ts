/**
 * Readers of ffmpeg's own description of its encoders, so the product offers what the installed
 * ffmpeg really has:
 * - `ffmpeg -hide_banner -encoders`: the list of encoders (`parseEncoderList`);
 * - `ffmpeg -hide_banner -h encoder=<name>`: one encoder's private options, their types, limits,
 *   defaults and named values, its supported sample rates and how many channels it takes
 *   (`parseEncoderHelp`).
 * Pure functions over the text; running ffmpeg is the caller's business.
 */

export type EncoderMediaType = 'video' | 'audio' | 'subtitle';

export interface EncoderListEntry {
  name: string;
  type: EncoderMediaType;
  description: string;
}

/** A named value of an option (`-preset p4`, `-aq-mode variance`). Flags constants have no value. */
export interface EncoderOptionConstant {
  name: string;
  value?: string;
  help: string;
}

export interface EncoderOption {
  name: string;
  /** ffmpeg's type word: int, int64, float, double, boolean, string, flags, dictionary, ... */
  type: string;
  help: string;
  /** The limits ffmpeg states (`from -1 to 51`), with INT_MAX and friends as numbers. */
  min?: number;
  max?: number;
  /** The default as ffmpeg prints it, quotes removed (`medium`, `p4`, `-1`, `true`, `auto`). */
  default?: string;
  constants: EncoderOptionConstant[];
}

export interface EncoderHelp {
  name: string;
  longName: string;
  pixelFormats: string[];
  sampleRates: number[];
  /** The most channels of the layouts it lists (5.1 → 6); undefined when it lists none (any). */
  maxChannels?: number;
  options: EncoderOption[];
}

const TYPE_LETTERS: Record<string, EncoderMediaType> = { V: 'video', A: 'audio', S: 'subtitle' };

/** `ffmpeg -encoders`: the rows under the `------` rule, ` V....D libx264  libx264 H.264 ...`. */
export function parseEncoderList(text: string): EncoderListEntry[] {
  const entries: EncoderListEntry[] = [];
  let inTable = false;
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*-{6}\s*$/.test(line)) {
      inTable = true;
      continue;
    }
    if (!inTable) continue;
    const match = /^\s([VAS])[A-Z.]{5}\s+(\S+)\s+(.*)$/.exec(line);
    if (match) entries.push({ type: TYPE_LETTERS[match[1]], name: match[2], description: match[3].trim() });
  }
  return entries;
}

/** ffmpeg's symbolic limits, as numbers (the float ones as JavaScript can hold them). */
const SYMBOLS: Record<string, number> = {
  INT_MAX: 2_147_483_647,
  INT_MIN: -2_147_483_648,
  UINT32_MAX: 4_294_967_295,
  I64_MAX: Number.MAX_SAFE_INTEGER,
  I64_MIN: Number.MIN_SAFE_INTEGER,
  UINT64_MAX: Number.MAX_SAFE_INTEGER,
  FLT_MAX: 3.4028234663852886e38,
  FLT_MIN: 1.1754943508222875e-38,
  DBL_MAX: Number.MAX_VALUE,
  DBL_MIN: Number.MIN_VALUE,
};

export function limitValue(token: string): number | undefined {
  const negative = token.startsWith('-') && token.slice(1) in SYMBOLS;
  const symbol = SYMBOLS[negative ? token.slice(1) : token];
  if (symbol !== undefined) return negative ? -symbol : symbol;
  const number = Number(token);
  return Number.isFinite(number) ? number : undefined;
}

/** Split `Help text (from -1 to 51) (default "medium")` into the help and its limits and default. */
function splitHelp(rest: string): Pick<EncoderOption, 'help' | 'min' | 'max' | 'default'> {
  let help = rest.trim();
  let fallback: string | undefined;
  const defaultMatch = /\s*\(default (.*)\)$/.exec(help);
  if (defaultMatch) {
    fallback = defaultMatch[1].replace(/^"(.*)"$/, '$1');
    help = help.slice(0, defaultMatch.index).trimEnd();
  }
  let min: number | undefined;
  let max: number | undefined;
  const rangeMatch = /\s*\(from (\S+) to ([^\s)]+)\)$/.exec(help);
  if (rangeMatch) {
    min = limitValue(rangeMatch[1]);
    max = limitValue(rangeMatch[2]);
    help = help.slice(0, rangeMatch.index).trimEnd();
  }
  return { help, ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}), ...(fallback !== undefined ? { default: fallback } : {}) };
}

const numberList = (value: string) => value.trim().split(/\s+/).map(Number).filter((n) => Number.isFinite(n) && n > 0);

/** Channels of ffmpeg's layout names: mono, stereo, 2.1, quad, 5.1(side), 7.1(wide), "4 channels (...)". */
const LAYOUT_CHANNELS: Record<string, number> = { mono: 1, stereo: 2, downmix: 2, quad: 4, hexagonal: 6, octagonal: 8, hexadecagonal: 16, '22.2': 24 };

export function maxChannelsOf(layouts: string): number | undefined {
  let max: number | undefined;
  const take = (n: number) => (max = Math.max(max ?? 0, n));
  for (const match of layouts.matchAll(/(\d+) channels/g)) take(Number(match[1]));
  for (const token of layouts.replace(/\([^)]*\)/g, ' ').split(/\s+/)) {
    if (token in LAYOUT_CHANNELS) take(LAYOUT_CHANNELS[token]);
    const numbered = /^(\d+)\.(\d+)$/.exec(token);
    if (numbered) take(Number(numbered[1]) + Number(numbered[2]));
  }
  return max;
}

/**
 * `ffmpeg -h encoder=<name>`: the header, the "Supported ..." lines and the AVOptions table.
 * Undefined when ffmpeg does not know the encoder (it then prints "Codec 'x' is not recognized").
 */
export function parseEncoderHelp(text: string): EncoderHelp | undefined {
  const lines = text.split(/\r?\n/);
  const header = lines.map((line) => /^Encoder (\S+) \[(.*)\]:\s*$/.exec(line)).find(Boolean);
  if (!header) return undefined;
  const help: EncoderHelp = { name: header[1], longName: header[2], pixelFormats: [], sampleRates: [], options: [] };
  let current: EncoderOption | undefined;
  let inOptions = false;
  for (const line of lines) {
    const supported = /^\s+Supported (pixel formats|sample rates|channel layouts): (.*)$/.exec(line);
    if (supported) {
      if (supported[1] === 'pixel formats') help.pixelFormats = supported[2].trim().split(/\s+/);
      else if (supported[1] === 'sample rates') help.sampleRates = numberList(supported[2]);
      else help.maxChannels = maxChannelsOf(supported[2]);
      continue;
    }
    if (/AVOptions:\s*$/.test(line)) {
      inOptions = true;
      current = undefined;
      continue;
    }
    if (!inOptions) continue;
    const option = /^ {2}-(\S+)\s+<([\w ]+?)>\s+([A-Z.]{8,})\s?(.*)$/.exec(line);
    if (option) {
      current = { name: option[1], type: option[2].trim(), ...splitHelp(option[4]), constants: [] };
      help.options.push(current);
      continue;
    }
    const constant = /^ {3,}(\S+)(?:\s+(\S+))?\s+([A-Z.]{8,})\s?(.*)$/.exec(line);
    if (constant && current) {
      current.constants.push({ name: constant[1], ...(constant[2] !== undefined ? { value: constant[2] } : {}), help: constant[4].trim() });
      continue;
    }
    if (line.trim() === '') inOptions = false;
  }
  return help;
}
