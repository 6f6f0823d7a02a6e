import type { JobSpec } from '../types.ts';

/** What the input builders need to know about the job around them. */
export interface InputContext {
  videoType: JobSpec['videoType'];
  /** Seconds a network read may block before ffmpeg gives up (so a dead source ends the process). */
  ioTimeoutSeconds: number;
  /** How long a live MPEG-TS input is probed (inputs/uri.ts LIVE_PROBE_SECONDS); 1 s when absent. */
  probeSeconds?: number;
}

/** An input's ffmpeg arguments (everything up to and including its `-i`), and how many inputs they open. */
export interface BuiltInput {
  args: string[];
  /** Inputs these args open (the `args` extension point may open several, e.g. a multiviewer). */
  inputCount: number;
  /** Stream specifier prefix of the selected program, e.g. `p:3:`, or '' for all programs. */
  programPrefix: string;
}

export const MICROSECONDS = 1_000_000;

/** `-name value` pairs as argv. */
export function flagPairs(pairs: Array<[string, string]>): string[] {
  return pairs.flatMap(([name, value]) => [`-${name}`, value]);
}
