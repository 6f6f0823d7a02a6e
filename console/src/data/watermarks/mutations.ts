import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from '../client.ts';
import { watermarkKeys } from './keys.ts';

function useRefreshWatermarks() {
  const queryClient = useQueryClient();
  return (watermark?: Schemas['Watermark']) => {
    if (watermark) queryClient.setQueryData(watermarkKeys.detail(watermark.id), watermark);
    void queryClient.invalidateQueries({ queryKey: watermarkKeys.all });
  };
}

export function useSaveWatermark(id?: number) {
  const refresh = useRefreshWatermarks();
  return useMutation({
    mutationFn: (body: Schemas['WatermarkInput']) =>
      id === undefined ? unwrap(api.POST('/api/watermarks', { body })) : unwrap(api.PUT('/api/watermarks/{id}', { params: { path: { id } }, body })),
    onSuccess: (watermark) => refresh(watermark),
  });
}

export function useDeleteWatermark() {
  const refresh = useRefreshWatermarks();
  return useMutation({
    mutationFn: (id: number) => unwrap(api.DELETE('/api/watermarks/{id}', { params: { path: { id } } })),
    onSuccess: () => refresh(),
  });
}
