import { execa } from 'execa';
import { parseEncoderHelp, parseEncoderList, type EncoderOption } from '../../engine/probe/encoder-help.ts';
import { BITRATE_MAX, BITRATE_MIN, SAMPLE_RATE_MAX, SAMPLE_RATE_MIN, type AudioCodecInfoDto, type CodecOptionDto, type PresetCodecsDto, type VideoCodecInfoDto } from '../../openapi/schemas/presets.ts';
import { CURATED_AUDIO_CODECS, CURATED_VIDEO_CODECS, type CuratedOption } from './codec-curation.ts';

const INTEGER_TYPES = new Set(['int', 'int64', 'uint64']);
const NUMBER_TYPES = new Set([...INTEGER_TYPES, 'float', 'double']);

/** The named values of an option, each value once (ffmpeg lists aliases: level 1 and 1.0 are both 10). */
function distinctConstants(option: EncoderOption) {
  const seen = new Set<string>();
  return option.constants.filter((c) => {
    if (c.value === undefined || seen.has(c.value)) return false;
    seen.add(c.value);
    return true;
  });
}

/**
 * One option as the form shows it, from the curated entry and what the installed ffmpeg says of
 * it: a boolean is a checkbox; named values (ffmpeg's or the curated ones) a select; a number a
 * range within the narrower of ffmpeg's and the codec's limits; text a string. Undefined when the
 * installed ffmpeg lacks the option, or it is of a kind no form can hold (flags, rationals ...).
 */
export function codecOptionOf(curated: CuratedOption, parsed: EncoderOption | undefined): CodecOptionDto | undefined {
  const option: EncoderOption | undefined = curated.generic
    ? { name: curated.name, type: curated.generic.type, help: curated.generic.help, default: curated.generic.default, constants: [] }
    : parsed;
  if (!option) return undefined;
  const base = {
    name: curated.name,
    label: curated.label,
    description: option.help,
    ...(option.default !== undefined ? { default: option.default } : {}),
  };
  if (option.type === 'boolean') return { ...base, type: 'checkbox' };
  if (curated.values) return { ...base, type: 'select', values: curated.values.map((value) => ({ value, label: value })) };
  // Two or more named values make a choice; a lone one is a special value of a range (idr_interval's begin_only = -1).
  const constants = distinctConstants(option);
  if (constants.length > 1 && NUMBER_TYPES.has(option.type)) {
    return { ...base, type: 'select', values: constants.map((c) => ({ value: c.name, label: c.help ? `${c.name} (${c.help})` : c.name })) };
  }
  if (NUMBER_TYPES.has(option.type)) {
    const min = Math.max(option.min ?? -Number.MAX_VALUE, curated.min ?? -Number.MAX_VALUE);
    const max = Math.min(option.max ?? Number.MAX_VALUE, curated.max ?? Number.MAX_VALUE);
    const integer = INTEGER_TYPES.has(option.type);
    return { ...base, type: 'range', min, max, step: curated.step ?? (integer ? 1 : 0.1) };
  }
  if (option.type === 'string' || option.type === 'dictionary') return { ...base, type: 'string' };
  return undefined;
}

export type RunFfmpeg = (args: string[]) => Promise<string>;

/** ffmpeg's stdout for these arguments (no shell); a missing ffmpeg rejects. */
export async function runFfmpeg(args: string[]): Promise<string> {
  const result = await execa('ffmpeg', args, { timeout: 15_000, reject: false, stdin: 'ignore' });
  if (result.exitCode === undefined) throw new Error(`ffmpeg did not run: ${result.shortMessage ?? 'unknown error'}`);
  return String(result.stdout);
}

function curatedOptions(curated: readonly CuratedOption[], parsed: readonly EncoderOption[]): CodecOptionDto[] {
  const byName = new Map(parsed.map((o) => [o.name, o]));
  return curated.map((c) => codecOptionOf(c, byName.get(c.name))).filter((o): o is CodecOptionDto => o !== undefined);
}

/**
 * The codecs presets may use, read once per process from the installed ffmpeg (`-encoders`, then
 * `-h encoder=<name>` for each curated codec it has). Without a working ffmpeg there are none, and
 * that answer is not kept: the next call asks again.
 */
export class CodecCatalog {
  private loaded?: Promise<PresetCodecsDto>;

  constructor(
    private readonly run: RunFfmpeg = runFfmpeg,
    private readonly log: (line: string) => void = () => {},
  ) {}

  codecs(): Promise<PresetCodecsDto> {
    if (!this.loaded) {
      const loading: Promise<PresetCodecsDto> = this.load().catch((error: unknown) => {
        if (this.loaded === loading) this.loaded = undefined;
        this.log(`codec catalog: cannot read the installed ffmpeg: ${(error as Error).message}`);
        return { video: [], audio: [] };
      });
      this.loaded = loading;
    }
    return this.loaded;
  }

  async videoCodec(name: string): Promise<VideoCodecInfoDto | undefined> {
    return (await this.codecs()).video.find((c) => c.name === name);
  }

  async audioCodec(name: string): Promise<AudioCodecInfoDto | undefined> {
    return (await this.codecs()).audio.find((c) => c.name === name);
  }

  private async load(): Promise<PresetCodecsDto> {
    const installed = new Set(parseEncoderList(await this.run(['-hide_banner', '-encoders'])).map((e) => e.name));
    const helpOf = async (name: string) => parseEncoderHelp(await this.run(['-hide_banner', '-h', `encoder=${name}`]));
    const video = await Promise.all(
      CURATED_VIDEO_CODECS.filter((c) => installed.has(c.name)).map(async (c): Promise<VideoCodecInfoDto> => {
        const help = await helpOf(c.name);
        return { name: c.name, label: c.label, gpu: c.gpu, options: curatedOptions(c.options, help?.options ?? []) };
      }),
    );
    const audio = await Promise.all(
      CURATED_AUDIO_CODECS.filter((c) => installed.has(c.name)).map(async (c): Promise<AudioCodecInfoDto> => {
        const help = await helpOf(c.name);
        return {
          name: c.name,
          label: c.label,
          sampleRates: (help?.sampleRates ?? []).filter((rate) => rate >= SAMPLE_RATE_MIN && rate <= SAMPLE_RATE_MAX).sort((a, b) => b - a),
          maxChannels: help?.maxChannels ?? c.maxChannels ?? null,
          minBitrate: c.minBitrate ?? BITRATE_MIN,
          maxBitrate: c.maxBitrate ?? BITRATE_MAX,
          maxBitratePerChannel: c.maxBitratePerChannel ?? null,
          hint: c.hint ?? null,
          options: curatedOptions(c.options, help?.options ?? []),
        };
      }),
    );
    return { video, audio };
  }
}
