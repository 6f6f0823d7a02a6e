import { audioVideoSelect } from '../streams.ts';
import { type BuiltOutput, type OutputContext, type OutputOf, slaveOptions } from './common.ts';
import { CMAF_HLS_MASTER, DASH_MANIFEST, dashOptions } from './dash.ts';

/**
 * CMAF: one set of fMP4 segments described by both a DASH manifest (`manifest.mpd`) and an HLS
 * master playlist (`master.m3u8`, with one `media_<n>.m3u8` per representation): ffmpeg 5.1's
 * dash muxer writes both with `hls_playlist`.
 */
export function buildCmafOutput(output: OutputOf<'cmaf'>, ctx: OutputContext): BuiltOutput {
  const what = `Output ${output.index + 1} (CMAF)`;
  const { dir, options } = dashOptions(output, ctx, what);
  options.push(['hls_playlist', '1'], ['hls_master_name', CMAF_HLS_MASTER]);
  return {
    slave: { options: [...slaveOptions('dash', audioVideoSelect(ctx.layout)), ...options], url: `${dir}/${DASH_MANIFEST}` },
    directories: [dir],
    usesStdout: false,
    container: 'mp4',
  };
}
