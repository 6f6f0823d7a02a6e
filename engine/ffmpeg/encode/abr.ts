import type { AbrProfileSpec, VideoEncodeSpec, WatermarkSpec } from '../../types.ts';
import { assertBitrateKbps, assertIntegerRange, fail } from '../validate.ts';
import { pixelFormatFilter, renditionFilters, scaleFilter, sharedVideoFilters } from './video.ts';
import { watermarkGraph } from './watermark.ts';

export const MIN_ABR_PROFILES = 2;
export const MAX_ABR_PROFILES = 9;

function assertEvenSize(value: number, what: string): number {
  assertIntegerRange(value, 2, 8192, what);
  if (value % 2 !== 0) fail(`${what} must be an even number of pixels (got ${value})`);
  return value;
}

export function validateProfiles(profiles: AbrProfileSpec[]): void {
  if (!Array.isArray(profiles) || profiles.length < MIN_ABR_PROFILES || profiles.length > MAX_ABR_PROFILES) {
    fail(`Adaptive bitrate needs ${MIN_ABR_PROFILES} to ${MAX_ABR_PROFILES} profiles (got ${Array.isArray(profiles) ? profiles.length : 0})`);
  }
  profiles.forEach((profile, i) => {
    assertEvenSize(profile.width, `Profile ${i + 1} width`);
    assertEvenSize(profile.height, `Profile ${i + 1} height`);
    assertBitrateKbps(profile.videoBitrateKbps, `Profile ${i + 1} video bitrate`);
    assertBitrateKbps(profile.audioBitrateKbps, `Profile ${i + 1} audio bitrate`);
  });
}

/** The profile single-rendition outputs carry: the one marked main, else the first. */
export function mainProfileIndex(profiles: AbrProfileSpec[]): number {
  const marked = profiles.findIndex((p) => p.main);
  return marked >= 0 ? marked : 0;
}

/**
 * One decode, every profile scaled from the closest larger one (a cascade: 1080p → 720p → 360p),
 * not each from the source: a smaller rendition costs the scaler its parent's pixels, not the
 * source's. A profile no larger (in both width and height) than any other scales from the source.
 * `[src]` → `[v0]..[vN-1]`, labels in the profiles' own order. With a watermark the picture is first
 * brought to the largest profile's size and marked there (so the watermark's size and position
 * are in that profile's pixels), and the cascade starts from it.
 */
export function abrVideoGraph(
  video: VideoEncodeSpec,
  profiles: AbrProfileSpec[],
  source: string,
  watermark?: { spec: WatermarkSpec; inputIndex: number },
): { graph: string; labels: string[] } {
  validateProfiles(profiles);
  const parts: string[] = [];
  const shared = sharedVideoFilters(video);
  let splitFrom = source;
  if (watermark) {
    const largest = profiles.reduce((a, b) => (b.width * b.height > a.width * a.height ? b : a));
    parts.push(`[${source}]${[...shared, scaleFilter(largest.width, largest.height)].join(',')}[canvas]`);
    parts.push(watermarkGraph(watermark.spec, watermark.inputIndex, 'canvas', 'marked'));
    splitFrom = 'marked';
  } else if (shared.length) {
    parts.push(`[${source}]${shared.join(',')}[shared]`);
    splitFrom = 'shared';
  }
  const labels = profiles.map((_, i) => `v${i}`);
  const parents = cascadeParents(profiles);
  const children = (parent: number | undefined) => profiles.map((_, i) => i).filter((i) => parents[i] === parent);
  // Each scaled picture feeds its own rendition and its children; the source feeds the roots.
  const inputs = new Map<number, string>();
  const roots = children(undefined);
  if (roots.length === 1) inputs.set(roots[0], splitFrom);
  else {
    parts.push(`[${splitFrom}]split=${roots.length}${roots.map((i) => `[s${i}]`).join('')}`);
    for (const i of roots) inputs.set(i, `s${i}`);
  }
  const pixelFormat = pixelFormatFilter(video.codec, video.params);
  for (const i of cascadeOrder(profiles)) {
    const profile = profiles[i];
    const scale = scaleFilter(profile.width, profile.height);
    const own = [...renditionFilters(video, profile.width, profile.height).filter((f) => f !== scale), ...(pixelFormat ? [pixelFormat] : [])];
    const kids = children(i);
    let scaled = `${inputs.get(i)}`;
    if (scale) {
      parts.push(`[${scaled}]${scale}[c${i}]`);
      scaled = `c${i}`;
    }
    if (kids.length) {
      parts.push(`[${scaled}]split=${kids.length + 1}[o${i}]${kids.map((k) => `[s${k}]`).join('')}`);
      for (const k of kids) inputs.set(k, `s${k}`);
      scaled = `o${i}`;
    }
    parts.push(`[${scaled}]${own.length ? own.join(',') : 'null'}[${labels[i]}]`);
  }
  return { graph: parts.join(';'), labels };
}

/** Profile indices, largest picture first (stable). */
function cascadeOrder(profiles: AbrProfileSpec[]): number[] {
  return profiles.map((_, i) => i).sort((a, b) => profiles[b].width * profiles[b].height - profiles[a].width * profiles[a].height || a - b);
}

/** The profile each one is scaled from: the smallest earlier one at least as wide and as high, else none (the source). */
function cascadeParents(profiles: AbrProfileSpec[]): Array<number | undefined> {
  const parents: Array<number | undefined> = profiles.map(() => undefined);
  const done: number[] = [];
  for (const i of cascadeOrder(profiles)) {
    for (let d = done.length - 1; d >= 0; d--) {
      const j = done[d];
      if (profiles[j].width >= profiles[i].width && profiles[j].height >= profiles[i].height) {
        parents[i] = j;
        break;
      }
    }
    done.push(i);
  }
  return parents;
}

/** The single-rendition graph: `[src]` → deinterlace, fps, scale, aspect, watermark, pixel format → `[v0]`. */
export function singleVideoGraph(video: VideoEncodeSpec, source: string, watermark?: { spec: WatermarkSpec; inputIndex: number }): { graph: string; labels: string[] } {
  if (video.width) assertEvenSize(video.width, 'Width');
  if (video.height) assertEvenSize(video.height, 'Height');
  const before = [...sharedVideoFilters(video), ...renditionFilters(video, video.width, video.height)];
  const pixelFormat = pixelFormatFilter(video.codec, video.params);
  const after = pixelFormat ? [pixelFormat] : [];
  if (!watermark) {
    const filters = [...before, ...after];
    return { graph: `[${source}]${filters.length ? filters.join(',') : 'null'}[v0]`, labels: ['v0'] };
  }
  const parts: string[] = [];
  let base = source;
  if (before.length) {
    parts.push(`[${source}]${before.join(',')}[base]`);
    base = 'base';
  }
  parts.push(watermarkGraph(watermark.spec, watermark.inputIndex, base, 'marked'));
  parts.push(`[marked]${after.length ? after.join(',') : 'null'}[v0]`);
  return { graph: parts.join(';'), labels: ['v0'] };
}
