import { singleRenditionSelect } from '../streams.ts';
import { type BuiltOutput, type OutputContext, type OutputOf, slaveOptions } from './common.ts';

/**
 * MPEG-TS over HTTP, served by the product: ffmpeg writes the transport stream to its stdout and
 * the product fans it out to every HTTP client (engine/mpegts-fanout.ts).
 */
export function buildMpegTsOutput(_output: OutputOf<'mpegts'>, ctx: OutputContext): BuiltOutput {
  return {
    slave: { options: slaveOptions('mpegts', singleRenditionSelect(ctx.layout, { withDvb: true })), url: 'pipe:1' },
    directories: [],
    usesStdout: true,
    container: 'mpegts',
  };
}
