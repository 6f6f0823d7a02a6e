import type { FfmpegCommand } from '../../engine/ffmpeg/build-args.ts';
import type { EncodingSpec, JobSpec, OutputSpec } from '../../engine/types.ts';

/**
 * Reading ffmpeg argv back in the unit tests: option values, and the tee muxer's slave syntax parsed
 * the way ffmpeg parses it (av_get_token: backslash escapes, single quotes, whitespace trimmed).
 */

/** Every value that follows `name` in argv. */
export function valuesOf(args: string[], name: string): string[] {
  const values: string[] = [];
  args.forEach((arg, i) => {
    if (arg === name && i + 1 < args.length) values.push(args[i + 1]);
  });
  return values;
}

export function valueOf(args: string[], name: string): string | undefined {
  return valuesOf(args, name)[0];
}

/** av_get_token: read up to an unescaped terminator; returns the token and where it stopped. */
export function getToken(text: string, start: number, terminators: string): { token: string; end: number } {
  let i = start;
  while (i < text.length && /\s/.test(text[i])) i++;
  let out = '';
  let keep = 0;
  while (i < text.length && !terminators.includes(text[i])) {
    const c = text[i++];
    if (c === '\\' && i < text.length) {
      out += text[i++];
      keep = out.length;
    } else if (c === "'") {
      while (i < text.length && text[i] !== "'") out += text[i++];
      if (i < text.length) i++;
      keep = out.length;
    } else {
      out += c;
      if (!/\s/.test(c)) keep = out.length;
    }
  }
  return { token: out.slice(0, keep), end: i };
}

export interface ParsedSlave {
  options: Record<string, string>;
  url: string;
}

/** The slaves of a `-f tee` filename, as ffmpeg's tee muxer reads them. */
export function parseTee(text: string): ParsedSlave[] {
  const slaves: ParsedSlave[] = [];
  let i = 0;
  while (i < text.length) {
    const { token, end } = getToken(text, i, '|');
    slaves.push(parseSlave(token));
    i = end < text.length && text[end] === '|' ? end + 1 : end;
  }
  return slaves;
}

function parseSlave(slave: string): ParsedSlave {
  const options: Record<string, string> = {};
  if (!slave.startsWith('[')) return { options, url: slave };
  let p = 1;
  if (slave[p] === ']') return { options, url: slave.slice(p + 1) };
  for (;;) {
    const key = /^[A-Za-z0-9_/.+-]+/.exec(slave.slice(p))?.[0];
    if (!key || slave[p + key.length] !== '=') throw new Error(`no option near "${slave.slice(p)}"`);
    const { token, end } = getToken(slave, p + key.length + 1, ':]');
    options[key] = token;
    p = end;
    if (slave[p] === ']') break;
    if (slave[p] !== ':') throw new Error(`unterminated option list in "${slave}"`);
    p++;
  }
  return { options, url: slave.slice(p + 1) };
}

/** av_dict_parse_string(..., "=", ":"): a nested option list such as fifo_options. */
export function parseOptionList(text: string): Record<string, string> {
  const options: Record<string, string> = {};
  let i = 0;
  while (i < text.length) {
    const key = getToken(text, i, '=');
    const value = getToken(text, key.end + 1, ':');
    options[key.token] = value.token;
    i = value.end + 1;
  }
  return options;
}

/**
 * Every enabled output of a built command as a slave: tee slaves parsed from the tee argument, and an
 * output written as an output file of its own read back from its argv (`[-flvflags v] -f <format> <url>`).
 */
export function outputsOf(command: FfmpegCommand): ParsedSlave[] {
  const teed = command.outputs.some((o) => o.via === 'tee') ? teeSlaves(command.args) : [];
  let t = 0;
  return command.outputs.map((output) => {
    if (output.via === 'tee') return teed[t++];
    const at = command.args.lastIndexOf(output.url);
    if (at < 2 || command.args[at - 2] !== '-f' || command.args[at - 1] !== output.format) throw new Error(`no -f ${output.format} ${output.url} in argv`);
    const options: Record<string, string> = { f: output.format };
    if (command.args[at - 4] === '-flvflags') options.flvflags = command.args[at - 3];
    return { options, url: output.url };
  });
}

/** The tee slaves of a built command. */
export function teeSlaves(args: string[]): ParsedSlave[] {
  const at = args.lastIndexOf('tee');
  if (at < 1 || args[at - 1] !== '-f') throw new Error('no -f tee in argv');
  return parseTee(args[at + 1]);
}


export function testJob(overrides: Partial<JobSpec> = {}): JobSpec {
  return {
    id: 'relay-1',
    name: 'Test',
    videoType: 'LIVE',
    input: { type: 'uri', uri: 'udp://@239.1.1.1:1234' },
    outputs: [{ index: 0, type: 'udp', host: '239.2.2.2', port: 5000 }] as OutputSpec[],
    restartAttempts: 10,
    staleTimeoutSeconds: 15,
    logLevel: 'INFO',
    logMaxSizeInMegaBytes: 10,
    ...overrides,
  };
}

export function testEncoding(overrides: Partial<EncodingSpec> = {}): EncodingSpec {
  return {
    video: { codec: 'libx264', bitrateKbps: 3000, width: 1280, height: 720 },
    audio: { tracks: [{ source: 'AUTO', codec: 'aac', bitrateKbps: 128 }] },
    ...overrides,
  };
}
