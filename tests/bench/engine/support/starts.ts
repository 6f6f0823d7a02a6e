import { spawnFfmpeg } from './processes.ts';
import type { OutputWatch } from './udp.ts';

export type BareStart = { ok: true; ms: number; /** spawn → first datagram with a keyframe (undefined: none came) */ keyframeMs: number | undefined } | { ok: false; failure: string };

/**
 * Bare ffmpeg's own start: spawn → first datagram (and first keyframe) on the watched output port. Without a supervisor
 * nothing starts it again, so a process that ends before any output is a failed start, with
 * ffmpeg's reason (e.g. "dimensions not set" when probing saw no keyframe).
 */
export async function timeBareStart(args: string[], watch: OutputWatch, timeoutMs = 30_000): Promise<BareStart> {
  const t0 = performance.now();
  const child = spawnFfmpeg(args);
  try {
    const arrival = watch.next({ since: t0, timeoutMs, what: 'the first output of bare ffmpeg' });
    arrival.catch(() => {}); // settled below either way
    const outcome = await Promise.race([arrival.then((a) => a.at), child.exit.then(() => 'ended' as const)]);
    if (outcome === 'ended') return { ok: false, failure: child.failure() };
    const keyframe = await watch.next({ since: t0, keyframe: true, timeoutMs, what: 'the first keyframe of bare ffmpeg' }).catch(() => undefined);
    return { ok: true, ms: outcome - t0, keyframeMs: keyframe && keyframe.at - t0 };
  } finally {
    await child.kill();
  }
}

/** "k of n: reason; reason" for failed starts, or '' when none failed. */
export function describeFailures(failures: string[], of: number): string {
  if (failures.length === 0) return '';
  const reasons = [...new Set(failures)].slice(0, 2).map((r) => `“${r}”`).join(', ');
  return `${failures.length} of ${of} ended before any output (${reasons})`;
}
