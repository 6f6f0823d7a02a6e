import type { DeinterlaceMethod, VideoEncodeSpec } from '../../types.ts';
import { assertBitrateKbps, assertIntegerRange, assertName, assertNumberRange, assertPlainText, fail } from '../validate.ts';

const PARITY = { AUTO: 'auto', TOP: 'tff', BOTTOM: 'bff' } as const;

/**
 * Deinterlacers, all producing one frame per frame (the frame rate stays the same):
 * YADIF_FFMPEG → yadif on every frame, YADIF_ADAPTIVE_FFMPEG → yadif only on frames flagged
 * interlaced, BWDIF_FFMPEG → bwdif, W3FDIF_FFMPEG → w3fdif. The field picks the parity.
 */
export function deinterlaceFilter(deinterlace: NonNullable<VideoEncodeSpec['deinterlace']>): string {
  const parity = PARITY[deinterlace.field ?? 'AUTO'];
  if (!parity) fail(`Unknown deinterlace field "${String(deinterlace.field)}"`);
  const filters: Record<DeinterlaceMethod, string> = {
    YADIF_FFMPEG: `yadif=mode=send_frame:parity=${parity}:deint=all`,
    YADIF_ADAPTIVE_FFMPEG: `yadif=mode=send_frame:parity=${parity}:deint=interlaced`,
    BWDIF_FFMPEG: `bwdif=mode=send_frame:parity=${parity}:deint=all`,
    W3FDIF_FFMPEG: `w3fdif=mode=frame:parity=${parity}:deint=all`,
  };
  const filter = filters[deinterlace.method];
  if (!filter) fail(`Unknown deinterlace method "${String(deinterlace.method)}"`);
  return filter;
}

/** "16:9" or "4/3" → "16/9" for setdar. */
export function aspectRatioValue(aspectRatio: string): string {
  const match = /^\s*(\d{1,5})\s*[:/]\s*(\d{1,5})\s*$/.exec(aspectRatio);
  if (!match || Number(match[1]) === 0 || Number(match[2]) === 0) fail(`Aspect ratio "${aspectRatio}" is not of the form 16:9`);
  return `${Number(match[1])}/${Number(match[2])}`;
}

export function frameRateValue(frameRate: number): string {
  assertNumberRange(frameRate, 1, 240, 'Frame rate');
  // NTSC rates as exact fractions.
  const ntsc: Record<string, string> = { '23.976': '24000/1001', '29.97': '30000/1001', '59.94': '60000/1001' };
  return ntsc[String(frameRate)] ?? String(frameRate);
}

/** scale=W:H with -2 (keep the aspect, even size) for a side that is not set; undefined when neither is. */
export function scaleFilter(width: number | undefined, height: number | undefined): string | undefined {
  const w = width ? assertIntegerRange(width, 2, 8192, 'Width') : 0;
  const h = height ? assertIntegerRange(height, 2, 8192, 'Height') : 0;
  if (!w && !h) return undefined;
  return `scale=${w || -2}:${h || -2}`;
}

/** The pixel format (and upload) an encoder family takes frames in. */
export function pixelFormatFilter(codec: string, params: VideoEncodeSpec['params']): string | undefined {
  if (params && ('pix_fmt' in params || 'pix_fmt:v' in params)) return undefined;
  if (codec.endsWith('_vaapi')) return 'format=nv12,hwupload';
  if (codec.endsWith('_qsv')) return 'format=nv12';
  return 'format=yuv420p';
}

/** Global options a hardware encoder needs before the inputs. */
export function hardwareDeviceArgs(codec: string): string[] {
  // VAAPI frames are uploaded by the hwupload filter to this device (the first render node).
  if (codec.endsWith('_vaapi')) return ['-vaapi_device', '/dev/dri/renderD128'];
  return [];
}

/** Options a preset may not set: they would change inputs, outputs, maps or filters instead of the encoder. */
const FORBIDDEN_PARAMS = new Set([
  'i', 'f', 'y', 'n', 'map', 'map_metadata', 'map_chapters', 'filter_complex', 'filter_complex_script', 'lavfi', 'filter', 'filter_script',
  'vf', 'af', 'progress', 'stats', 'attach', 'dump_attachment', 'c', 'codec', 'vcodec', 'acodec', 'scodec', 'vn', 'an', 'sn', 'dn',
  'init_hw_device', 'filter_hw_device', 'hwaccel', 'hwaccel_device', 'vaapi_device', 'loglevel', 'v', 'report', 'fs', 't', 'to', 'ss',
  'passlogfile', 'stats_file', 'x264opts_file',
]);

