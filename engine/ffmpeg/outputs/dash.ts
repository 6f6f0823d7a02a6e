import { audioVideoSelect, hasAudio, type StreamLayout } from '../streams.ts';
import { assertIntegerRange, assertOutputDirectory, fail } from '../validate.ts';
import { type BuiltOutput, type OutputContext, type OutputOf, slaveOptions } from './common.ts';
import { DEFAULT_LIVE_LIST_SIZE, segmentSeconds } from './hls.ts';

/** The manifest players open, in every DASH and CMAF output directory. */
export const DASH_MANIFEST = 'manifest.mpd';
/** The HLS master playlist a CMAF output writes next to its DASH manifest. */
export const CMAF_HLS_MASTER = 'master.m3u8';

/** One adaptation set for the video representations (every ABR profile), one for the audio. */
export function adaptationSets(layout: StreamLayout): string {
  const sets: string[] = [];
  if (layout.videoCount > 0) sets.push(`id=${sets.length},streams=v`);
  if (hasAudio(layout)) sets.push(`id=${sets.length},streams=a`);
  if (sets.length === 0) fail('A DASH output needs video or audio');
  return sets.join(' ');
}

type Segmented = OutputOf<'dash'> | OutputOf<'cmaf'>;

/**
 * fMP4 segments and an MPD written by ffmpeg's dash muxer. LIVE keeps `listSize` segments in the
 * manifest (and a few more on disk for late readers, then deletes them); VOD keeps all. Subtitles
 * stay out: ffmpeg 5.1's dash muxer cannot put WebVTT in its segments.
 */
export function dashOptions(output: Segmented, ctx: OutputContext, what: string): { dir: string; options: Array<[string, string]> } {
  const dir = assertOutputDirectory(output.dir, `${what} directory`);
  const live = ctx.videoType === 'LIVE';
  const windowSize = live ? (output.listSize === undefined ? DEFAULT_LIVE_LIST_SIZE : assertIntegerRange(output.listSize, 0, 100_000, `${what} list size`)) : 0;
  const options: Array<[string, string]> = [
    ['seg_duration', segmentSeconds(output.segmentDurationSeconds, what)],
    ['window_size', String(windowSize)],
    ['extra_window_size', String(windowSize > 0 ? 3 : 0)],
    ['use_template', '1'],
    ['use_timeline', '1'],
    ['dash_segment_type', 'mp4'],
    ['adaptation_sets', adaptationSets(ctx.layout)],
  ];
  return { dir, options };
}

export function buildDashOutput(output: OutputOf<'dash'>, ctx: OutputContext): BuiltOutput {
  const what = `Output ${output.index + 1} (DASH)`;
  const { dir, options } = dashOptions(output, ctx, what);
  return {
    slave: { options: [...slaveOptions('dash', audioVideoSelect(ctx.layout)), ...options], url: `${dir}/${DASH_MANIFEST}` },
    directories: [dir],
    usesStdout: false,
    container: 'mp4',
  };
}
