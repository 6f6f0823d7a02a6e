/** Everything under ['presets'] is refreshed by the live topic `presets` (the job form's choices too). */
export const presetKeys = {
  all: ['presets'] as const,
  codecs: ['presets', 'codecs'] as const,
  list: (type: 'video' | 'audio') => ['presets', type, 'list'] as const,
  detail: (type: 'video' | 'audio', id: number) => ['presets', type, 'detail', id] as const,
};
