import { z } from 'zod';
import { Timestamp } from './common.ts';
import { VIDEO_RESOLUTIONS } from './jobs.ts';

/** The resolutions a watermark is placed in: those of an encoding's output, and CUSTOM. */
export const WATERMARK_RESOLUTIONS = VIDEO_RESOLUTIONS.filter((value) => value !== 'SOURCE') as Exclude<(typeof VIDEO_RESOLUTIONS)[number], 'SOURCE'>[];
export type WatermarkResolutionValue = (typeof WATERMARK_RESOLUTIONS)[number];

/** Width and height of a named resolution (R_1920x1080 → 1920×1080); undefined for CUSTOM. */
export function resolutionSize(value: string): { width: number; height: number } | undefined {
  const match = /^R_(\d+)x(\d+)$/.exec(value);
  return match ? { width: Number(match[1]), height: Number(match[2]) } : undefined;
}

export function resolutionName(value: string): string {
  const size = resolutionSize(value);
  return size ? `${size.width}x${size.height}` : 'Custom';
}

/** The file names the server gives uploads: generated, so nothing a user sends ever names a path. */
export const WATERMARK_FILE_PATTERN = /^wm-[a-z0-9]{6,16}-[a-f0-9]{16}\.(png|jpg|gif|webp)$/;
export const WATERMARK_MAX_BYTES = 10 * 1024 * 1024;
export const WATERMARK_MAX_PIXELS = 8192;
export const WATERMARK_CUSTOM_MAX = { width: 7680, height: 4320 } as const;

const percent = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .int(`${label} goes in steps of 1`)
    .min(0, `${label} must be between 0 and 100`)
    .max(100, `${label} must be between 0 and 100`);

const wholeAtLeast0 = (label: string, max?: number) => {
  const base = z.number({ error: `${label} must be a whole number` }).int(`${label} must be a whole number`).min(0, `${label} must be at least 0`);
  return max === undefined ? base : base.max(max, `${label} must be at most ${max}`);
};

export const WatermarkSize = z
  .object({ width: z.number().int(), height: z.number().int() })
  .meta({ id: 'WatermarkSize', description: 'A width and a height in pixels.' });

export const WatermarkResolution = z
  .object({
    value: z.enum(WATERMARK_RESOLUTIONS as [WatermarkResolutionValue, ...WatermarkResolutionValue[]]),
    name: z.string().describe('1920x1080, or Custom.'),
    width: z.number().int(),
    height: z.number().int(),
  })
  .meta({ id: 'WatermarkResolution', description: 'The picture the watermark is placed in.' });

export const WatermarkResolutionInput = z
  .object({
    value: z.enum(WATERMARK_RESOLUTIONS as [WatermarkResolutionValue, ...WatermarkResolutionValue[]], { error: 'Resolution is required' }),
    width: wholeAtLeast0('Custom resolution width', WATERMARK_CUSTOM_MAX.width).optional().describe('CUSTOM only: at least 0.'),
    height: wholeAtLeast0('Custom resolution height', WATERMARK_CUSTOM_MAX.height).optional().describe('CUSTOM only: at least 0.'),
  })
  .meta({ id: 'WatermarkResolutionInput', description: 'A named resolution (R_1920x1080 ...), or CUSTOM with its width and height.' });

/** The resolution's size: the named one's, or the custom width and height (0 when not given). */
export function frameOf(resolution: { value: string; width?: number; height?: number }): { width: number; height: number } {
  return resolutionSize(resolution.value) ?? { width: resolution.width ?? 0, height: resolution.height ?? 0 };
}

/** Spec 03 §5: the largest x and y that keep the scaled image inside the resolution (0 when it does not fit). */
export function maxPosition(resolution: { value: string; width?: number; height?: number }, scaled: { width: number; height: number }): { x: number; y: number } {
  const frame = frameOf(resolution);
  return { x: Math.max(0, frame.width - scaled.width), y: Math.max(0, frame.height - scaled.height) };
}

