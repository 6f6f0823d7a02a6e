/**
 * The engine's vocabulary: resolved job specs in, typed events out. No HTTP, no database here:
 * the node reconciler (api/node) resolves presets, watermark files, storage paths, tokens and
 * failover inputs before a spec reaches the engine.
 */

/** An input, fully resolved. */
export type InputSpec =
  | {
      type: 'uri';
      /** udp://, rtp://, srt://, rtmp(s)://, rtsp://, http(s):// (HLS too), file path or file:// */
      uri: string;
      /** Appended as `token=<value>` to http(s), rtmp(s) and rtsp URLs when tokenRequired. */
      token?: string;
      /** Program number to select in a multi-program transport stream. */
      program?: number;
      /** Decoder to force (e.g. h264_cuvid); ffmpeg picks when absent. */
      videoDecoder?: string;
    }
  | {
      type: 'storage';
      /** Absolute path, already resolved inside its storage root. */
      path: string;
    }
  | {
      /** Extension point for playlist, dvb, dev and multiviewer inputs: their areas resolve them to ffmpeg input arguments. */
      type: 'args';
      source: 'playlist' | 'dvb' | 'dev' | 'multiviewer';
      args: string[];
    };

export interface FailoverSpec {
  input: InputSpec;
  /** No progress from the primary for this long switches to the failover input (spec default 30). */
  switchTimeoutSeconds: number;
  /** The primary must answer a probe this long before the job returns to it. */
  returnAfterHealthySeconds?: number;
}

export interface HlsEncryptionSpec {
  /** 16-byte AES-128 key file on the node. */
  keyFile: string;
  /** URL the players fetch the key from (served by the product). */
  keyUrl: string;
  /** Optional IV as 32 hex digits. */
  iv?: string;
  /** ffmpeg's key info file (key URL, key file, IV); `<keyFile>.keyinfo` when absent. Written by `engine/ffmpeg/hls-keys.ts`. */
  keyInfoFile?: string;
}

interface OutputBase {
  /** Position of the output in the job, from 0. */
  index: number;
  disabled?: boolean;
}

export type OutputSpec = OutputBase &
  (
    | { type: 'udp'; host: string; port: number; rtp?: boolean; ttl?: number; localAddress?: string }
    | {
        type: 'srt';
        mode: 'caller' | 'listener';
        host: string;
        port: number;
        latencyMs?: number;
        passphrase?: string;
        pbkeylen?: 16 | 24 | 32;
        streamId?: string;
      }
    | { type: 'tcp'; host: string; port: number; listen?: boolean }
    | { type: 'rtmp'; url: string; username?: string; password?: string }
    /** MPEG-TS over HTTP served by the product: ffmpeg writes TS to its stdout, the product fans it out. */
    | { type: 'mpegts' }
    | {
        type: 'hls';
        /** Directory the playlist and segments are written to (created by the engine). */
        dir: string;
        segmentDurationSeconds: number;
        containerType: 'TS' | 'FMP4';
        programDateTime?: boolean;
        /** Segments kept in a live playlist; 0 keeps all (VOD). */
        listSize?: number;
        encryption?: HlsEncryptionSpec;
      }
    | { type: 'dash'; dir: string; segmentDurationSeconds: number; listSize?: number }
    /** CMAF: fMP4 segments shared by an HLS and a DASH manifest. */
    | { type: 'cmaf'; dir: string; segmentDurationSeconds: number; listSize?: number }
  );

export type OutputType = OutputSpec['type'];

export type DeinterlaceMethod = 'YADIF_FFMPEG' | 'YADIF_ADAPTIVE_FFMPEG' | 'BWDIF_FFMPEG' | 'W3FDIF_FFMPEG';

export interface VideoEncodeSpec {
  /** ffmpeg encoder: libx264, libx265, h264_nvenc, hevc_nvenc, h264_qsv, hevc_qsv, h264_vaapi, hevc_vaapi */
  codec: string;
  bitrateKbps: number;
  width?: number;
  height?: number;
  /** e.g. "16:9"; sets the display aspect ratio. */
  aspectRatio?: string;
  /** e.g. 25, 29.97 */
  frameRate?: number;
  /** GOP length in frames. */
  keyInt?: number;
  /** The preset's codec options, name → value, each passed as `-name value` (boolean true → 1). */
  params?: Record<string, string | number | boolean>;
  deinterlace?: { method: DeinterlaceMethod; field?: 'AUTO' | 'TOP' | 'BOTTOM' };
}

