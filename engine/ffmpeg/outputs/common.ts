import type { JobSpec, OutputSpec } from '../../types.ts';
import type { StreamLayout } from '../streams.ts';
import { formatOptionList, type TeeSlave } from '../tee.ts';

export interface OutputContext {
  layout: StreamLayout;
  videoType: JobSpec['videoType'];
  /** More than one output shares the process: each network output gets its own queue so one cannot stall or end the others. */
  shared: boolean;
  /** The video encoder, when the video is encoded (outputs check what their container can carry). */
  videoCodec?: string;
}

/** What one output adds to the command: a tee slave, directories to create, whether it writes TS to stdout. */
export interface BuiltOutput {
  slave: TeeSlave;
  directories: string[];
  usesStdout: boolean;
  /**
   * What the output muxes into. FLV and MP4 (fMP4 segments) keep codec headers out of band, so
   * encoders are told to produce them (global header) when they feed the tee muxer; MPEG-TS
   * repeats them in band.
   */
  container: 'mpegts' | 'flv' | 'mp4';
}

export type OutputOf<T extends OutputSpec['type']> = Extract<OutputSpec, { type: T }>;

/**
 * A network output in its own thread and queue (tee's fifo): a receiver that is slow, gone or not
 * yet connected (an SRT/TCP listener waiting for its caller) drops packets instead of blocking the
 * encode for every other output, and the output reopens itself after a failure, from a keyframe.
 */
export const FIFO_OPTIONS: Array<[string, string]> = [
  ['queue_size', '600'],
  ['drop_pkts_on_overflow', '1'],
  ['attempt_recovery', '1'],
  ['recover_any_error', '1'],
  ['recovery_wait_time', '2'],
  ['restart_with_keyframe', '1'],
];

export function slaveOptions(format: string, select: string[] | undefined, options: { fifo?: boolean } = {}): Array<[string, string]> {
  // onfail=ignore: a slave that fails is dropped and the others go on (ffmpeg ends only when all have failed).
  const list: Array<[string, string]> = [
    ['f', format],
    ['onfail', 'ignore'],
  ];
  if (select) list.push(['select', select.join(',')]);
  if (options.fifo) list.push(['use_fifo', '1'], ['fifo_options', formatOptionList(FIFO_OPTIONS)]);
  return list;
}
