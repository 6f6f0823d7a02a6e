import { z } from 'zod';
import { Timestamp } from './common.ts';

/** Spec 03 §5 and §9: a preset's name is required, at most 100 characters. */
const name = z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(100, 'Name must be at most 100 characters');

export const BITRATE_MIN = 1;
export const BITRATE_MAX = 999_999;
export const SAMPLE_RATE_MIN = 8000;
export const SAMPLE_RATE_MAX = 192_000;

/** A bitrate in kbit/s, 1 to 999999. */
const bitrate = (label: string) =>
  z
    .number({ error: `${label} is required` })
    .int(`${label} must be a whole number`)
    .min(BITRATE_MIN, `${label} must be between ${BITRATE_MIN} and ${BITRATE_MAX}`)
    .max(BITRATE_MAX, `${label} must be between ${BITRATE_MIN} and ${BITRATE_MAX}`)
    .describe(`${label} in kbit/s, ${BITRATE_MIN} to ${BITRATE_MAX}.`);

/** Spec 03 §5, the Opus hint: 32 to 2048 kbit/s, up to 256 kbit/s per channel. */
export const OPUS = { codec: 'libopus', minKbps: 32, maxKbps: 2048, maxKbpsPerChannel: 256 } as const;
export const OPUS_HINT = 'Opus: 32 to 2048 kbit/s, up to 256 kbit/s per channel.';

export const PresetType = z.enum(['video', 'audio']).meta({ id: 'PresetType', description: 'A video preset or an audio preset.' });

// ---- codec options (GET /api/presets/codecs) ----

export const CodecOptionValue = z
  .object({ value: z.string().describe('What is stored and passed to ffmpeg.'), label: z.string().describe('What the operator reads.') })
  .meta({ id: 'CodecOptionValue', description: 'One choice of a select option.' });

export const CodecOption = z
  .object({
    name: z.string().describe('The ffmpeg option, e.g. preset, crf, bf.'),
    label: z.string(),
    description: z.string().describe('ffmpeg\'s own help text of the option.'),
    type: z.enum(['select', 'range', 'checkbox', 'string']).describe('How the form shows it: a select of values, a number between min and max, a checkbox, or free text.'),
    values: z.array(CodecOptionValue).optional().describe('select: the choices.'),
    min: z.number().optional().describe('range: the smallest value the codec takes.'),
    max: z.number().optional().describe('range: the largest value the codec takes.'),
    step: z.number().optional().describe('range: 1 for whole numbers.'),
    default: z.string().optional().describe('The encoder\'s default, as ffmpeg states it; used when the option is not set.'),
  })
  .meta({ id: 'CodecOption', description: 'An option of a codec an operator may set in a preset, read from the installed ffmpeg.' });

export const VideoCodecInfo = z
  .object({
    name: z.string().describe('The ffmpeg encoder: libx264, libx265, h264_nvenc ...'),
    label: z.string(),
    gpu: z.boolean().describe('A hardware (GPU) encoder: NVENC, Quick Sync or VAAPI.'),
    options: z.array(CodecOption),
  })
  .meta({ id: 'VideoCodecInfo', description: 'A video encoder of the installed ffmpeg, with the options a preset may set.' });

export const AudioCodecInfo = z
  .object({
    name: z.string().describe('The ffmpeg encoder: aac, libopus, libmp3lame, ac3 ...'),
    label: z.string(),
    sampleRates: z.array(z.number().int()).describe('Sample rates the encoder takes (Hz); empty: any.'),
    maxChannels: z.number().int().nullable().describe('The most channels it encodes; null: no stated limit.'),
    minBitrate: z.number().int().describe('kbit/s.'),
    maxBitrate: z.number().int().describe('kbit/s.'),
    maxBitratePerChannel: z.number().int().nullable().describe('kbit/s per channel (Opus: 256); null: none.'),
    hint: z.string().nullable().describe('A note the form shows under the bitrate.'),
    options: z.array(CodecOption),
  })
  .meta({ id: 'AudioCodecInfo', description: 'An audio encoder of the installed ffmpeg.' });

