import { checkCodecParameters } from '../../../../openapi/schemas/presets.ts';
import type { FieldErrors } from '../../components/form/useZodForm.ts';
import type { Schemas } from '../../data/client.ts';

export type PresetType = 'video' | 'audio';
type CodecOption = Schemas['CodecOption'];

/** A video preset as its inputs hold it: numbers as typed, each codec option as its input holds it. */
export interface VideoPresetValues extends Record<string, unknown> {
  name: string;
  gpu: boolean;
  videoCodec: string;
  videoBitrate: string;
  audioPreset: string;
  advancedOption: boolean;
  /** select and string: the text; range: the number as typed; checkbox: true/false. Absent: the encoder's default. */
  parameters: Record<string, string | boolean>;
}

export interface AudioPresetValues extends Record<string, unknown> {
  name: string;
  audioCodec: string;
  audioBitrate: string;
  /** '' keeps the source's channels. */
  channels: string;
  sampleRate: string;
}

/** '' and anything not a number fail the schema's "is required" / "must be a whole number". */
const numberOf = (text: string) => (text.trim() === '' ? undefined : Number(text));

export function newVideoValues(): VideoPresetValues {
  return { name: '', gpu: false, videoCodec: 'libx264', videoBitrate: '', audioPreset: '', advancedOption: false, parameters: {} };
}

export function newAudioValues(): AudioPresetValues {
  return { name: '', audioCodec: 'aac', audioBitrate: '128', channels: '2', sampleRate: '48000' };
}

export function videoValuesOf(preset: Schemas['VideoPreset'], name = preset.name): VideoPresetValues {
  const parameters: Record<string, string | boolean> = {};
  for (const [key, value] of Object.entries(preset.videoCodecParameters)) parameters[key] = typeof value === 'boolean' ? value : String(value);
  return {
    name,
    gpu: preset.gpu,
    videoCodec: preset.videoCodec,
    videoBitrate: String(preset.videoBitrate),
    audioPreset: String(preset.audioPreset),
    advancedOption: preset.advancedOption,
    parameters,
  };
}

export function audioValuesOf(preset: Schemas['AudioPreset'], name = preset.name): AudioPresetValues {
  return { name, audioCodec: preset.audioCodec, audioBitrate: String(preset.audioBitrate), channels: preset.channels === null ? '' : String(preset.channels), sampleRate: String(preset.sampleRate) };
}

/** The options' values as the API takes them: numbers for ranges, the rest as held; unset ones left out. */
export function parametersPayload(parameters: VideoPresetValues['parameters'], options: readonly CodecOption[] | undefined): Record<string, string | number | boolean> {
  const byName = new Map((options ?? []).map((o) => [o.name, o]));
  const out: Record<string, string | number | boolean> = {};
  for (const [name, value] of Object.entries(parameters)) {
    if (value === '') continue;
    out[name] = byName.get(name)?.type === 'range' && typeof value === 'string' ? Number(value) : value;
  }
  return out;
}

export function videoPayload(values: VideoPresetValues, options?: readonly CodecOption[]) {
  return {
    name: values.name,
    gpu: values.gpu,
    videoCodec: values.videoCodec,
    videoBitrate: numberOf(values.videoBitrate),
    audioPreset: numberOf(values.audioPreset),
    advancedOption: values.advancedOption,
    videoCodecParameters: values.advancedOption ? parametersPayload(values.parameters, options) : {},
  };
}

export function audioPayload(values: AudioPresetValues) {
  return {
    name: values.name,
    audioCodec: values.audioCodec,
    audioBitrate: numberOf(values.audioBitrate),
    channels: values.channels === '' ? null : Number(values.channels),
    sampleRate: numberOf(values.sampleRate),
  };
}

/** The server's codec rules, checked as the operator types: options against the codec's, GPU against the codec. */
export function refineVideo(values: VideoPresetValues, codec: Schemas['VideoCodecInfo'] | undefined): FieldErrors {
  if (!codec) return values.videoCodec ? { videoCodec: `Video codec ${values.videoCodec} is not available in the installed ffmpeg` } : {};
  const errors: FieldErrors = {};
  if (values.advancedOption) for (const issue of checkCodecParameters(codec, parametersPayload(values.parameters, codec.options))) errors[issue.path] ??= issue.message;
  return errors;
}

export function refineAudio(values: AudioPresetValues, codec: Schemas['AudioCodecInfo'] | undefined): FieldErrors {
  if (!codec) return values.audioCodec ? { audioCodec: `Audio codec ${values.audioCodec} is not available in the installed ffmpeg` } : {};
  const errors: FieldErrors = {};
  const rate = Number(values.sampleRate);
  if (values.sampleRate && codec.sampleRates.length && !codec.sampleRates.includes(rate)) errors.sampleRate = `Sample rate must be one of ${codec.sampleRates.join(', ')} Hz for ${codec.name}`;
  if (values.channels && codec.maxChannels !== null && Number(values.channels) > codec.maxChannels) errors.channels = `${codec.name} encodes at most ${codec.maxChannels} channels`;
  return errors;
}

/** Channel choices: as the source, then the common layouts the codec takes. */
export const CHANNEL_CHOICES = [
  { value: '1', label: '1 (mono)' },
  { value: '2', label: '2 (stereo)' },
  { value: '6', label: '6 (5.1)' },
  { value: '8', label: '8 (7.1)' },
] as const;

/** Sample rates when the codec names none. */
export const COMMON_SAMPLE_RATES = [48000, 44100, 32000, 24000, 22050, 16000, 11025, 8000];

export const editPath = (type: PresetType, id?: number) => `/my/presets/edit/${type}${id === undefined ? '' : `/${id}`}`;
