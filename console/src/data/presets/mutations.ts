import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from '../client.ts';
import { presetKeys } from './keys.ts';

type PresetType = 'video' | 'audio';

/** After a change: the detail from the answer, every preset list (and the job form's choices) refreshed. */
function useRefreshPresets() {
  const queryClient = useQueryClient();
  return (type: PresetType, preset?: { id: number }) => {
    if (preset) queryClient.setQueryData(presetKeys.detail(type, preset.id), preset);
    void queryClient.invalidateQueries({ queryKey: presetKeys.all, predicate: (query) => query.queryKey[1] !== 'codecs' });
  };
}

export function useSaveVideoPreset(id?: number) {
  const refresh = useRefreshPresets();
  return useMutation({
    mutationFn: (body: Schemas['VideoPresetInput']) =>
      id === undefined ? unwrap(api.POST('/api/presets/video', { body })) : unwrap(api.PUT('/api/presets/video/{id}', { params: { path: { id } }, body })),
    onSuccess: (preset) => refresh('video', preset),
  });
}

export function useSaveAudioPreset(id?: number) {
  const refresh = useRefreshPresets();
  return useMutation({
    mutationFn: (body: Schemas['AudioPresetInput']) =>
      id === undefined ? unwrap(api.POST('/api/presets/audio', { body })) : unwrap(api.PUT('/api/presets/audio/{id}', { params: { path: { id } }, body })),
    onSuccess: (preset) => refresh('audio', preset),
  });
}

export function useDeletePreset() {
  const refresh = useRefreshPresets();
  return useMutation({
    mutationFn: ({ type, id }: { type: PresetType; id: number }) =>
      type === 'video' ? unwrap(api.DELETE('/api/presets/video/{id}', { params: { path: { id } } })) : unwrap(api.DELETE('/api/presets/audio/{id}', { params: { path: { id } } })),
    onSuccess: (_result, { type }) => refresh(type),
  });
}
