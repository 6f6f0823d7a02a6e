/**
 * Which codecs a preset may use and which of their options an operator sees. ffmpeg knows
 * hundreds of options; these are the ones an encoding engineer tunes (preset, tune, profile,
 * level, rate control and quality, GOP and B-frames, AQ, lookahead). Types, limits, defaults and
 * named values come from the installed ffmpeg (codec-catalog.ts); what is given here narrows them
 * to the codec's real limits (ffmpeg states crf as -1 to FLT_MAX, x264 takes 0 to 51) or names the
 * values of a string option that ffmpeg does not list (x264's presets).
 */

export interface CuratedOption {
  name: string;
  label: string;
  /** The values of a string option whose choices ffmpeg does not list. */
  values?: readonly string[];
  /** Narrower limits than ffmpeg states: the codec's own. */
  min?: number;
  max?: number;
  step?: number;
  /**
   * An option of every encoder (bf, refs, g ...): `ffmpeg -h encoder=` does not list it, so its
   * type, help and default are given here.
   */
  generic?: { type: 'int' | 'float' | 'boolean' | 'string'; help: string; default?: string };
}

export interface CuratedVideoCodec {
  name: string;
  label: string;
  gpu: boolean;
  options: readonly CuratedOption[];
}

export interface CuratedAudioCodec {
  name: string;
  label: string;
  /** When ffmpeg lists no channel layouts. */
  maxChannels?: number;
  minBitrate?: number;
  maxBitrate?: number;
  maxBitratePerChannel?: number;
  hint?: string;
  options: readonly CuratedOption[];
}

const X26X_PRESETS = ['ultrafast', 'superfast', 'veryfast', 'faster', 'fast', 'medium', 'slow', 'slower', 'veryslow', 'placebo'] as const;
const H264_LEVELS = ['1', '1b', '1.1', '1.2', '1.3', '2', '2.1', '2.2', '3', '3.1', '3.2', '4', '4.1', '4.2', '5', '5.1', '5.2', '6', '6.1', '6.2'] as const;

const gop = (max = 10_000): CuratedOption => ({ name: 'g', label: 'GOP size (g)', min: 1, max, step: 1, generic: { type: 'int', help: 'Frames between two keyframes (overrides the encoding\'s key interval)' } });
const bframes = (max: number): CuratedOption => ({ name: 'bf', label: 'B-frames (bf)', min: 0, max, step: 1, generic: { type: 'int', help: 'Most consecutive B-frames' } });
const refs = (min: number, max: number): CuratedOption => ({ name: 'refs', label: 'Reference frames (refs)', min, max, step: 1, generic: { type: 'int', help: 'Reference frames a P-frame may use' } });
const keyintMin: CuratedOption = { name: 'keyint_min', label: 'Minimum GOP size (keyint_min)', min: 1, max: 10_000, step: 1, generic: { type: 'int', help: 'Fewest frames between two keyframes' } };

const x264Options: readonly CuratedOption[] = [
  { name: 'preset', label: 'Preset', values: X26X_PRESETS },
  { name: 'tune', label: 'Tune', values: ['film', 'animation', 'grain', 'stillimage', 'fastdecode', 'zerolatency', 'psnr', 'ssim'] },
  { name: 'profile', label: 'Profile', values: ['baseline', 'main', 'high', 'high10', 'high422', 'high444'] },
  { name: 'level', label: 'Level', values: H264_LEVELS },
  { name: 'crf', label: 'Constant rate factor (crf)', min: 0, max: 51, step: 0.5 },
  { name: 'qp', label: 'Constant quantizer (qp)', min: 0, max: 69 },
  gop(),
  keyintMin,
  bframes(16),
  refs(1, 16),
  { name: 'sc_threshold', label: 'Scene change threshold', min: 0, max: 100 },
  { name: 'rc-lookahead', label: 'Rate control lookahead', min: 0, max: 250 },
  { name: 'aq-mode', label: 'AQ mode' },
  { name: 'aq-strength', label: 'AQ strength', min: 0, max: 3, step: 0.1 },
  { name: 'b-pyramid', label: 'B-pyramid' },
  { name: 'weightp', label: 'Weighted P-prediction' },
  { name: 'nal-hrd', label: 'NAL HRD signalling' },
  { name: 'forced-idr', label: 'Forced keyframes as IDR' },
  { name: 'intra-refresh', label: 'Periodic intra refresh' },
  { name: 'x264-params', label: 'x264 parameters' },
];

const x265Options: readonly CuratedOption[] = [
  { name: 'preset', label: 'Preset', values: X26X_PRESETS },
  { name: 'tune', label: 'Tune', values: ['psnr', 'ssim', 'grain', 'zerolatency', 'fastdecode', 'animation'] },
  { name: 'profile', label: 'Profile', values: ['main', 'main10', 'main12', 'mainstillpicture', 'main422-10', 'main422-12', 'main444-8', 'main444-10', 'main444-12'] },
  { name: 'crf', label: 'Constant rate factor (crf)', min: 0, max: 51, step: 0.5 },
  { name: 'qp', label: 'Constant quantizer (qp)', min: 0, max: 51 },
  gop(),
  keyintMin,
  bframes(16),
  refs(1, 16),
  { name: 'forced-idr', label: 'Forced keyframes as IDR' },
  { name: 'x265-params', label: 'x265 parameters' },
];

