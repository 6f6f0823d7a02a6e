import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, unwrap, type Schemas } from '../../../data/client.ts';
import type { JobKind } from '../../../data/jobs/keys.ts';
import type { InputValue } from './jobFormModel.ts';

/** A choice of a select that refers to another area's item. */
export interface NamedItem {
  id: number;
  name: string;
}

const LOOKUP_STALE_MS = 30_000;
const named = (items: readonly { id: number; name: string }[]): NamedItem[] => items.map(({ id, name }) => ({ id, name }));

/** The video presets of the Preset select, by name. */
export function useVideoPresets(enabled: boolean) {
  return useQuery({
    queryKey: ['presets', 'video', 'choices'],
    queryFn: async ({ signal }) => named((await unwrap(api.GET('/api/presets/video', { signal }))).items),
    enabled,
    staleTime: LOOKUP_STALE_MS,
  });
}

/** The audio presets of an audio track's select, by name. */
export function useAudioPresets(enabled: boolean) {
  return useQuery({
    queryKey: ['presets', 'audio', 'choices'],
    queryFn: async ({ signal }) => named((await unwrap(api.GET('/api/presets/audio', { signal }))).items),
    enabled,
    staleTime: LOOKUP_STALE_MS,
  });
}

/** The watermarks of the Watermark select, by name (the list's largest page). */
export function useWatermarks(enabled: boolean) {
  return useQuery({
    queryKey: ['watermarks', 'choices'],
    queryFn: async ({ signal }) => named((await unwrap(api.GET('/api/watermarks', { params: { query: { size: 500, sort: 'name', order: 'asc' } }, signal }))).items),
    enabled,
    staleTime: LOOKUP_STALE_MS,
  });
}

/** `value`, once it has stopped changing for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

export const MEDIA_INFO_FAILED = 'Media info detection failed. Please make sure the source is available.';
const SOURCE_SETTLE_MS = 800;

/** What the media source check can say about an input (spec 01 §2.6, §4). */
export type MediaCheck = { state: 'idle' } | { state: 'loading' } | { state: 'success'; info: Schemas['MediaInfo'] } | { state: 'failure' };

/** A uri input worth probing: a URL or a path, not a batch glob. */
export function probeable(input: InputValue | undefined): input is InputValue & { uri: string } {
  return Boolean(input && input.type === 'uri' && input.uri && !input.batchLogEnabled && (/^[a-z][a-z0-9+.-]*:\/\/./i.test(input.uri) || input.uri.startsWith('/')));
}

/**
 * The media source check: once the source of a uri input has settled, POST /api/{kind}s/media-info
 * probes it; loading, then success with what it carries, or failure.
 */
export function useMediaCheck(kind: JobKind, input: InputValue | undefined, enabled: boolean): MediaCheck {
  const source = probeable(input) ? { type: 'uri' as const, uri: input.uri, tokenRequired: input.tokenRequired, token: input.tokenRequired ? input.token : undefined, program: input.program } : null;
  const settled = useDebounced(source ? JSON.stringify(source) : '', SOURCE_SETTLE_MS);
  const current = source ? JSON.stringify(source) : '';
  const query = useQuery({
    queryKey: ['media-info', kind, settled],
    queryFn: ({ signal }) =>
      unwrap(api.POST(`/api/${kind}s/media-info` as '/api/relays/media-info', { body: JSON.parse(settled) as Schemas['Input'], signal })),
    enabled: enabled && settled !== '',
    retry: false,
    staleTime: 60_000,
    gcTime: 5 * 60_000,
  });
  if (!enabled || !current) return { state: 'idle' };
  if (current !== settled || query.isFetching) return { state: 'loading' };
  if (query.isError) return { state: 'failure' };
  if (query.data) return { state: 'success', info: query.data };
  return { state: 'idle' };
}

/** One line about what a probed source carries, e.g. "mpegts · h264 1920x1080 · aac 2ch". */
export function describeMedia(info: Schemas['MediaInfo']): string {
  const parts: string[] = [];
  if (info.format.name) parts.push(info.format.name);
  for (const stream of info.streams.slice(0, 4)) {
    if (stream.type === 'video') parts.push(`${stream.codec ?? 'video'}${stream.width && stream.height ? ` ${stream.width}x${stream.height}` : ''}`);
    else if (stream.type === 'audio') parts.push(`${stream.codec ?? 'audio'}${stream.channels ? ` ${stream.channels}ch` : ''}`);
  }
  if (info.programs.length > 1) parts.push(`${info.programs.length} programs`);
  return parts.join(' · ');
}
