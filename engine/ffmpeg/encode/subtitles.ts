import type { SubtitleSpec } from '../../types.ts';
import { assertAbsolutePath, fail, formatUrl, parseUrl } from '../validate.ts';

/**
 * Subtitles, and what ffmpeg 5.1 can do with them:
 * - FILE (.srt SubRip, .vtt WebVTT, .stl Spruce STL text) and URL (http/https, same formats) become
 *   a WebVTT rendition of HLS outputs. ffmpeg 5.1's HLS muxer takes exactly ONE WebVTT stream per
 *   variant, so one subtitle language per job reaches HLS: the default one, else the first.
 *   EBU STL (binary .stl) has no demuxer in ffmpeg and cannot be read.
 * - DASH and CMAF outputs carry no subtitles: ffmpeg 5.1's dash muxer writes WebVTT into neither
 *   its mp4 nor its webm segments ("codec not currently supported in container").
 * - DVB subtitles (and teletext) of the source are copied through to MPEG-TS outputs (UDP, SRT,
 *   TCP, HTTP MPEG-TS); HLS, DASH, CMAF and RTMP cannot carry them.
 * - CLOSED_CAPTIONS (CEA-608/708 in the video's A/53 SEI) survive a video copy, and an encode with
 *   libx264 / nvenc / h264_qsv (a53cc); HLS declares them (CLOSED-CAPTIONS, INSTREAM-ID CC1).
 *   ffmpeg 5.1's libx265 drops them.
 */

export interface SubtitlePlan {
  /** The subtitle file or URL HLS carries, if any. */
  webvtt?: SubtitleSpec;
  dvb: boolean;
  closedCaptions?: SubtitleSpec;
}

const LANGUAGE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

export function subtitleLanguage(spec: SubtitleSpec): string | undefined {
  if (spec.language === undefined || spec.language === '') return undefined;
  if (!LANGUAGE.test(spec.language)) fail(`Subtitle language "${spec.language}" is not a language code (e.g. eng, en, pt-BR)`);
  return spec.language;
}

export function planSubtitles(subtitles: SubtitleSpec[] | undefined, muxAudioAndVideo: boolean | undefined): SubtitlePlan {
  const list = subtitles ?? [];
  if (list.length === 0) return { dvb: false };
  if (muxAudioAndVideo === true) fail('Subtitles are unavailable when Mux audio and video is on');
  if (list.filter((s) => s.default).length > 1) fail('Only one subtitle may be the default');
  const texts = list.filter((s) => s.type === 'FILE' || s.type === 'URL');
  for (const spec of list) {
    if (!['FILE', 'URL', 'DVB', 'CLOSED_CAPTIONS'].includes(spec.type)) fail(`Unknown subtitle type "${String(spec.type)}"`);
    subtitleLanguage(spec);
    if (spec.type === 'FILE' || spec.type === 'URL') subtitleInputArgs(spec);
  }
  const dvb = list.some((s) => s.type === 'DVB');
  if (dvb && texts.length > 0) fail('DVB subtitle passthrough cannot be combined with subtitle files or URLs in one job');
  return {
    webvtt: texts.find((s) => s.default) ?? texts[0],
    dvb,
    closedCaptions: list.find((s) => s.type === 'CLOSED_CAPTIONS'),
  };
}

/** The `-i` of a subtitle file (through the file protocol) or URL (http/https only). */
export function subtitleInputArgs(spec: SubtitleSpec): string[] {
  if (spec.type === 'FILE') {
    const file = assertAbsolutePath(spec.source, 'Subtitle file');
    if (!/\.(srt|vtt|stl)$/i.test(file)) fail(`Subtitle file "${file}" must be .srt, .vtt or .stl`);
    return ['-i', `file:${file}`];
  }
  if (spec.type === 'URL') {
    if (!spec.source) fail('A URL subtitle needs a value');
    return ['-rw_timeout', '15000000', '-i', formatUrl(parseUrl(spec.source, ['http', 'https'], 'Subtitle URL'))];
  }
  fail(`A ${spec.type} subtitle is not read from a file`);
}
