import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from '../client.ts';
import { watermarkKeys, type WatermarkListQuery } from './keys.ts';

export type Watermark = Schemas['Watermark'];

export function useWatermarkList(query: WatermarkListQuery) {
  return useQuery({
    queryKey: watermarkKeys.list(query),
    queryFn: ({ signal }) => unwrap(api.GET('/api/watermarks', { params: { query }, signal })),
    placeholderData: keepPreviousData,
  });
}

export function useWatermark(id: number | undefined) {
  return useQuery({
    queryKey: watermarkKeys.detail(id ?? 0),
    queryFn: ({ signal }) => unwrap(api.GET('/api/watermarks/{id}', { params: { path: { id: id as number } }, signal })),
    enabled: id !== undefined,
  });
}