export interface AbrProfileSpec {
  width: number;
  height: number;
  videoBitrateKbps: number;
  audioBitrateKbps: number;
  /** The profile that single-rendition outputs (UDP, SRT, RTMP, MPEG-TS) carry; the first when none is marked. */
  main?: boolean;
}

export interface AudioTrackSpec {
  /** Source stream: AUTO (ffmpeg's pick), ALL (every audio stream) or an audio stream index. */
  source: 'AUTO' | 'ALL' | number;
  /** aac, libopus, ac3, mp2, libmp3lame, or copy */
  codec: string;
  bitrateKbps?: number;
  channels?: number;
  sampleRate?: number;
}

export interface WatermarkSpec {
  /** Image file on the node. */
  file: string;
  /** Transparency 0 (opaque) to 100 (invisible). */
  alpha: number;
  width: number;
  height: number;
  x: number;
  y: number;
}

export interface SubtitleSpec {
  type: 'FILE' | 'URL' | 'DVB' | 'CLOSED_CAPTIONS';
  /** File path (FILE) or URL (URL). */
  source?: string;
  language?: string;
  default?: boolean;
}

export interface EncodingSpec {
  /** null: no video (noVideo); 'copy': pass the video through (relayVideo). */
  video: VideoEncodeSpec | 'copy' | null;
  /** 2 to 9 profiles encoded from one decode (ABR); replaces video size and bitrate. */
  profiles?: AbrProfileSpec[];
  audio: { disabled?: boolean; normalization?: boolean; volume?: number; tracks: AudioTrackSpec[] };
  muxAudioAndVideo?: boolean;
  watermark?: WatermarkSpec;
  replaceVideoFile?: string;
  replaceAudioFile?: string;
  delaySeconds?: number;
  subtitles?: SubtitleSpec[];
}

/** A job ready to run: a relay (no `encoding`: streams are copied) or an encoding. */
export interface JobSpec {
  /** Stable id, e.g. `relay-12`, used for log files and process bookkeeping. */
  id: string;
  name: string;
  videoType: 'LIVE' | 'VOD';
  input: InputSpec;
  failover?: FailoverSpec;
  outputs: OutputSpec[];
  encoding?: EncodingSpec;
  noVideo?: boolean;
  noSound?: boolean;
  /**
   * Codecs of the source's first video and audio stream as ffprobe names them (h264, hevc, aac,
   * mp2, ac3 ...), from the last media probe. Streams copied into MP4-based outputs (DASH, CMAF,
   * HLS fMP4) must be tagged for MP4, which ffmpeg cannot infer for copied streams; H.264 and AAC
   * are assumed when absent.
   */
  sourceCodecs?: { video?: string; audio?: string };
  /** 0 = never restart; the spec's placeholder is 10. */
  restartAttempts: number;
  /** No progress for this long is a hang. */
  staleTimeoutSeconds: number;
  logLevel: LogLevel;
  /** FILE (the default): the job's log file on its node; NONE: no log is kept. */
  logTarget?: 'FILE' | 'NONE';
  logMaxSizeInMegaBytes: number;
}