export const PresetCodecs = z
  .object({ video: z.array(VideoCodecInfo), audio: z.array(AudioCodecInfo) })
  .meta({ id: 'PresetCodecs', description: 'The codecs presets may use, as the installed ffmpeg has them.' });

// ---- audio presets ----

export const AudioPresetInput = z
  .object({
    name,
    audioCodec: z.string({ error: 'Audio codec is required' }).trim().min(1, 'Audio codec is required').max(50).describe('An audio codec of GET /api/presets/codecs.'),
    audioBitrate: bitrate('Audio bitrate'),
    channels: z
      .number()
      .int('Channels must be a whole number')
      .min(1, 'Channels must be between 1 and 16')
      .max(16, 'Channels must be between 1 and 16')
      .nullable()
      .default(null)
      .describe('Channels of the output; null keeps those of the source.'),
    sampleRate: z
      .number({ error: 'Sample rate is required' })
      .int('Sample rate must be a whole number')
      .min(SAMPLE_RATE_MIN, `Sample rate must be between ${SAMPLE_RATE_MIN} and ${SAMPLE_RATE_MAX} Hz`)
      .max(SAMPLE_RATE_MAX, `Sample rate must be between ${SAMPLE_RATE_MIN} and ${SAMPLE_RATE_MAX} Hz`)
      .describe('Hz; one the codec takes.'),
  })
  .superRefine((preset, ctx) => {
    if (preset.audioCodec !== OPUS.codec || !Number.isInteger(preset.audioBitrate)) return;
    if (preset.audioBitrate < OPUS.minKbps || preset.audioBitrate > OPUS.maxKbps) {
      ctx.addIssue({ code: 'custom', path: ['audioBitrate'], message: `Opus bitrate must be between ${OPUS.minKbps} and ${OPUS.maxKbps} kbit/s` });
    } else if (preset.channels && preset.audioBitrate > preset.channels * OPUS.maxKbpsPerChannel) {
      ctx.addIssue({
        code: 'custom',
        path: ['audioBitrate'],
        message: `Opus takes up to ${OPUS.maxKbpsPerChannel} kbit/s per channel: at most ${preset.channels * OPUS.maxKbpsPerChannel} kbit/s for ${preset.channels} channel${preset.channels === 1 ? '' : 's'}`,
      });
    }
  })
  .meta({ id: 'AudioPresetInput', description: 'An audio preset as the form saves it.' });

export const AudioPreset = z
  .object({
    id: z.number().int(),
    name: z.string(),
    audioCodec: z.string(),
    audioBitrate: z.number().int().describe('kbit/s.'),
    channels: z.number().int().nullable(),
    sampleRate: z.number().int(),
    usageCount: z.number().int().describe('Jobs whose audio tracks use it, plus video presets that refer to it.'),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'AudioPreset', description: 'Audio settings that video presets and audio tracks of encodings refer to.' });

// ---- video presets ----

/** A codec option's value: a select's value or free text, a range's number, a checkbox's state. */
export const CodecParameterValue = z.union([z.string().max(2048, 'Must be at most 2048 characters'), z.number(), z.boolean()]);

export const VideoPresetInput = z
  .object({
    name,
    videoCodec: z.string({ error: 'Video codec is required' }).trim().min(1, 'Video codec is required').max(50).describe('A video codec of GET /api/presets/codecs.'),
    gpu: z.boolean().optional().describe('Whether the codec is a GPU encoder; it follows from the codec (a mismatch is refused).'),
    videoBitrate: bitrate('Video bitrate'),
    audioPreset: z.number({ error: 'Audio preset is required' }).int('Audio preset is required').positive('Audio preset is required').describe('The id of an audio preset.'),
    advancedOption: z.boolean().default(false).describe('Advanced options: on, the codec options below apply; off, the encoder\'s defaults (no option is stored).'),
    videoCodecParameters: z
      .record(z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, 'Not an option name'), CodecParameterValue)
      .default({})
      .describe('Codec options by name (see GET /api/presets/codecs): a select\'s value, a number in a range, true/false for a checkbox, or text.'),
  })
  .meta({ id: 'VideoPresetInput', description: 'A video preset as the form saves it.' });

