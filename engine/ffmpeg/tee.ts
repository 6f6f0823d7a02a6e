/**
 * The tee muxer's filename syntax: `[opt=value:opt=value]url|[opt=value]url|...`.
 *
 * ffmpeg reads it in two steps, both with `av_get_token` (a backslash escapes the next character,
 * single quotes quote): first the whole string is split into slaves at `|`, then each slave's
 * `[...]` list is split into options at `:` and `]`. So an option value is escaped twice (first for
 * the option list, then with the rest of the slave) and the URL once. Values that are themselves
 * option lists (fifo_options) are escaped three times: once more for their own `:`.
 */

/** Backslash-escape every character av_get_token would treat as syntax for the given terminators. */
export function escapeToken(value: string, terminators: string): string {
  const special = new Set(['\\', "'", ...terminators]);
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const ch = value[i];
    // Leading and trailing whitespace would be trimmed; escape all of it to keep it.
    if (special.has(ch) || /\s/.test(ch)) out += `\\${ch}`;
    else out += ch;
  }
  return out;
}

/** An option list as av_dict_parse_string reads it (`key=value:key=value`), for nested option values. */
export function formatOptionList(options: Array<[string, string]>): string {
  return options.map(([key, value]) => `${key}=${escapeToken(value, ':')}`).join(':');
}

export interface TeeSlave {
  /** Options of the slave: tee's own (f, onfail, select, use_fifo, fifo_options, bsfs/...), the muxer's and the protocol's. */
  options: Array<[string, string]>;
  url: string;
}

export function formatTeeSlave(slave: TeeSlave): string {
  const list = slave.options.map(([key, value]) => {
    if (!/^[A-Za-z0-9_/.-]+$/.test(key)) throw new Error(`tee option name "${key}" is not valid`);
    return `${key}=${escapeToken(value, ':]')}`;
  });
  const head = list.length ? `[${list.join(':')}]` : '';
  return escapeToken(`${head}${slave.url}`, '|');
}

/** The argument that follows `-f tee`. */
export function formatTee(slaves: TeeSlave[]): string {
  if (slaves.length === 0) throw new Error('the tee muxer needs at least one output');
  return slaves.map(formatTeeSlave).join('|');
}
