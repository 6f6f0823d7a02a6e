import { checkCodecParameters, copyName, type AudioPresetDto, type AudioPresetInputValue, type PresetCodecsDto, type VideoPresetDto, type VideoPresetInputValue } from '../../openapi/schemas/presets.ts';
import { ConflictError, NotFoundError, ValidationError, type FieldIssue } from '../errors.ts';
import type { Db } from '../db/database.ts';
import type { EventBus } from '../events/event-bus.ts';
import { PresetsRepository, isPresetInUseError, type AudioPresetListRow, type NewAudioPreset, type NewVideoPreset, type VideoPresetListRow } from '../repositories/presets.repository.ts';
import { CodecCatalog } from './codec-catalog.ts';

type PresetKind = 'video' | 'audio';

export function videoPresetToDto(row: VideoPresetListRow): VideoPresetDto {
  return {
    id: row.id,
    name: row.name,
    videoCodec: row.video_codec,
    gpu: row.gpu,
    videoBitrate: row.video_bitrate,
    audioPreset: row.audio_preset_id,
    audioPresetName: row.audio_preset_name,
    advancedOption: row.advanced_option === 'true',
    videoCodecParameters: row.video_codec_parameters ?? {},
    usageCount: row.job_count,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function audioPresetToDto(row: AudioPresetListRow): AudioPresetDto {
  return {
    id: row.id,
    name: row.name,
    audioCodec: row.audio_codec,
    audioBitrate: row.audio_bitrate,
    channels: row.channels,
    sampleRate: row.sample_rate,
    usageCount: row.job_count + row.video_preset_count,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function refuse(issues: FieldIssue[]): void {
  if (!issues.length) return;
  const details = issues.map((issue) => ({ ...issue, path: `body.${issue.path}` }));
  throw new ValidationError(details.map((d) => `${d.path}: ${d.message}`).join('; '), details);
}

/** One catalog per process: ffmpeg is asked once what it has. */
const processCatalog = new CodecCatalog(undefined, (line) => console.error(line));

export function createPresetsService(db: Db, events: EventBus, catalog: CodecCatalog = processCatalog): PresetsService {
  return new PresetsService(new PresetsRepository(db), catalog, events);
}

/** Video and audio presets (spec 03 §3, §5): codecs and their options checked against the installed ffmpeg. */
export class PresetsService {
  constructor(
    private readonly presets: PresetsRepository,
    private readonly catalog: CodecCatalog,
    private readonly events: EventBus,
  ) {}

  codecs(): Promise<PresetCodecsDto> {
    return this.catalog.codecs();
  }

  async listVideo(search?: string) {
    const items = (await this.presets.listVideo(search?.trim() || undefined)).map(videoPresetToDto);
    return { items, total: items.length };
  }

  async listAudio(search?: string) {
    const items = (await this.presets.listAudio(search?.trim() || undefined)).map(audioPresetToDto);
    return { items, total: items.length };
  }

  async getVideo(id: number): Promise<VideoPresetDto> {
    return videoPresetToDto(await this.requireVideo(id));
  }

  async getAudio(id: number): Promise<AudioPresetDto> {
    return audioPresetToDto(await this.requireAudio(id));
  }

  async createVideo(input: VideoPresetInputValue): Promise<VideoPresetDto> {
    const id = await this.presets.insertVideo(await this.videoColumns(input));
    await this.changed('video', 'created', id);
    return this.getVideo(id);
  }

  async updateVideo(id: number, input: VideoPresetInputValue): Promise<VideoPresetDto> {
    await this.requireVideo(id);
    if (!(await this.presets.updateVideo(id, await this.videoColumns(input)))) throw new NotFoundError('Video preset', id);
    await this.changed('video', 'updated', id);
    return this.getVideo(id);
  }

  async cloneVideo(id: number, name?: string): Promise<VideoPresetDto> {
    const source = await this.requireVideo(id);
    const copy = await this.presets.insertVideo({
      name: name ?? copyName(source.name),
      video_codec: source.video_codec,
      gpu: source.gpu,
      video_bitrate: source.video_bitrate,
      audio_preset_id: source.audio_preset_id,
      advanced_option: source.advanced_option,
      video_codec_parameters: source.video_codec_parameters ?? {},
    });
    await this.changed('video', 'created', copy);
    return this.getVideo(copy);
  }

  async deleteVideo(id: number): Promise<void> {
    const preset = await this.requireVideo(id);
    const inUse = (jobs: number) => new ConflictError(`Preset ${preset.name} is used by ${plural(jobs, 'job')}; remove it from ${jobs === 1 ? 'that job' : 'those jobs'} first.`, 'PRESET_IN_USE');
    if (preset.job_count > 0) throw inUse(preset.job_count);
    try {
      await this.presets.deleteVideo(id);
    } catch (error) {
      // A job took it between the count and the delete: the foreign key refused.
      if (isPresetInUseError(error)) throw inUse((await this.requireVideo(id)).job_count || 1);
      throw error;
    }
    await this.changed('video', 'deleted', id);
  }

  async createAudio(input: AudioPresetInputValue): Promise<AudioPresetDto> {
    const id = await this.presets.insertAudio(await this.audioColumns(input));
    await this.changed('audio', 'created', id);
    return this.getAudio(id);
  }

  async updateAudio(id: number, input: AudioPresetInputValue): Promise<AudioPresetDto> {
    await this.requireAudio(id);
    if (!(await this.presets.updateAudio(id, await this.audioColumns(input)))) throw new NotFoundError('Audio preset', id);
    await this.changed('audio', 'updated', id);
    return this.getAudio(id);
  }

  async cloneAudio(id: number, name?: string): Promise<AudioPresetDto> {
    const source = await this.requireAudio(id);
    const copy = await this.presets.insertAudio({
      name: name ?? copyName(source.name),
      audio_codec: source.audio_codec,
      audio_bitrate: source.audio_bitrate,
      channels: source.channels,
      sample_rate: source.sample_rate,
    });
    await this.changed('audio', 'created', copy);
    return this.getAudio(copy);
  }

  async deleteAudio(id: number): Promise<void> {
    const preset = await this.requireAudio(id);
    const inUse = (current: AudioPresetListRow) => {
      const users = [current.job_count ? plural(current.job_count, 'job') : '', current.video_preset_count ? plural(current.video_preset_count, 'video preset') : ''].filter(Boolean).join(' and ');
      return new ConflictError(`Audio preset ${preset.name} is used by ${users || 'a job'}; remove it from them first.`, 'PRESET_IN_USE');
    };
    if (preset.job_count + preset.video_preset_count > 0) throw inUse(preset);
    let outcome: 'deleted' | 'missing' | 'used';
    try {
      outcome = await this.presets.deleteAudioUnlessUsedByJobs(id);
    } catch (error) {
      if (isPresetInUseError(error)) outcome = 'used';
      else throw error;
    }
    if (outcome === 'missing') throw new NotFoundError('Audio preset', id);
    if (outcome === 'used') throw inUse(await this.requireAudio(id));
    await this.changed('audio', 'deleted', id);
  }

  /** The rules the schema cannot check alone: the codec is installed, its options exist and hold allowed values, the audio preset exists. */
  private async videoColumns(input: VideoPresetInputValue): Promise<NewVideoPreset> {
    const issues: FieldIssue[] = [];
    const codec = await this.catalog.videoCodec(input.videoCodec);
    if (!codec) issues.push({ path: 'videoCodec', message: `Video codec ${input.videoCodec} is not available in the installed ffmpeg` });
    else if (input.gpu !== undefined && input.gpu !== codec.gpu) issues.push({ path: 'gpu', message: codec.gpu ? `${codec.name} is a GPU encoder` : `${codec.name} is not a GPU encoder` });
    if (!(await this.presets.findAudio(input.audioPreset))) issues.push({ path: 'audioPreset', message: `Audio preset ${input.audioPreset} does not exist` });
    const parameters = input.advancedOption ? input.videoCodecParameters : {};
    if (codec) issues.push(...checkCodecParameters(codec, parameters));
    refuse(issues);
    return {
      name: input.name,
      video_codec: input.videoCodec,
      gpu: codec?.gpu ?? false,
      video_bitrate: input.videoBitrate,
      audio_preset_id: input.audioPreset,
      advanced_option: input.advancedOption ? 'true' : null,
      video_codec_parameters: parameters,
    };
  }

  private async audioColumns(input: AudioPresetInputValue): Promise<NewAudioPreset> {
    const issues: FieldIssue[] = [];
    const codec = await this.catalog.audioCodec(input.audioCodec);
    if (!codec) {
      issues.push({ path: 'audioCodec', message: `Audio codec ${input.audioCodec} is not available in the installed ffmpeg` });
    } else {
      if (codec.sampleRates.length && !codec.sampleRates.includes(input.sampleRate)) {
        issues.push({ path: 'sampleRate', message: `Sample rate must be one of ${codec.sampleRates.join(', ')} Hz for ${codec.name}` });
      }
      if (input.channels !== null && codec.maxChannels !== null && input.channels > codec.maxChannels) {
        issues.push({ path: 'channels', message: `${codec.name} encodes at most ${plural(codec.maxChannels, 'channel')}` });
      }
    }
    refuse(issues);
    return { name: input.name, audio_codec: input.audioCodec, audio_bitrate: input.audioBitrate, channels: input.channels, sample_rate: input.sampleRate };
  }

  private async requireVideo(id: number): Promise<VideoPresetListRow> {
    const row = await this.presets.findVideo(id);
    if (!row) throw new NotFoundError('Video preset', id);
    return row;
  }

  private async requireAudio(id: number): Promise<AudioPresetListRow> {
    const row = await this.presets.findAudio(id);
    if (!row) throw new NotFoundError('Audio preset', id);
    return row;
  }

  private changed(kind: PresetKind, type: string, id: number): Promise<void> {
    return this.events.publish({ topic: 'presets', type, id, data: { type: kind } });
  }
}
