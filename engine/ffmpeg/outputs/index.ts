import type { OutputSpec } from '../../types.ts';
import { fail } from '../validate.ts';
import { buildCmafOutput } from './cmaf.ts';
import type { BuiltOutput, OutputContext } from './common.ts';
import { buildDashOutput } from './dash.ts';
import { buildHlsOutput } from './hls.ts';
import { buildMpegTsOutput } from './mpegts.ts';
import { buildRtmpOutput } from './rtmp.ts';
import { buildSrtOutput } from './srt.ts';
import { buildTcpOutput } from './tcp.ts';
import { buildUdpOutput } from './udp.ts';

export type { BuiltOutput, OutputContext } from './common.ts';

/** One output spec → its tee slave and what it needs around it. */
export function buildOutput(output: OutputSpec, ctx: OutputContext): BuiltOutput {
  switch (output.type) {
    case 'udp':
      return buildUdpOutput(output, ctx);
    case 'srt':
      return buildSrtOutput(output, ctx);
    case 'tcp':
      return buildTcpOutput(output, ctx);
    case 'rtmp':
      return buildRtmpOutput(output, ctx);
    case 'mpegts':
      return buildMpegTsOutput(output, ctx);
    case 'hls':
      return buildHlsOutput(output, ctx);
    case 'dash':
      return buildDashOutput(output, ctx);
    case 'cmaf':
      return buildCmafOutput(output, ctx);
    default:
      fail(`Unknown output type "${String((output as { type?: unknown }).type)}"`);
  }
}

/** Output types that carry MPEG-TS (and so DVB subtitles). */
export const TS_OUTPUT_TYPES = new Set<OutputSpec['type']>(['udp', 'srt', 'tcp', 'mpegts']);
export const SEGMENTED_OUTPUT_TYPES = new Set<OutputSpec['type']>(['hls', 'dash', 'cmaf']);
