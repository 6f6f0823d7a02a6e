import type { z } from 'zod';
import { defineOperation } from '../operation.ts';
import { ErrorBody, IdParams, OkResponse } from '../schemas/common.ts';
import {
  AudioPreset,
  AudioPresetInput,
  AudioPresetList,
  CloneQuery,
  PresetCodecs,
  PresetListQuery,
  VideoPreset,
  VideoPresetInput,
  VideoPresetList,
} from '../schemas/presets.ts';

const tag = 'presets';
/** Spec 03 §6: presets use ENCODING_EDIT and ENCODING_VIEW_EDIT; ENCODING_VIEW views them. */
export const PRESET_PERMISSIONS = {
  view: { anyOf: ['ENCODING_VIEW', 'ENCODING_EDIT'] },
  edit: { anyOf: ['ENCODING_EDIT', 'ENCODING_VIEW_EDIT'] },
} as const;
const { view, edit } = PRESET_PERMISSIONS;

const invalid = { description: 'A field breaks a rule (a codec the installed ffmpeg lacks, an unknown option or a value out of its range ...).', schema: ErrorBody };
const inUse = { description: 'The preset is in use: the message says by how many jobs.', schema: ErrorBody };

/** The same six operations for each kind of preset, their schemas kept typed. */
function operationsOf<I extends z.ZodType, T extends z.ZodType, L extends z.ZodType>(kind: 'Video' | 'Audio', item: T, input: I, list: L) {
  const lower = kind.toLowerCase() as 'video' | 'audio';
  const notFound = { description: `No ${lower} preset with that id.`, schema: ErrorBody };
  const base = `/api/presets/${lower}` as const;
  return {
    list: defineOperation({
      operationId: `list${kind}Presets`,
      method: 'get',
      path: base,
      tag,
      summary: `List ${lower} presets, sorted by name, each with its usageCount`,
      permission: view,
      query: PresetListQuery,
      responses: { 200: { description: `Every ${lower} preset.`, schema: list } },
    }),
    get: defineOperation({
      operationId: `get${kind}Preset`,
      method: 'get',
      path: `${base}/{id}`,
      tag,
      summary: `Get a ${lower} preset`,
      permission: view,
      params: IdParams,
      responses: { 200: { description: 'The preset.', schema: item }, 404: notFound },
    }),
    create: defineOperation({
      operationId: `create${kind}Preset`,
      method: 'post',
      path: base,
      tag,
      summary: `Create a ${lower} preset`,
      permission: edit,
      body: input,
      responses: { 201: { description: 'Created.', schema: item }, 400: invalid },
    }),
    update: defineOperation({
      operationId: `update${kind}Preset`,
      method: 'put',
      path: `${base}/{id}`,
      tag,
      summary: `Update a ${lower} preset; running encodings take the change at their next start`,
      permission: edit,
      params: IdParams,
      body: input,
      responses: { 200: { description: 'Updated.', schema: item }, 400: invalid, 404: notFound },
    }),
    clone: defineOperation({
      operationId: `clone${kind}Preset`,
      method: 'post',
      path: `${base}/{id}/clone`,
      tag,
      summary: `Copy a ${lower} preset under a new name ("<name> (copy)" unless given)`,
      permission: edit,
      params: IdParams,
      query: CloneQuery,
      responses: { 201: { description: 'The copy.', schema: item }, 404: notFound },
    }),
    delete: defineOperation({
      operationId: `delete${kind}Preset`,
      method: 'delete',
      path: `${base}/{id}`,
      tag,
      summary: kind === 'Video' ? 'Delete a video preset no job uses' : 'Delete an audio preset that no job and no video preset uses',
      permission: edit,
      params: IdParams,
      responses: { 200: { description: 'Deleted.', schema: OkResponse }, 404: notFound, 409: inUse },
    }),
  };
}

const video = operationsOf('Video', VideoPreset, VideoPresetInput, VideoPresetList);
const audio = operationsOf('Audio', AudioPreset, AudioPresetInput, AudioPresetList);

export const presetOperations = {
  getPresetCodecs: defineOperation({
    operationId: 'getPresetCodecs',
    method: 'get',
    path: '/api/presets/codecs',
    tag,
    summary: 'The codecs presets may use and the options of each, as the installed ffmpeg has them',
    description:
      'Read once per server process from `ffmpeg -encoders` and `ffmpeg -h encoder=<name>`. GPU encoders (NVENC, Quick Sync, VAAPI) are listed only when the installed ffmpeg has them. Each option is a select (with its values), a range (with the codec\'s minimum and maximum), a checkbox or a string.',
    permission: view,
    responses: { 200: { description: 'The video and audio codecs.', schema: PresetCodecs } },
  }),
  listVideoPresets: video.list,
  getVideoPreset: video.get,
  createVideoPreset: video.create,
  updateVideoPreset: video.update,
  cloneVideoPreset: video.clone,
  deleteVideoPreset: video.delete,
  listAudioPresets: audio.list,
  getAudioPreset: audio.get,
  createAudioPreset: audio.create,
  updateAudioPreset: audio.update,
  cloneAudioPreset: audio.clone,
  deleteAudioPreset: audio.delete,
};
