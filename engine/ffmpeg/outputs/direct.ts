import type { JobSpec } from '../../types.ts';
import { fail } from '../validate.ts';
import type { BuiltOutput } from './common.ts';

/**
 * Outputs that take stream-copied video or audio into FLV or MP4 run as outputs of their own
 * instead of tee slaves: ffmpeg 5.1's tee muxer hands its slaves the source's codec tags and no
 * usable codec headers, so FLV and MP4 muxers refuse copied streams (or write unplayable FLV)
 * there, while a direct output gets ffmpeg's per-format handling (tags, aac_adtstoasc, Annex B to
 * AVCC). The price: a direct output that fails ends the process (restart policy), it is not
 * dropped alone like a tee slave. Copied streams cost no encode, so nothing is encoded twice.
 */

/** Keys of a tee slave that belong to tee itself, not to the muxer. */
const TEE_KEYS = new Set(['f', 'onfail', 'select', 'use_fifo', 'fifo_options']);

/** The MP4 sample entry of a copied video codec. */
const MP4_VIDEO_TAGS: Record<string, string> = { h264: 'avc1', hevc: 'hvc1', av1: 'av01', vp9: 'vp09', mpeg4: 'mp4v' };
/** The MP4 sample entry of a copied audio codec. */
const MP4_AUDIO_TAGS: Record<string, string> = { aac: 'mp4a', mp3: 'mp4a', mp2: 'mp4a', ac3: 'ac-3', eac3: 'ec-3', opus: 'Opus', flac: 'fLaC' };

export function copiedStreamArgs(output: BuiltOutput, job: JobSpec, copies: { video: boolean; audio: boolean }): string[] {
  const video = job.sourceCodecs?.video ?? 'h264';
  const audio = job.sourceCodecs?.audio ?? 'aac';
  const format = output.slave.options.find(([key]) => key === 'f')?.[1];
  if (output.container === 'flv') {
    if (copies.video && video !== 'h264') fail(`RTMP (FLV) carries H.264 video only in ffmpeg 5.1; the source's video is ${video}`);
    if (copies.audio && !['aac', 'mp3'].includes(audio)) fail(`RTMP (FLV) carries AAC or MP3 audio; the source's audio is ${audio} (encode it)`);
    return [];
  }
  if (output.container !== 'mp4') return [];
  const args: string[] = [];
  if (copies.video) {
    const tag = MP4_VIDEO_TAGS[video];
    if (!tag) fail(`Copied ${video} video cannot go into MP4 segments (DASH, CMAF, HLS fMP4); encode it`);
    args.push('-tag:v', tag);
  }
  if (copies.audio) {
    const tag = MP4_AUDIO_TAGS[audio];
    if (!tag) fail(`Copied ${audio} audio cannot go into MP4 segments (DASH, CMAF, HLS fMP4); encode it`);
    args.push('-tag:a', tag);
    // The dash muxer converts ADTS AAC by itself; ffmpeg 5.1's HLS fMP4 writer does not.
    if (format === 'hls' && audio === 'aac') args.push('-bsf:a', 'aac_adtstoasc');
  }
  return args;
}

/** A built output as options of a direct output file: `-name value ... -f <muxer> <url>`. */
export function directOutputArgs(output: BuiltOutput): string[] {
  const format = output.slave.options.find(([key]) => key === 'f')?.[1];
  if (!format) throw new Error('an output without a muxer');
  const options = output.slave.options.filter(([key]) => !TEE_KEYS.has(key));
  return [...options.flatMap(([key, value]) => [`-${key}`, value]), '-f', format, output.slave.url];
}
