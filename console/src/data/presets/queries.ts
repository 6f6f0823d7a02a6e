import { useQuery } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from '../client.ts';
import { presetKeys } from './keys.ts';

export type VideoPreset = Schemas['VideoPreset'];
export type AudioPreset = Schemas['AudioPreset'];
export type PresetCodecs = Schemas['PresetCodecs'];
export type CodecOption = Schemas['CodecOption'];

export function useVideoPresetList() {
  return useQuery({ queryKey: presetKeys.list('video'), queryFn: ({ signal }) => unwrap(api.GET('/api/presets/video', { signal })) });
}

export function useAudioPresetList() {
  return useQuery({ queryKey: presetKeys.list('audio'), queryFn: ({ signal }) => unwrap(api.GET('/api/presets/audio', { signal })) });
}

export function useVideoPreset(id: number | undefined) {
  return useQuery({
    queryKey: presetKeys.detail('video', id ?? 0),
    queryFn: ({ signal }) => unwrap(api.GET('/api/presets/video/{id}', { params: { path: { id: id as number } }, signal })),
    enabled: id !== undefined,
  });
}

export function useAudioPreset(id: number | undefined) {
  return useQuery({
    queryKey: presetKeys.detail('audio', id ?? 0),
    queryFn: ({ signal }) => unwrap(api.GET('/api/presets/audio/{id}', { params: { path: { id: id as number } }, signal })),
    enabled: id !== undefined,
  });
}

/** The codecs and their options, as the server's ffmpeg has them: they change only with ffmpeg. */
export function usePresetCodecs() {
  return useQuery({ queryKey: presetKeys.codecs, queryFn: ({ signal }) => unwrap(api.GET('/api/presets/codecs', { signal })), staleTime: Number.POSITIVE_INFINITY });
}
