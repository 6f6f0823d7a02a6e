import { Link, useNavigate, useParams } from 'react-router-dom';
import { copyName } from '../../../../openapi/schemas/presets.ts';
import { PageHeader } from '../../components/Page.tsx';
import { useToast } from '../../components/toasts.tsx';
import { useCan } from '../../data/auth/queries.ts';
import { useSaveAudioPreset, useSaveVideoPreset } from '../../data/presets/mutations.ts';
import { useAudioPreset, useVideoPreset } from '../../data/presets/queries.ts';
import { usePageTitle } from '../../shell/breadcrumbs.tsx';
import { AudioPresetForm } from './AudioPresetForm.tsx';
import { audioValuesOf, editPath, newAudioValues, newVideoValues, videoValuesOf, type PresetType } from './presetFormModel.ts';
import { VideoPresetForm } from './VideoPresetForm.tsx';

const NOUN: Record<PresetType, string> = { video: 'Video preset', audio: 'Audio preset' };

function Failure({ title, message }: { title: string; message: string }) {
  return (
    <div className="page">
      <PageHeader title={title} />
      <div className="notice notice-error" role="alert">
        {message} <Link to="/my/presets">Back to presets</Link>
      </div>
    </div>
  );
}

/** A new video preset, or a copy of one (clone): Create posts it, then the form becomes its edit screen. */
function NewVideo({ sourceId }: { sourceId?: number }) {
  const source = useVideoPreset(sourceId);
  const save = useSaveVideoPreset();
  const navigate = useNavigate();
  const toast = useToast();
  const title = sourceId ? `Clone video preset${source.data ? ` ${source.data.name}` : ''}` : 'Add video preset';
  usePageTitle(title);
  if (sourceId && source.isPending) return <div className="page-loading">Loading ...</div>;
  if (sourceId && source.isError) return <Failure title={title} message={source.error.message} />;
  const initial = source.data ? videoValuesOf(source.data, copyName(source.data.name)) : newVideoValues();
  return (
    <div className="page">
      <PageHeader title={title} />
      <VideoPresetForm
        title={title}
        initial={initial}
        isNew
        readOnly={false}
        save={async (payload) => {
          const preset = await save.mutateAsync(payload);
          toast.success(`Video preset ${preset.name} created.`);
          navigate(editPath('video', preset.id), { replace: true });
        }}
      />
    </div>
  );
}

function ExistingVideo({ id }: { id: number }) {
  const preset = useVideoPreset(id);
  const save = useSaveVideoPreset(id);
  const canEdit = useCan('ENCODING_EDIT', 'ENCODING_VIEW_EDIT');
  const toast = useToast();
  const title = preset.data ? `Video preset ${preset.data.name}` : NOUN.video;
  usePageTitle(title);
  if (preset.isPending) return <div className="page-loading">Loading ...</div>;
  if (preset.isError) return <Failure title={title} message={preset.error.message} />;
  return (
    <div className="page">
      <PageHeader title={title} subtitle={preset.data.usageCount > 0 ? `Used by ${preset.data.usageCount} job${preset.data.usageCount === 1 ? '' : 's'}: a change applies at their next start.` : undefined} />
      <VideoPresetForm
        key={preset.data.id}
        title={title}
        initial={videoValuesOf(preset.data)}
        isNew={false}
        readOnly={!canEdit}
        save={async (payload) => {
          const saved = await save.mutateAsync(payload);
          toast.success(`Video preset ${saved.name} updated.`);
          return videoValuesOf(saved);
        }}
      />
    </div>
  );
}

function NewAudio({ sourceId }: { sourceId?: number }) {
  const source = useAudioPreset(sourceId);
  const save = useSaveAudioPreset();
  const navigate = useNavigate();
  const toast = useToast();
  const title = sourceId ? `Clone audio preset${source.data ? ` ${source.data.name}` : ''}` : 'Add audio preset';
  usePageTitle(title);
  if (sourceId && source.isPending) return <div className="page-loading">Loading ...</div>;
  if (sourceId && source.isError) return <Failure title={title} message={source.error.message} />;
  const initial = source.data ? audioValuesOf(source.data, copyName(source.data.name)) : newAudioValues();
  return (
    <div className="page">
      <PageHeader title={title} />
      <AudioPresetForm
        title={title}
        initial={initial}
        isNew
        readOnly={false}
        save={async (payload) => {
          const preset = await save.mutateAsync(payload);
          toast.success(`Audio preset ${preset.name} created.`);
          navigate(editPath('audio', preset.id), { replace: true });
        }}
      />
    </div>
  );
}

function ExistingAudio({ id }: { id: number }) {
  const preset = useAudioPreset(id);
  const save = useSaveAudioPreset(id);
  const canEdit = useCan('ENCODING_EDIT', 'ENCODING_VIEW_EDIT');
  const toast = useToast();
  const title = preset.data ? `Audio preset ${preset.data.name}` : NOUN.audio;
  usePageTitle(title);
  if (preset.isPending) return <div className="page-loading">Loading ...</div>;
  if (preset.isError) return <Failure title={title} message={preset.error.message} />;
  return (
    <div className="page">
      <PageHeader title={title} subtitle={preset.data.usageCount > 0 ? `Used ${preset.data.usageCount} time${preset.data.usageCount === 1 ? '' : 's'} (jobs and video presets): a change applies at the next start.` : undefined} />
      <AudioPresetForm
        key={preset.data.id}
        title={title}
        initial={audioValuesOf(preset.data)}
        isNew={false}
        readOnly={!canEdit}
        save={async (payload) => {
          const saved = await save.mutateAsync(payload);
          toast.success(`Audio preset ${saved.name} updated.`);
          return audioValuesOf(saved);
        }}
      />
    </div>
  );
}

const idOf = (value: string | undefined) => (value !== undefined && /^\d{1,10}$/.test(value) && Number(value) > 0 ? Number(value) : undefined);

/**
 * /my/presets/edit/video[/{id}], /my/presets/edit/audio[/{id}] and /my/presets/clone/{type}/{id}
 * (the route registry gives `type` for the edit routes; the clone route carries it in the path).
 */
export default function PresetEditPage({ type: routeType, clone = false }: { type?: PresetType; clone?: boolean }) {
  const params = useParams();
  const type = routeType ?? (params.type === 'video' || params.type === 'audio' ? params.type : undefined);
  const id = idOf(params.id);
  if (!type || (params.id !== undefined && id === undefined)) return <Failure title="Preset" message="No such preset." />;
  if (clone) return type === 'video' ? <NewVideo key={`clone-${id}`} sourceId={id} /> : <NewAudio key={`clone-${id}`} sourceId={id} />;
  if (id === undefined) return type === 'video' ? <NewVideo /> : <NewAudio />;
  return type === 'video' ? <ExistingVideo key={id} id={id} /> : <ExistingAudio key={id} id={id} />;
}
