import { frameOf, maxPosition, resolutionName, WATERMARK_RESOLUTIONS, type WatermarkResolutionValue } from '../../../../openapi/schemas/watermarks.ts';
import type { FieldErrors } from '../../components/form/useZodForm.ts';
import type { Schemas } from '../../data/client.ts';

export interface ImageSize {
  width: number;
  height: number;
}

/** The watermark form as its inputs hold it: numbers as typed. */
export interface WatermarkValues extends Record<string, unknown> {
  name: string;
  /** The stored upload this watermark shows ('' until one is uploaded). */
  file: string;
  /** That image's own size, as the server read it. */
  image: ImageSize | null;
  alpha: string;
  scalePercent: string;
  scaledWidth: string;
  scaledHeight: string;
  resolution: WatermarkResolutionValue;
  resolutionWidth: string;
  resolutionHeight: string;
  x: string;
  y: string;
}

export const RESOLUTION_CHOICES = WATERMARK_RESOLUTIONS.map((value) => ({ value, label: resolutionName(value) }));

export function newWatermarkValues(): WatermarkValues {
  return { name: '', file: '', image: null, alpha: '0', scalePercent: '100', scaledWidth: '', scaledHeight: '', resolution: 'R_1920x1080', resolutionWidth: '', resolutionHeight: '', x: '0', y: '0' };
}

export function watermarkValuesOf(w: Schemas['Watermark']): WatermarkValues {
  const custom = w.resolution.value === 'CUSTOM';
  return {
    name: w.name,
    file: w.file,
    image: w.image,
    alpha: String(w.alpha),
    scalePercent: String(w.scalePercent),
    scaledWidth: String(w.scaledImage.width),
    scaledHeight: String(w.scaledImage.height),
    resolution: w.resolution.value,
    resolutionWidth: custom ? String(w.resolution.width) : '',
    resolutionHeight: custom ? String(w.resolution.height) : '',
    x: String(w.x),
    y: String(w.y),
  };
}

/** '' and anything not a number fail the schema's "must be a whole number". */
const numberOf = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

export function watermarkPayload(values: WatermarkValues) {
  const custom = values.resolution === 'CUSTOM';
  return {
    name: values.name,
    file: values.file,
    alpha: numberOf(values.alpha),
    scalePercent: numberOf(values.scalePercent),
    scaledImage: { width: numberOf(values.scaledWidth), height: numberOf(values.scaledHeight) },
    resolution: custom ? { value: values.resolution, width: numberOf(values.resolutionWidth), height: numberOf(values.resolutionHeight) } : { value: values.resolution },
    x: numberOf(values.x),
    y: numberOf(values.y),
  };
}

/** Spec 03 §5: the scaled size within the image's own (the server checks the same). */
export function refineWatermark(values: WatermarkValues): FieldErrors {
  const errors: FieldErrors = {};
  if (!values.image) return errors;
  const width = Number(values.scaledWidth);
  const height = Number(values.scaledHeight);
  if (values.scaledWidth !== '' && Number.isInteger(width) && width > values.image.width) errors['scaledImage.width'] = `Scaled width must be between 0 and ${values.image.width}`;
  if (values.scaledHeight !== '' && Number.isInteger(height) && height > values.image.height) errors['scaledImage.height'] = `Scaled height must be between 0 and ${values.image.height}`;
  return errors;
}

const whole = (text: string) => {
  const n = Number(text);
  return text.trim() !== '' && Number.isFinite(n) ? Math.round(n) : undefined;
};

/** The picture's size, from the chosen resolution (custom: as typed, 0 while empty). */
export function frameOfValues(values: WatermarkValues): ImageSize {
  return frameOf({ value: values.resolution, width: whole(values.resolutionWidth) ?? 0, height: whole(values.resolutionHeight) ?? 0 });
}

export function scaledOfValues(values: WatermarkValues): ImageSize {
  return { width: whole(values.scaledWidth) ?? 0, height: whole(values.scaledHeight) ?? 0 };
}

/** The furthest x and y, from the resolution and the scaled size. */
export function maxPositionOfValues(values: WatermarkValues): { x: number; y: number } {
  return maxPosition({ value: 'CUSTOM', ...frameOfValues(values) }, scaledOfValues(values));
}

/**
 * A size change keeps the three size fields in step with the image: the percent sets both sides;
 * a side sets the other (keeping the image's proportions) and the percent.
 */
export function withSize(values: WatermarkValues, field: 'scalePercent' | 'scaledWidth' | 'scaledHeight', text: string): WatermarkValues {
  const next = { ...values, [field]: text };
  const image = values.image;
  const n = whole(text);
  if (!image || n === undefined || n < 0) return next;
  if (field === 'scalePercent') {
    if (n > 100) return next;
    return { ...next, scaledWidth: String(Math.round((image.width * n) / 100)), scaledHeight: String(Math.round((image.height * n) / 100)) };
  }
  if (field === 'scaledWidth') {
    if (n > image.width) return next;
    return { ...next, scaledHeight: String(Math.round((image.height * n) / image.width)), scalePercent: String(Math.round((n / image.width) * 100)) };
  }
  if (n > image.height) return next;
  return { ...next, scaledWidth: String(Math.round((image.width * n) / image.height)), scalePercent: String(Math.round((n / image.height) * 100)) };
}

/** A newly chosen image: its size, and the scaled size from the current percent. */
export function withImage(values: WatermarkValues, file: string, image: ImageSize): WatermarkValues {
  return withSize({ ...values, file, image }, 'scalePercent', values.scalePercent || '100');
}