export const LOG_LEVELS = ['TRACE', 'DEBUG', 'VERBOSE', 'INFO', 'NOTICE', 'WARNING', 'ERROR', 'FATAL'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Observed state of a supervised process. */
export type JobState = 'starting' | 'running' | 'restarting' | 'stopping' | 'stopped' | 'failed';
/** What the operator (or a timer) asked for. */
export type DesiredState = 'running' | 'stopped';

/** Why a process ended, named for the operator. */
export type ExitReason =
  | 'finished'
  | 'stopped'
  | 'input_unreachable'
  | 'connection_refused'
  | 'authorization_refused'
  | 'not_found'
  | 'invalid_data'
  /** Probing ended before the input's streams were all known (e.g. "dimensions not set"): a longer probe may do. */
  | 'probe_incomplete'
  | 'codec_unsupported'
  | 'option_unsupported'
  | 'output_refused'
  | 'address_in_use'
  | 'hang'
  | 'killed'
  | 'out_of_memory'
  | 'spawn_failed'
  | 'crashed';

export interface Progress {
  frame?: number;
  fps?: number;
  bitrateKbps?: number;
  totalSizeBytes?: number;
  outTimeMs?: number;
  speed?: number;
  dropFrames?: number;
  dupFrames?: number;
  ended: boolean;
}

export interface LogLine {
  /** Milliseconds since the epoch. */
  time: number;
  level: LogLevel;
  text: string;
  /** `ffmpeg` for the process's own lines, `supervisor` for ours. */
  source: 'ffmpeg' | 'supervisor';
}

export type Actor = { kind: 'user'; userId: number; username: string } | { kind: 'timer'; timerId: number; name: string } | { kind: 'engine' };

export type EngineEvent =
  /** A process was started (its pid is its process group): what a crash-safe registry records. */
  | { type: 'spawn'; jobId: string; pid: number; at: number }
  | {
      type: 'state';
      jobId: string;
      state: JobState;
      desired: DesiredState;
      at: number;
      reason?: ExitReason;
      detail?: string;
      /** The process (and process group) alive at this moment, when there is one: `running` always has it, `starting` never (it is entered before the spawn). */
      pid?: number;
    }
  | { type: 'progress'; jobId: string; progress: Progress; at: number }
  | { type: 'log'; jobId: string; line: LogLine }
  | {
      type: 'exit';
      jobId: string;
      reason: ExitReason;
      code: number | null;
      signal: string | null;
      detail: string;
      at: number;
      willRestart: boolean;
      /** It ended while starting and is started again at once, differently (a longer probe): part of the start, not an outage or a restart. */
      startRetry?: true;
    }
  | {
      type: 'stats';
      jobId: string;
      cpuPercent: number;
      rssBytes: number;
      at: number;
      /** Bits per second of the input the job reads now, measured where its bytes pass (engine/stats/job-io.ts); null: not measured. */
      inputBps: number | null;
      /** Every enabled output together; null unless each one is measured. */
      outputBps: number | null;
      /** Each input (0 primary, 1 failover) and each enabled output by index; bps null: not measured. */
      inputs: Array<{ index: number; bps: number | null }>;
      outputs: Array<{ index: number; bps: number | null }>;
    }
  | { type: 'failover'; jobId: string; to: 'primary' | 'failover'; reason: string; at: number }
  /**
   * Statistics of one SRT link of the job, as SRT itself counts them (srt-live-transmit carries the
   * link beside ffmpeg, see engine/srt/srt-bridge.ts). Outputs by their index; inputs: 0 is the
   * primary input, 1 the failover input. Sent about once a second while the link carries data, and
   * when a connection comes or goes.
   */
  | { type: 'srt'; jobId: string; direction: 'input' | 'output'; index: number; stats: SrtStats; at: number };

/**
 * SRT statistics of one link, seen from this end: a sender's counters for an output, a receiver's
 * for an input. Counters are those of the current connection (they start again at 0 when a peer
 * connects again).
 */
export interface SrtStats {
  /** Data packets sent (output) or received (input), retransmissions included. */
  packets: number;
  /** Bytes sent or received, SRT and UDP/IP headers included. */
  bytes: number;
  /** Packets the receiver reported lost (output), or found missing (input). */
  packetsLost: number;
  /** Packets sent again (output), or received again (input). */
  packetsRetransmitted: number;
  /**
   * Bytes of those packets. srt-live-transmit 1.5 prints no byte count for retransmissions, so this
   * is packetsRetransmitted times the link's mean packet size so far.
   */
  bytesRetransmitted: number;
  /** Packets given up because they were too late to be of use (the latency had passed). */
  packetsDropped: number;
  bytesDropped: number;
  /** SRT's estimate of the link's bandwidth. */
  bandwidthMbps: number;
  /** Sending (output) or receiving (input) rate over the last second or so. */
  rateMbps: number;
  /** The latency both ends agreed on (the larger of the two asked for). */
  negotiatedLatencyMs: number;
  /** Smoothed round-trip time. */
  rttMs: number;
  /** Peers connected to this link now: 0 or 1 (an SRT link carries one connection). */
  connections: number;
}
