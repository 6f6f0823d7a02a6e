import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Glob patterns for batch VOD inputs (spec 01 §2.6): `*` (any characters but `/`), `**` (a whole
 * segment: any number of directories), `?` (one character), `[abc]`, `[a-z]`, `[!abc]` / `[^abc]`,
 * and `\` to take the next character literally. Hidden files and directories (a leading dot) are
 * matched only by a segment that itself starts with a dot. Written here rather than taken from a
 * package: the whole syntax the spec asks for is these few rules, and a matcher that walks the
 * directory tree segment by segment (never into a directory that cannot match) needs the parsed
 * segments anyway.
 */

const GLOB_CHARS = /(?<!\\)[*?[]/;

/** True when the text has a glob character that is not escaped. */
export function hasGlobPattern(text: string): boolean {
  return GLOB_CHARS.test(text);
}

export class GlobError extends Error {
  override readonly name = 'GlobError';
}

/** A local path from an absolute path or a file:// URL; null for anything else (udp://, http://, relative ...). */
export function localPathOf(uri: string): string | null {
  if (uri.startsWith('file:')) {
    try {
      // Keep glob characters as typed: fileURLToPath would read `%5B` but a typed `[` must stay a class.
      const url = new URL(uri.replace(/[?#[\]]/g, (c) => encodeURIComponent(c)));
      const local = fileURLToPath(url);
      return path.isAbsolute(local) ? local : null;
    } catch {
      return null;
    }
  }
  return path.isAbsolute(uri) && !/^[a-z][a-z0-9+.-]*:\/\//i.test(uri) ? uri : null;
}

type Segment = { kind: 'globstar' } | { kind: 'literal'; name: string } | { kind: 'pattern'; regex: RegExp; dot: boolean };

export interface CompiledGlob {
  /** The directory the pattern starts at: its leading segments without glob characters. */
  base: string;
  segments: Segment[];
}

/** Splits an absolute pattern into its base directory and the segments to match below it. */
export function compileGlob(pattern: string): CompiledGlob {
  if (!path.isAbsolute(pattern)) throw new GlobError(`The batch input must be an absolute path or a file:// URL: ${pattern}`);
  const parts = pattern.split('/').filter((part, i) => part !== '' || i === 0);
  let baseLength = 0;
  while (baseLength < parts.length - 1 && !hasGlobPattern(parts[baseLength])) baseLength++;
  const baseParts = parts.slice(0, baseLength).map(unescapeGlob);
  const base = baseParts.length <= 1 ? '/' : baseParts.join('/');
  const segments = parts.slice(baseLength).map((part): Segment => {
    if (part === '**') return { kind: 'globstar' };
    if (!hasGlobPattern(part)) return { kind: 'literal', name: unescapeGlob(part) };
    return { kind: 'pattern', regex: segmentRegExp(part), dot: part.startsWith('.') };
  });
  if (segments.length === 0 || segments.at(-1)!.kind === 'globstar') throw new GlobError(`The pattern must end with a file name pattern, e.g. /media/in/**/*.mp4: ${pattern}`);
  return { base: path.normalize(base), segments };
}

function unescapeGlob(text: string): string {
  return text.replace(/\\(.)/g, '$1');
}

/** One path segment's pattern as an anchored regular expression. */
export function segmentRegExp(segment: string): RegExp {
  let source = '';
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i];
    if (c === '\\' && i + 1 < segment.length) source += escapeRegExp(segment[++i]);
    else if (c === '*') {
      while (segment[i + 1] === '*') i++;
      source += '[^/]*';
    } else if (c === '?') source += '[^/]';
    else if (c === '[') {
      const close = findClassEnd(segment, i);
      if (close < 0) source += '\\[';
      else {
        let body = segment.slice(i + 1, close);
        let negate = false;
        if (body.startsWith('!') || body.startsWith('^')) {
          negate = true;
          body = body.slice(1);
        }
        source += `[${negate ? '^/' : ''}${classMembers(body)}]`;
        i = close;
      }
    } else source += escapeRegExp(c);
  }
  try {
    return new RegExp(`^${source}$`);
  } catch (error) {
    throw new GlobError(`Invalid glob pattern ${segment}: ${(error as Error).message}`);
  }
}