function paramValue(value: string | number | boolean, name: string): string {
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) fail(`Preset option "${name}" is not a number`);
    return String(value);
  }
  return assertPlainText(value, `Preset option "${name}"`, 2048);
}

/**
 * The preset's codec options, each as `-name value`, scoped to video streams (`:v`) unless the
 * name carries its own stream specifier. Options for x265 given as `x265-params` are merged with
 * `extraX265Params`.
 */
export function presetParamArgs(params: VideoEncodeSpec['params'], extraX265Params: string[] = []): string[] {
  const args: string[] = [];
  let x265Params = [...extraX265Params];
  for (const [name, value] of Object.entries(params ?? {})) {
    assertName(name, 'Preset option');
    const base = name.split(':')[0];
    if (FORBIDDEN_PARAMS.has(base)) fail(`Preset option "${name}" is not a codec option and cannot be set by a preset`);
    if (base === 'x265-params') {
      x265Params = [...paramValue(value, name).split(':').filter(Boolean), ...x265Params];
      continue;
    }
    args.push(`-${name.includes(':') ? name : `${name}:v`}`, paramValue(value, name));
  }
  if (x265Params.length) args.push('-x265-params:v', x265Params.join(':'));
  return args;
}

/**
 * Encoder, rate control and GOP of one video output stream (`index` undefined: every video stream).
 * `maxrate` = the bitrate and `bufsize` = two seconds of it: a constrained rate that suits
 * streaming. With a keyInt the GOP is fixed (keyint_min = keyInt, scene cuts off) so segments of
 * every ABR profile line up.
 */
export function videoEncoderArgs(video: VideoEncodeSpec, bitrateKbps: number, index?: number): string[] {
  const codec = assertName(video.codec, 'Video codec');
  const kbps = assertBitrateKbps(bitrateKbps, 'Video bitrate');
  const s = index === undefined ? ':v' : `:v:${index}`;
  return [`-c${s}`, codec, `-b${s}`, `${kbps}k`, `-maxrate${s}`, `${kbps}k`, `-bufsize${s}`, `${kbps * 2}k`];
}

/** GOP options for every video stream; `segmentSeconds` forces keyframes at segment starts when there is no keyInt. */
export function gopArgs(video: VideoEncodeSpec, segmentSeconds: number | undefined): { args: string[]; x265Params: string[] } {
  if (video.keyInt !== undefined) {
    const keyInt = assertIntegerRange(video.keyInt, 1, 10_000, 'Key interval (keyInt)');
    return {
      args: ['-g:v', String(keyInt), '-keyint_min:v', String(keyInt), '-sc_threshold:v', '0'],
      // libx265 ignores sc_threshold: scene cuts are turned off in its own parameters.
      x265Params: video.codec === 'libx265' ? ['scenecut=0'] : [],
    };
  }
  if (segmentSeconds !== undefined) return { args: ['-force_key_frames:v', `expr:gte(t,n_forced*${segmentSeconds})`], x265Params: [] };
  return { args: [], x265Params: [] };
}

/**
 * The filters every rendition shares, in order: deinterlace, frame rate. Scaling, aspect and the
 * pixel format follow per rendition (`renditionFilters`).
 */
export function sharedVideoFilters(video: VideoEncodeSpec): string[] {
  const filters: string[] = [];
  if (video.deinterlace) filters.push(deinterlaceFilter(video.deinterlace));
  if (video.frameRate !== undefined) filters.push(`fps=${frameRateValue(video.frameRate)}`);
  return filters;
}

export function renditionFilters(video: VideoEncodeSpec, width: number | undefined, height: number | undefined): string[] {
  const filters: string[] = [];
  const scale = scaleFilter(width, height);
  if (scale) filters.push(scale);
  if (video.aspectRatio) filters.push(`setdar=${aspectRatioValue(video.aspectRatio)}`);
  return filters;
}

/** Closed captions (A/53) are passed from the decoded frames into the encoded video by these encoders. */
export function closedCaptionArgs(codec: string): string[] {
  // libx264, nvenc and qsv H.264 write A/53 captions from the frames' side data (on by default;
  // set explicitly). ffmpeg 5.1's libx265, HEVC qsv and vaapi encoders cannot: captions are lost there.
  if (['libx264', 'h264_nvenc', 'hevc_nvenc', 'h264_qsv'].includes(codec)) return ['-a53cc:v', '1'];
  return [];
}