const nvencOptions: readonly CuratedOption[] = [
  { name: 'preset', label: 'Preset' },
  { name: 'tune', label: 'Tune' },
  { name: 'profile', label: 'Profile' },
  { name: 'level', label: 'Level' },
  { name: 'tier', label: 'Tier' },
  { name: 'rc', label: 'Rate control' },
  { name: 'cq', label: 'Constant quality (cq)' },
  { name: 'qp', label: 'Constant quantizer (qp)', min: 0 },
  gop(),
  bframes(4),
  refs(0, 16),
  { name: 'rc-lookahead', label: 'Rate control lookahead', max: 32 },
  { name: 'spatial-aq', label: 'Spatial AQ' },
  { name: 'temporal-aq', label: 'Temporal AQ' },
  { name: 'aq-strength', label: 'AQ strength' },
  { name: 'zerolatency', label: 'Zero latency' },
  { name: 'no-scenecut', label: 'No scene cut keyframes' },
  { name: 'strict_gop', label: 'Strict GOP' },
  { name: 'b_ref_mode', label: 'B-frames as references' },
  { name: 'multipass', label: 'Multipass' },
  { name: 'forced-idr', label: 'Forced keyframes as IDR' },
];

const qsvOptions: readonly CuratedOption[] = [
  { name: 'preset', label: 'Preset' },
  { name: 'profile', label: 'Profile' },
  gop(),
  bframes(16),
  refs(0, 16),
  { name: 'look_ahead', label: 'Lookahead' },
  { name: 'look_ahead_depth', label: 'Lookahead depth' },
  { name: 'idr_interval', label: 'IDR interval', max: 1000 },
  { name: 'low_power', label: 'Low power mode' },
  { name: 'forced_idr', label: 'Forced keyframes as IDR' },
];

const vaapiOptions: readonly CuratedOption[] = [
  { name: 'rc_mode', label: 'Rate control' },
  { name: 'qp', label: 'Constant quantizer (qp)' },
  { name: 'quality', label: 'Quality (speed trade-off)', min: -1, max: 8 },
  { name: 'profile', label: 'Profile' },
  { name: 'level', label: 'Level' },
  { name: 'tier', label: 'Tier' },
  { name: 'coder', label: 'Entropy coder' },
  gop(),
  bframes(16),
  refs(0, 16),
  { name: 'idr_interval', label: 'IDR interval', max: 1000 },
  { name: 'low_power', label: 'Low power mode' },
];

/** Every video codec a preset may use, in the order the form offers them; kept when the installed ffmpeg has it. */
export const CURATED_VIDEO_CODECS: readonly CuratedVideoCodec[] = [
  { name: 'libx264', label: 'H.264 (libx264)', gpu: false, options: x264Options },
  { name: 'libx265', label: 'H.265/HEVC (libx265)', gpu: false, options: x265Options },
  { name: 'h264_nvenc', label: 'H.264 NVIDIA NVENC (h264_nvenc)', gpu: true, options: nvencOptions },
  { name: 'hevc_nvenc', label: 'H.265/HEVC NVIDIA NVENC (hevc_nvenc)', gpu: true, options: nvencOptions },
  { name: 'h264_qsv', label: 'H.264 Intel Quick Sync (h264_qsv)', gpu: true, options: qsvOptions },
  { name: 'hevc_qsv', label: 'H.265/HEVC Intel Quick Sync (hevc_qsv)', gpu: true, options: qsvOptions },
  { name: 'h264_vaapi', label: 'H.264 VAAPI (h264_vaapi)', gpu: true, options: vaapiOptions },
  { name: 'hevc_vaapi', label: 'H.265/HEVC VAAPI (hevc_vaapi)', gpu: true, options: vaapiOptions },
];

/** Every audio codec a preset may use; kept when the installed ffmpeg has it. */
export const CURATED_AUDIO_CODECS: readonly CuratedAudioCodec[] = [
  { name: 'aac', label: 'AAC (aac)', maxChannels: 8, options: [{ name: 'aac_coder', label: 'Coder' }] },
  { name: 'libfdk_aac', label: 'AAC Fraunhofer FDK (libfdk_aac)', maxChannels: 8, options: [{ name: 'profile', label: 'Profile' }, { name: 'afterburner', label: 'Afterburner' }] },
  {
    name: 'libopus',
    label: 'Opus (libopus)',
    maxChannels: 8,
    minBitrate: 32,
    maxBitrate: 2048,
    maxBitratePerChannel: 256,
    hint: 'Opus: 32 to 2048 kbit/s, up to 256 kbit/s per channel.',
    options: [
      { name: 'application', label: 'Application' },
      { name: 'vbr', label: 'Variable bitrate' },
      { name: 'frame_duration', label: 'Frame duration (ms)' },
      { name: 'packet_loss', label: 'Expected packet loss (%)' },
      { name: 'fec', label: 'In-band FEC' },
    ],
  },
  { name: 'libmp3lame', label: 'MP3 (libmp3lame)', maxChannels: 2, options: [{ name: 'joint_stereo', label: 'Joint stereo' }, { name: 'abr', label: 'Average bitrate' }] },
  { name: 'ac3', label: 'AC-3 (ac3)', maxChannels: 6, options: [{ name: 'dialnorm', label: 'Dialogue level (dB)' }, { name: 'room_type', label: 'Room type' }] },
  { name: 'eac3', label: 'E-AC-3 (eac3)', maxChannels: 6, options: [{ name: 'dialnorm', label: 'Dialogue level (dB)' }] },
  { name: 'mp2', label: 'MP2 (mp2)', maxChannels: 2, options: [] },
];
