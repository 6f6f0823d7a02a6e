import type { paths } from '../../../../openapi/client/index.ts';

export type WatermarkListQuery = NonNullable<paths['/api/watermarks']['get']['parameters']['query']>;

/** Everything under ['watermarks'] is refreshed by the live topic `watermarks` (the job form's choices too). */
export const watermarkKeys = {
  all: ['watermarks'] as const,
  list: (query: WatermarkListQuery) => ['watermarks', 'list', query] as const,
  detail: (id: number) => ['watermarks', 'detail', id] as const,
};

/** Where the console shows an image from: a saved watermark's, or an upload not yet saved. */
export const watermarkImageUrl = (id: number, version?: string) => `/api/watermarks/${id}/image${version ? `?v=${encodeURIComponent(version)}` : ''}`;
export const uploadedFileUrl = (file: string) => `/api/watermarks/files/${encodeURIComponent(file)}`;
