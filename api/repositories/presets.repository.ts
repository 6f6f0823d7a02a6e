import { sql, type ExpressionBuilder } from 'kysely';
import { MAX_ID } from '../../openapi/schemas/common.ts';
import type { Db } from '../db/database.ts';
import type { AudioPresetRow, Database, VideoPresetRow } from '../db/tables.ts';

export type VideoPresetListRow = VideoPresetRow & { audio_preset_name: string; job_count: number };
export type AudioPresetListRow = AudioPresetRow & { job_count: number; video_preset_count: number };

export interface NewVideoPreset {
  name: string;
  video_codec: string;
  gpu: boolean;
  video_bitrate: number;
  audio_preset_id: number;
  advanced_option: string | null;
  video_codec_parameters: Record<string, string | number | boolean>;
}

export interface NewAudioPreset {
  name: string;
  audio_codec: string;
  audio_bitrate: number;
  channels: number | null;
  sample_rate: number;
}

/** Is this a foreign-key violation (a job or a video preset took the preset while it was being deleted)? */
export function isPresetInUseError(error: unknown): boolean {
  return (error as { code?: string } | undefined)?.code === '23503';
}

function searchTerm(search: string) {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const idOf = (search: string) => (/^\d{1,10}$/.test(search) && Number(search) <= MAX_ID ? Number(search) : undefined);

/** A job (encoding or template) whose config gives the audio preset of the outer row to one of its audio tracks. */
const tracksUseAudioPreset = sql<boolean>`jobs.config->'audioSetting'->'tracks' @> jsonb_build_array(jsonb_build_object('audioPreset', audio_presets.id))`;

const jobCountOfAudioPreset = (eb: ExpressionBuilder<Database, 'audio_presets'>) =>
  eb
    .selectFrom('jobs')
    .select((j) => j.fn.countAll<string>().as('n'))
    .where(tracksUseAudioPreset);

export class PresetsRepository {
  constructor(private readonly db: Db) {}

  private videoQuery() {
    return this.db
      .selectFrom('video_presets')
      .innerJoin('audio_presets', 'audio_presets.id', 'video_presets.audio_preset_id')
      .selectAll('video_presets')
      .select('audio_presets.name as audio_preset_name')
      .select((eb) => eb.selectFrom('jobs').select((j) => j.fn.countAll<string>().as('n')).whereRef('jobs.preset_id', '=', 'video_presets.id').as('job_count'));
  }

  private audioQuery() {
    return this.db
      .selectFrom('audio_presets')
      .selectAll('audio_presets')
      .select((eb) => jobCountOfAudioPreset(eb).as('job_count'))
      .select((eb) => eb.selectFrom('video_presets').select((v) => v.fn.countAll<string>().as('n')).whereRef('video_presets.audio_preset_id', '=', 'audio_presets.id').as('video_preset_count'));
  }

  async listVideo(search?: string): Promise<VideoPresetListRow[]> {
    let query = this.videoQuery();
    if (search) {
      const id = idOf(search);
      query = query.where((eb) => eb.or([eb('video_presets.name', 'ilike', searchTerm(search)), ...(id !== undefined ? [eb('video_presets.id', '=', id)] : [])]));
    }
    const rows = await query.orderBy(sql`lower(video_presets.name)`).orderBy('video_presets.id').execute();
    return rows.map(countsOfVideo);
  }

  async findVideo(id: number): Promise<VideoPresetListRow | undefined> {
    const row = await this.videoQuery().where('video_presets.id', '=', id).executeTakeFirst();
    return row && countsOfVideo(row);
  }

  async listAudio(search?: string): Promise<AudioPresetListRow[]> {
    let query = this.audioQuery();
    if (search) {
      const id = idOf(search);
      query = query.where((eb) => eb.or([eb('audio_presets.name', 'ilike', searchTerm(search)), ...(id !== undefined ? [eb('audio_presets.id', '=', id)] : [])]));
    }
    const rows = await query.orderBy(sql`lower(audio_presets.name)`).orderBy('audio_presets.id').execute();
    return rows.map(countsOfAudio);
  }

  async findAudio(id: number): Promise<AudioPresetListRow | undefined> {
    const row = await this.audioQuery().where('audio_presets.id', '=', id).executeTakeFirst();
    return row && countsOfAudio(row);
  }

  async insertVideo(preset: NewVideoPreset): Promise<number> {
    const row = await this.db
      .insertInto('video_presets')
      .values({ ...preset, video_codec_parameters: JSON.stringify(preset.video_codec_parameters) })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async updateVideo(id: number, preset: NewVideoPreset): Promise<boolean> {
    const result = await this.db
      .updateTable('video_presets')
      .set({ ...preset, video_codec_parameters: JSON.stringify(preset.video_codec_parameters), updated_at: sql<Date>`now()` as never })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async insertAudio(preset: NewAudioPreset): Promise<number> {
    return (await this.db.insertInto('audio_presets').values(preset).returning('id').executeTakeFirstOrThrow()).id;
  }

  async updateAudio(id: number, preset: NewAudioPreset): Promise<boolean> {
    const result = await this.db
      .updateTable('audio_presets')
      .set({ ...preset, updated_at: sql<Date>`now()` as never })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async deleteVideo(id: number): Promise<boolean> {
    return Number((await this.db.deleteFrom('video_presets').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0;
  }

  /**
   * Deletes the audio preset unless a job's audio track refers to it (checked in the same statement:
   * the tracks are JSON, with no foreign key to hold them). Video presets hold it by foreign key.
   */
  async deleteAudioUnlessUsedByJobs(id: number): Promise<'deleted' | 'missing' | 'used'> {
    const result = await this.db
      .deleteFrom('audio_presets')
      .where('id', '=', id)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('jobs').select('jobs.id').where(tracksUseAudioPreset))))
      .executeTakeFirst();
    if (Number(result.numDeletedRows) > 0) return 'deleted';
    return (await this.findAudio(id)) ? 'used' : 'missing';
  }
}

function countsOfVideo<T extends { job_count: string | number | null }>(row: T): T & { job_count: number } {
  return { ...row, job_count: Number(row.job_count ?? 0) };
}

function countsOfAudio<T extends { job_count: string | number | null; video_preset_count: string | number | null }>(row: T): T & { job_count: number; video_preset_count: number } {
  return { ...row, job_count: Number(row.job_count ?? 0), video_preset_count: Number(row.video_preset_count ?? 0) };
}