export const WatermarkInput = z
  .object({
    name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(100, 'Name must be at most 100 characters'),
    file: z.string({ error: 'Upload an image' }).min(1, 'Upload an image').regex(WATERMARK_FILE_PATTERN, 'Not an uploaded image: upload one with POST /api/watermarks/files').describe('The stored file name that POST /api/watermarks/files answered.'),
    alpha: percent('Transparency').default(0).describe('Transparency: 0 (opaque) to 100 (invisible), step 1.'),
    scalePercent: percent('Size').default(100).describe('Size: 0 to 100 % of the image, step 1.'),
    scaledImage: z
      .object({ width: wholeAtLeast0('Scaled width'), height: wholeAtLeast0('Scaled height') })
      .optional()
      .describe('Scaled width and height, whole numbers between 0 and the image\'s own; absent: the image\'s size times scalePercent.'),
    resolution: WatermarkResolutionInput.default({ value: 'R_1920x1080' }),
    x: wholeAtLeast0('Position x').default(0).describe('Left edge in the resolution, 0 to its width less the scaled width.'),
    y: wholeAtLeast0('Position y').default(0).describe('Top edge in the resolution, 0 to its height less the scaled height.'),
  })
  .superRefine((w, ctx) => {
    if (w.resolution.value === 'CUSTOM') {
      if (w.resolution.width === undefined) ctx.addIssue({ code: 'custom', path: ['resolution', 'width'], message: 'Custom resolution width is required' });
      if (w.resolution.height === undefined) ctx.addIssue({ code: 'custom', path: ['resolution', 'height'], message: 'Custom resolution height is required' });
    }
    if (!w.scaledImage) return;
    const max = maxPosition(w.resolution, w.scaledImage);
    if (Number.isInteger(w.x) && w.x > max.x) ctx.addIssue({ code: 'custom', path: ['x'], message: `Position x must be at most ${max.x}` });
    if (Number.isInteger(w.y) && w.y > max.y) ctx.addIssue({ code: 'custom', path: ['y'], message: `Position y must be at most ${max.y}` });
  })
  .meta({ id: 'WatermarkInput', description: 'A watermark as the form saves it.' });

export const Watermark = z
  .object({
    id: z.number().int(),
    name: z.string(),
    file: z.string().describe('The stored image file.'),
    alpha: z.number().int().describe('Transparency 0 to 100.'),
    scalePercent: z.number().int().describe('Size 0 to 100 %.'),
    scaledImage: WatermarkSize.describe('The size it is laid on the picture with.'),
    image: WatermarkSize.describe('The image\'s own size.'),
    resolution: WatermarkResolution,
    x: z.number().int(),
    y: z.number().int(),
    usageCount: z.number().int().describe('Encodings (and templates) that use it.'),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Watermark', description: 'An image laid over the video of encodings.' });

export const WatermarkListQuery = z.object({
  search: z.string().max(200).optional().describe('Case-insensitive match on the name, or an exact ID.'),
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(500).default(25),
  sort: z.enum(['name', 'id']).default('name'),
  order: z.enum(['asc', 'desc']).default('asc'),
});

export const WatermarkPage = z
  .object({ items: z.array(Watermark), total: z.number().int().describe('Total Watermarks (matching the search).'), page: z.number().int(), size: z.number().int() })
  .meta({ id: 'WatermarkPage', description: 'A page of watermarks.' });

export const WatermarkUploadQuery = z.object({
  name: z
    .string({ error: 'The file name is required' })
    .min(1, 'The file name is required')
    .max(255, 'The file name must be at most 255 characters')
    .describe('The name of the file as the user chose it; shown back, never used as a path.'),
});

export const WatermarkFile = z
  .object({
    file: z.string().describe('The stored name: give it as `file` when saving a watermark.'),
    originalName: z.string(),
    format: z.enum(['png', 'jpeg', 'gif', 'webp']).describe('What the content is, whatever the name says.'),
    width: z.number().int(),
    height: z.number().int(),
    size: z.number().int().describe('Bytes.'),
  })
  .meta({ id: 'WatermarkFile', description: 'An uploaded image, checked by its content, ready to be used by a watermark.' });

export const WatermarkFileParams = z.object({ file: z.string().regex(WATERMARK_FILE_PATTERN, 'must be a stored watermark file name') });

export type WatermarkDto = z.infer<typeof Watermark>;
export type WatermarkInputValue = z.infer<typeof WatermarkInput>;
export type WatermarkFileDto = z.infer<typeof WatermarkFile>;
