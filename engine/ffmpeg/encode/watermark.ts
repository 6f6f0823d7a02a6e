import type { WatermarkSpec } from '../../types.ts';
import { assertAbsolutePath, assertIntegerRange, assertNumberRange } from '../validate.ts';

/** The watermark image as an input (a still image: overlay keeps showing its one frame). */
export function watermarkInputArgs(watermark: WatermarkSpec): string[] {
  return ['-i', `file:${assertAbsolutePath(watermark.file, 'Watermark file')}`];
}

/**
 * Filtergraph text that overlays the image (input `inputIndex`) on `[base]` and labels the result
 * `[out]`: the image scaled to width×height, its transparency (0 opaque .. 100 invisible) applied
 * as alpha, placed at x/y of the picture it is laid on.
 */
export function watermarkGraph(watermark: WatermarkSpec, inputIndex: number, base: string, out: string): string {
  const width = assertIntegerRange(watermark.width, 1, 8192, 'Watermark width');
  const height = assertIntegerRange(watermark.height, 1, 8192, 'Watermark height');
  const x = assertIntegerRange(watermark.x, 0, 8192, 'Watermark x');
  const y = assertIntegerRange(watermark.y, 0, 8192, 'Watermark y');
  const alpha = assertNumberRange(watermark.alpha, 0, 100, 'Watermark alpha');
  const opacity = Math.round((100 - alpha) * 100) / 10_000;
  return (
    `[${inputIndex}:v:0]scale=${width}:${height},format=rgba,colorchannelmixer=aa=${opacity}[wm];` +
    `[${base}][wm]overlay=x=${x}:y=${y}:format=auto[${out}]`
  );
}
