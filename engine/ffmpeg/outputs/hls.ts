import { assertAbsolutePath, assertIntegerRange, assertNumberRange, fail, assertOutputDirectory } from '../validate.ts';
import { assertIv, assertKeyUrl, hlsKeyInfoPath } from '../hls-keys.ts';
import { hasAudio, type StreamLayout } from '../streams.ts';
import { type BuiltOutput, type OutputContext, type OutputOf, slaveOptions } from './common.ts';

/** The playlist players open, in every HLS output directory: a media playlist, or the master playlist when there are renditions. */
export const HLS_ENTRY_PLAYLIST = 'index.m3u8';
/** Segments kept in a LIVE playlist when the spec says nothing. */
export const DEFAULT_LIVE_LIST_SIZE = 6;

export function segmentSeconds(value: unknown, what: string): string {
  const seconds = assertNumberRange(value, 0.5, 60, `${what} segment duration (seconds)`);
  return String(seconds);
}

/** The language code on an HLS rendition: letters only, as the var_stream_map syntax allows. */
function languageKey(language: string | undefined): string {
  return language ? `,language:${language}` : '';
}

/**
 * ffmpeg's var_stream_map for the renditions of this job, and its cc_stream_map:
 * - video variants v:i (one per ABR profile), each with its own audio a:i (ABR with muxed audio),
 *   or every audio stream muxed in (one rendition),
 * - or, with muxAudioAndVideo off, audio as renditions of one audio group the variants refer to,
 * - the WebVTT stream s:i of each variant in the subtitle group,
 * - closed captions declared in a CC group (INSTREAM-ID CC1).
 * Undefined when a plain media playlist does (one rendition, no subtitles, no captions).
 */
export function hlsStreamMaps(layout: StreamLayout): { varStreamMap: string; ccStreamMap?: string } | undefined {
  const audio = hasAudio(layout);
  const needsMaster =
    layout.profiles !== undefined || layout.webvtt !== undefined || layout.closedCaptions !== undefined || (!layout.muxAudioAndVideo && audio && layout.videoCount > 0);
  if (!needsMaster) return undefined;
  if (layout.audioCount === 'open') fail('HLS renditions need the audio tracks listed one by one (not ALL)');
  const audioCount = layout.audioCount;
  const entries: string[] = [];
  const videoExtras = (i: number) =>
    (layout.webvtt ? `,s:${i},sgroup:subtitles${languageKey(layout.webvtt.language)}` : '') + (layout.closedCaptions ? ',ccgroup:cc' : '');
  if (layout.videoCount === 0) {
    for (let j = 0; j < audioCount; j++) entries.push(`a:${j}${languageKey(layout.audioLanguages[j])}`);
  } else if (layout.muxAudioAndVideo || !audio) {
    for (let i = 0; i < layout.videoCount; i++) {
      const muxed = !audio ? [] : layout.audioPerProfile ? [`a:${i}`] : Array.from({ length: audioCount }, (_, j) => `a:${j}`);
      entries.push([`v:${i}`, ...muxed].join(',') + videoExtras(i));
    }
  } else {
    for (let i = 0; i < layout.videoCount; i++) entries.push(`v:${i},agroup:audio` + videoExtras(i));
    for (let j = 0; j < audioCount; j++) entries.push(`a:${j},agroup:audio${languageKey(layout.audioLanguages[j])}${j === 0 ? ',default:yes' : ''}`);
  }
  const ccStreamMap = layout.closedCaptions ? `ccgroup:cc,instreamid:CC1${languageKey(layout.closedCaptions.language)}` : undefined;
  return { varStreamMap: entries.join(' '), ccStreamMap };
}

/**
 * HLS into a directory: TS or fMP4 segments, the segment duration, a LIVE playlist of `listSize`
 * segments whose older segments are deleted (0 keeps every segment in an EVENT playlist), a VOD
 * playlist keeping all; program date time on request; AES-128 with the key served by the product.
 * Renditions (ABR, separate audio, subtitles, captions) get a master playlist `index.m3u8` with one
 * `stream_<n>.m3u8` per rendition; otherwise `index.m3u8` is the media playlist.
 */
export function buildHlsOutput(output: OutputOf<'hls'>, ctx: OutputContext): BuiltOutput {
  const what = `Output ${output.index + 1} (HLS)`;
  const dir = assertOutputDirectory(output.dir, `${what} directory`);
  if (output.containerType !== 'TS' && output.containerType !== 'FMP4') fail(`${what}: container type must be TS or FMP4`);
  const fmp4 = output.containerType === 'FMP4';
  const live = ctx.videoType === 'LIVE';
  const listSize = live ? (output.listSize === undefined ? DEFAULT_LIVE_LIST_SIZE : assertIntegerRange(output.listSize, 0, 100_000, `${what} list size`)) : 0;
  const maps = hlsStreamMaps(ctx.layout);
  const name = maps ? 'stream_%v' : 'index';
  const segmentName = maps ? 'stream_%v_%05d' : 'segment_%05d';

  const flags = ['independent_segments', 'temp_file'];
  if (live && listSize > 0) flags.push('delete_segments');
  if (output.programDateTime) flags.push('program_date_time');

  const options: Array<[string, string]> = [
    ['hls_time', segmentSeconds(output.segmentDurationSeconds, what)],
    ['hls_list_size', String(listSize)],
    ['hls_flags', flags.join('+')],
    ['hls_segment_type', fmp4 ? 'fmp4' : 'mpegts'],
    ['hls_segment_filename', `${dir}/${segmentName}.${fmp4 ? 'm4s' : 'ts'}`],
  ];
  if (fmp4) options.push(['hls_fmp4_init_filename', maps ? 'init_%v.mp4' : 'init.mp4']);
  if (!live) options.push(['hls_playlist_type', 'vod']);
  else if (listSize === 0) options.push(['hls_playlist_type', 'event']);
  // LIVE numbering starts from the clock, so a restarted job continues the media sequence instead of rewinding it.
  if (live) options.push(['hls_start_number_source', 'epoch']);
  if (output.encryption) {
    assertKeyUrl(output.encryption.keyUrl, `${what} key URL`);
    assertAbsolutePath(output.encryption.keyFile, `${what} key file`);
    if (output.encryption.iv) assertIv(output.encryption.iv, `${what} IV`);
    options.push(['hls_key_info_file', assertAbsolutePath(hlsKeyInfoPath(output.encryption), `${what} key info file`)]);
  }
  if (maps) {
    options.push(['master_pl_name', HLS_ENTRY_PLAYLIST], ['var_stream_map', maps.varStreamMap]);
    if (maps.ccStreamMap) options.push(['cc_stream_map', maps.ccStreamMap]);
  }
  // HLS carries video, audio and WebVTT; DVB subtitles stay out.
  const select = ctx.layout.dvbSubtitles ? [...(ctx.layout.videoCount > 0 ? ['v'] : []), ...(hasAudio(ctx.layout) ? ['a'] : [])] : undefined;
  return {
    slave: { options: [...slaveOptions('hls', select), ...options], url: `${dir}/${name}.m3u8` },
    directories: [dir],
    usesStdout: false,
    container: fmp4 ? 'mp4' : 'mpegts',
  };
}