export const VideoPreset = z
  .object({
    id: z.number().int(),
    name: z.string(),
    videoCodec: z.string(),
    gpu: z.boolean(),
    videoBitrate: z.number().int().describe('kbit/s.'),
    audioPreset: z.number().int().describe('The id of its audio preset.'),
    audioPresetName: z.string(),
    advancedOption: z.boolean(),
    videoCodecParameters: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
    usageCount: z.number().int().describe('Jobs (encodings and their templates) that use it.'),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'VideoPreset', description: 'How an encoding encodes its video, and the audio preset it uses by default.' });

export const PresetListQuery = z.object({
  search: z.string().max(200).optional().describe('Case-insensitive match on the name, or an exact ID.'),
});

export const CloneQuery = z.object({
  name: z.string().trim().min(1, 'Name is required').max(100, 'Name must be at most 100 characters').optional().describe('Name of the copy; default "<name> (copy)".'),
});

export const VideoPresetList = z.object({ items: z.array(VideoPreset), total: z.number().int() }).meta({ id: 'VideoPresetList', description: 'Every video preset, sorted by name.' });
export const AudioPresetList = z.object({ items: z.array(AudioPreset), total: z.number().int() }).meta({ id: 'AudioPresetList', description: 'Every audio preset, sorted by name.' });

const isWhole = (n: number) => Number.isInteger(n);
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/**
 * The issues of a preset's codec options against the options of its codec (paths
 * `videoCodecParameters.<name>`): the API's rule, which the console's form applies as well.
 */
export function checkCodecParameters(codec: Pick<VideoCodecInfoDto, 'name' | 'options'>, parameters: Record<string, string | number | boolean>): Array<{ path: string; message: string }> {
  const issues: Array<{ path: string; message: string }> = [];
  const byName = new Map(codec.options.map((o) => [o.name, o]));
  for (const [name, value] of Object.entries(parameters)) {
    const path = `videoCodecParameters.${name}`;
    const option = byName.get(name);
    const fail = (message: string) => issues.push({ path, message });
    if (!option) {
      fail(`${name} is not an option of ${codec.name}`);
      continue;
    }
    switch (option.type) {
      case 'select': {
        const allowed = (option.values ?? []).map((v) => v.value);
        if (typeof value !== 'string' || !allowed.includes(value)) fail(`${option.label} must be one of: ${allowed.join(', ')}`);
        break;
      }
      case 'range': {
        const min = option.min ?? -Number.MAX_VALUE;
        const max = option.max ?? Number.MAX_VALUE;
        if (typeof value !== 'number' || !Number.isFinite(value)) fail(`${option.label} must be a number between ${min} and ${max}`);
        else if (option.step === 1 && !isWhole(value)) fail(`${option.label} must be a whole number`);
        else if (value < min || value > max) fail(`${option.label} must be between ${min} and ${max}`);
        break;
      }
      case 'checkbox':
        if (typeof value !== 'boolean') fail(`${option.label} must be true or false`);
        break;
      case 'string':
        if (typeof value !== 'string') fail(`${option.label} must be text`);
        else if (CONTROL_CHARACTERS.test(value)) fail(`${option.label} must be one line of text`);
        break;
    }
  }
  return issues;
}

/** "<name> (copy)", within the 100 characters a name may have. */
export function copyName(name: string): string {
  const suffix = ' (copy)';
  return `${name.slice(0, 100 - suffix.length)}${suffix}`;
}

export type CodecOptionDto = z.infer<typeof CodecOption>;
export type VideoCodecInfoDto = z.infer<typeof VideoCodecInfo>;
export type AudioCodecInfoDto = z.infer<typeof AudioCodecInfo>;
export type PresetCodecsDto = z.infer<typeof PresetCodecs>;
export type AudioPresetDto = z.infer<typeof AudioPreset>;
export type VideoPresetDto = z.infer<typeof VideoPreset>;
export type AudioPresetInputValue = z.infer<typeof AudioPresetInput>;
export type VideoPresetInputValue = z.infer<typeof VideoPresetInput>;
