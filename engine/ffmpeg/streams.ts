import type { AbrProfileSpec, JobSpec } from '../types.ts';

/**
 * The streams of the one output file every output shares (through the tee muxer), in the order
 * they are mapped: video first (one, or one per ABR profile), then audio, then subtitles. Output
 * builders read it to pick their streams and to describe renditions (HLS variants, DASH sets).
 */
export interface StreamLayout {
  /** Video streams: 0, 1 or one per ABR profile (v:i is profile i). */
  videoCount: number;
  /** Audio streams: a known count, or 'open' when every source audio stream is mapped (ALL, relays). */
  audioCount: number | 'open';
  /** ABR profiles in output order. */
  profiles?: AbrProfileSpec[];
  /** ABR with muxed audio: a:i is profile i's audio (at the profile's audio bitrate). */
  audioPerProfile: boolean;
  /** The profile that single-rendition outputs (UDP, SRT, RTMP ...) carry. */
  mainProfile: number;
  /** Audio track languages by audio stream index (when known). */
  audioLanguages: Array<string | undefined>;
  /** One WebVTT stream per video variant (s:i goes with v:i), for HLS; none when there is no subtitle file or URL. */
  webvtt?: { language?: string };
  /** Source DVB subtitle streams copied through (MPEG-TS outputs only); they follow the WebVTT streams. */
  dvbSubtitles: boolean;
  /** Closed captions travel inside the video (A/53 side data); HLS declares them. */
  closedCaptions?: { language?: string };
  /** HLS: audio inside each variant (true) or one shared audio group (false). */
  muxAudioAndVideo: boolean;
  /** Streams copied from the source, whatever they turn out to be (relay or 'copy' video). */
  videoCopied: boolean;
}

export function emptyLayout(): StreamLayout {
  return {
    videoCount: 0,
    audioCount: 0,
    audioPerProfile: false,
    mainProfile: 0,
    audioLanguages: [],
    dvbSubtitles: false,
    muxAudioAndVideo: true,
    videoCopied: false,
  };
}

export function hasAudio(layout: StreamLayout): boolean {
  return layout.audioCount === 'open' || layout.audioCount > 0;
}

export function hasSubtitles(layout: StreamLayout): boolean {
  return layout.webvtt !== undefined || layout.dvbSubtitles;
}

/**
 * Stream specifiers (tee's `select`) for an output that carries one rendition. `undefined` means
 * "every stream". `withDvb`: the output is MPEG-TS and takes DVB subtitles.
 */
export function singleRenditionSelect(layout: StreamLayout, options: { withDvb: boolean }): string[] | undefined {
  const abr = layout.profiles !== undefined;
  const dropsSubtitles = layout.webvtt !== undefined || (layout.dvbSubtitles && !options.withDvb);
  if (!abr && !dropsSubtitles) return undefined;
  const select: string[] = [];
  if (layout.videoCount > 0) select.push(abr ? `v:${layout.mainProfile}` : 'v');
  if (hasAudio(layout)) select.push(abr && layout.audioPerProfile ? `a:${layout.mainProfile}` : abr ? 'a:0' : 'a');
  if (layout.dvbSubtitles && options.withDvb) select.push('s');
  return select;
}

/** Streams an output of segmented media (DASH/CMAF) takes: video and audio, no subtitles. */
export function audioVideoSelect(layout: StreamLayout): string[] | undefined {
  if (!hasSubtitles(layout)) return undefined;
  const select: string[] = [];
  if (layout.videoCount > 0) select.push('v');
  if (hasAudio(layout)) select.push('a');
  return select;
}

export type VideoType = JobSpec['videoType'];