/** The inside of a `[...]` class: ranges stay ranges, an escaped character is taken literally. */
function classMembers(body: string): string {
  let members = '';
  for (let j = 0; j < body.length; j++) {
    let ch = body[j];
    if (ch === '\\' && j + 1 < body.length) ch = body[++j];
    else if (ch === '-') {
      members += '-';
      continue;
    }
    members += /[\\\]\[^-]/.test(ch) ? `\\${ch}` : ch;
  }
  return members;
}

function findClassEnd(segment: string, open: number): number {
  let i = open + 1;
  if (segment[i] === '!' || segment[i] === '^') i++;
  if (segment[i] === ']') i++; // a leading ] is a member
  for (; i < segment.length; i++) {
    if (segment[i] === '\\') i++;
    else if (segment[i] === ']') return i;
  }
  return -1;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function matchesSegment(segment: Segment, name: string): boolean {
  if (segment.kind === 'literal') return segment.name === name;
  if (segment.kind === 'globstar') return !name.startsWith('.');
  if (name.startsWith('.') && !segment.dot) return false;
  return segment.regex.test(name);
}

/** The states after the `**` segments that may match nothing. */
function closure(states: Iterable<number>, segments: Segment[]): Set<number> {
  const result = new Set<number>();
  const stack = [...states];
  while (stack.length) {
    const state = stack.pop()!;
    if (result.has(state)) continue;
    result.add(state);
    if (state < segments.length && segments[state].kind === 'globstar') stack.push(state + 1);
  }
  return result;
}

/** True when a path relative to the base (with `/`) matches the compiled segments. */
export function matchRelativePath(glob: CompiledGlob, relative: string): boolean {
  let states = closure([0], glob.segments);
  for (const name of relative.split('/')) {
    states = step(glob.segments, states, name);
    if (states.size === 0) return false;
  }
  return states.has(glob.segments.length);
}

function step(segments: Segment[], states: Set<number>, name: string): Set<number> {
  const next: number[] = [];
  for (const state of states) {
    if (state >= segments.length) continue;
    const segment = segments[state];
    if (!matchesSegment(segment, name)) continue;
    next.push(segment.kind === 'globstar' ? state : state + 1);
  }
  return closure(next, segments);
}

export interface GlobExpansion {
  base: string;
  /** Absolute paths of the matching regular files, sorted by code point. */
  files: string[];
}

/**
 * The files a batch input matches: an absolute path or file:// URL with a glob pattern. Walks only
 * into directories that can still match; follows symbolic links to files but not to directories
 * (a link back up would make `**` endless).
 */
export async function expandGlob(input: string): Promise<GlobExpansion> {
  const local = localPathOf(input);
  if (local === null) throw new GlobError(`Batch input must be a local path (an absolute path or a file:// URL): ${input}`);
  if (!hasGlobPattern(local)) throw new GlobError(`The URL must contain a glob pattern (*, **, ?, [abc]), e.g. /media/in/**/*.mp4: ${input}`);
  const glob = compileGlob(local);
  const files: string[] = [];
  await walk(glob, glob.base, closure([0], glob.segments), files);
  files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { base: glob.base, files };
}

async function walk(glob: CompiledGlob, dir: string, states: Set<number>, files: string[]): Promise<void> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EACCES') return;
    throw error;
  }
  for (const entry of entries) {
    const next = step(glob.segments, states, entry.name);
    if (next.size === 0) continue;
    const full = path.join(dir, entry.name);
    let isFile = entry.isFile();
    let isDirectory = entry.isDirectory();
    if (entry.isSymbolicLink()) {
      isDirectory = false;
      isFile = await stat(full).then((s) => s.isFile(), () => false);
    }
    if (isFile && next.has(glob.segments.length)) files.push(full);
    else if (isDirectory && [...next].some((state) => state < glob.segments.length)) await walk(glob, full, next, files);
  }
}
