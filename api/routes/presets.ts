import { presetOperations } from '../../openapi/paths/presets.ts';
import { implement } from '../http/operations.ts';
import type { Services } from '../services/index.ts';

const ops = presetOperations;
const ok = { ok: true } as const;

export function presetRoutes({ presets }: Services) {
  return [
    implement(ops.getPresetCodecs, async () => presets.codecs()),
    implement(ops.listVideoPresets, async ({ query }) => presets.listVideo(query.search)),
    implement(ops.getVideoPreset, async ({ params }) => presets.getVideo(params.id)),
    implement(ops.createVideoPreset, async ({ body }) => presets.createVideo(body)),
    implement(ops.updateVideoPreset, async ({ params, body }) => presets.updateVideo(params.id, body)),
    implement(ops.cloneVideoPreset, async ({ params, query }) => presets.cloneVideo(params.id, query.name)),
    implement(ops.deleteVideoPreset, async ({ params }) => (await presets.deleteVideo(params.id), ok)),
    implement(ops.listAudioPresets, async ({ query }) => presets.listAudio(query.search)),
    implement(ops.getAudioPreset, async ({ params }) => presets.getAudio(params.id)),
    implement(ops.createAudioPreset, async ({ body }) => presets.createAudio(body)),
    implement(ops.updateAudioPreset, async ({ params, body }) => presets.updateAudio(params.id, body)),
    implement(ops.cloneAudioPreset, async ({ params, query }) => presets.cloneAudio(params.id, query.name)),
    implement(ops.deleteAudioPreset, async ({ params }) => (await presets.deleteAudio(params.id), ok)),
  ];
}
