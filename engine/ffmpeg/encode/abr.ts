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
 * One decode, split once, scaled per profile: `[src]` → `[v0]..[vN-1]`. With a watermark the
 * picture is first brought to the largest profile's size and marked there (so the watermark's
 * size and position are in that profile's pixels), then split and scaled down for the others.
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
  parts.push(`[${splitFrom}]split=${profiles.length}${profiles.map((_, i) => `[s${i}]`).join('')}`);
  const pixelFormat = pixelFormatFilter(video.codec, video.params);
  profiles.forEach((profile, i) => {
    const filters = [...renditionFilters(video, profile.width, profile.height), ...(pixelFormat ? [pixelFormat] : [])];
    parts.push(`[s${i}]${filters.join(',')}[${labels[i]}]`);
  });
  return { graph: parts.join(';'), labels };
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
