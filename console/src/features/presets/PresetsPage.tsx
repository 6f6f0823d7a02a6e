import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useConfirmDelete, useErrorAlert } from '../../components/dialogs.tsx';
import { Icon } from '../../components/icons.tsx';
import { Count, LOADING_TEXT } from '../../components/list/ListTable.tsx';
import { Card, PageHeader } from '../../components/Page.tsx';
import { useToast } from '../../components/toasts.tsx';
import { useCan } from '../../data/auth/queries.ts';
import { messageOf } from '../../data/client.ts';
import { useLiveUpdates } from '../../data/live.ts';
import { useDeletePreset } from '../../data/presets/mutations.ts';
import { useAudioPresetList, useVideoPresetList, type AudioPreset, type VideoPreset } from '../../data/presets/queries.ts';
import { usePageTitle } from '../../shell/breadcrumbs.tsx';
import { editPath, type PresetType } from './presetFormModel.ts';
import './presets.css';

const LIVE_TOPICS = ['presets'];

interface PresetColumn<T> {
  header: string;
  cell: (row: T) => ReactNode;
  align?: 'right' | 'center';
}

function PresetTable<T extends { id: number; name: string; usageCount: number }>({
  type,
  label,
  rows,
  error,
  columns,
  canEdit,
  onDelete,
}: {
  type: PresetType;
  label: string;
  rows: readonly T[] | undefined;
  error: unknown;
  columns: PresetColumn<T>[];
  canEdit: boolean;
  onDelete: (row: T) => void;
}) {
  const all: PresetColumn<T>[] = [
    {
      header: 'Name',
      cell: (p) => (
        <Link to={editPath(type, p.id)} className="cell-link">
          {p.name}
        </Link>
      ),
    },
    ...columns,
    { header: 'Usage', align: 'right', cell: (p) => <span className={p.usageCount ? 'badge badge-primary' : 'badge'} title={`Used ${p.usageCount} time${p.usageCount === 1 ? '' : 's'}`}>{p.usageCount}</span> },
    {
      header: 'Controls',
      align: 'right',
      cell: (p) => (
        <div className="row-controls">
          <Link to={editPath(type, p.id)} className="icon-button" aria-label={`${canEdit ? 'Edit' : 'View'} ${type} preset ${p.name}`} title={canEdit ? 'Edit' : 'View'}>
            <Icon name={canEdit ? 'pencil' : 'eye'} />
          </Link>
          {canEdit && (
            <Link to={`/my/presets/clone/${type}/${p.id}`} className="icon-button" aria-label={`Clone ${type} preset ${p.name}`} title="Clone">
              <Icon name="copy" />
            </Link>
          )}
          {canEdit && (
            <button type="button" className="icon-button icon-button-danger" aria-label={`Delete ${type} preset ${p.name}`} title={p.usageCount ? `In use (${p.usageCount})` : 'Delete'} onClick={() => onDelete(p)}>
              <Icon name="trash" />
            </button>
          )}
        </div>
      ),
    },
  ];
  let body: ReactNode;
  if (error && !rows) body = <td colSpan={all.length} className="table-message table-error" role="alert">{messageOf(error)}</td>;
  else if (!rows) body = <td colSpan={all.length} className="table-message">{LOADING_TEXT}</td>;
  else if (rows.length === 0) body = <td colSpan={all.length} className="table-message">{`No ${type} presets`}</td>;
  return (
    <div className="table-wrap">
      <table className="table" aria-label={label}>
        <thead>
          <tr>
            {all.map((c) => (
              <th key={c.header} scope="col" className={c.align ? `align-${c.align}` : undefined}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {body ? (
            <tr>{body}</tr>
          ) : (
            rows?.map((row) => (
              <tr key={row.id}>
                {all.map((c) => (
                  <td key={c.header} className={c.align ? `align-${c.align}` : undefined}>
                    {c.cell(row)}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

const kbps = (n: number) => `${n} kbit/s`;

/** /my/presets: the video and the audio presets, each with its usageCount; refreshed live. */
export default function PresetsPage() {
  usePageTitle('Presets');
  const canEdit = useCan('ENCODING_EDIT', 'ENCODING_VIEW_EDIT');
  const video = useVideoPresetList();
  const audio = useAudioPresetList();
  useLiveUpdates(LIVE_TOPICS);
  const remove = useDeletePreset();
  const confirmDelete = useConfirmDelete();
  const showError = useErrorAlert();
  const toast = useToast();

  async function deletePreset(type: PresetType, preset: { id: number; name: string }) {
    if (!(await confirmDelete(`Delete preset ${preset.name}?`))) return;
    try {
      await remove.mutateAsync({ type, id: preset.id });
      toast.success(`Preset ${preset.name} deleted.`);
    } catch (error) {
      await showError(messageOf(error));
    }
  }

  const addButton = (type: PresetType) =>
    canEdit && (
      <Link to={editPath(type)} className="button">
        <Icon name="plus" />
        {type === 'video' ? 'Add video preset' : 'Add audio preset'}
      </Link>
    );

  return (
    <div className="page">
      <PageHeader title="Presets" />
      <div className="preset-lists">
        <Card title="Video presets" actions={addButton('video')}>
          <PresetTable<VideoPreset>
            type="video"
            label="Video presets"
            rows={video.data?.items}
            error={video.error}
            canEdit={canEdit}
            onDelete={(p) => void deletePreset('video', p)}
            columns={[
              { header: 'Codec', cell: (p) => <span className="cell-mono">{p.videoCodec}{p.gpu && <span className="badge badge-primary gpu-badge">GPU</span>}</span> },
              { header: 'Bitrate', align: 'right', cell: (p) => kbps(p.videoBitrate) },
              { header: 'Audio preset', cell: (p) => <Link to={editPath('audio', p.audioPreset)}>{p.audioPresetName}</Link> },
            ]}
          />
          <div className="list-footer">
            <div className="list-counts">
              <Count label="Total video presets" value={video.data?.total} />
            </div>
          </div>
        </Card>
        <Card title="Audio presets" actions={addButton('audio')}>
          <PresetTable<AudioPreset>
            type="audio"
            label="Audio presets"
            rows={audio.data?.items}
            error={audio.error}
            canEdit={canEdit}
            onDelete={(p) => void deletePreset('audio', p)}
            columns={[
              { header: 'Codec', cell: (p) => <span className="cell-mono">{p.audioCodec}</span> },
              { header: 'Bitrate', align: 'right', cell: (p) => kbps(p.audioBitrate) },
              { header: 'Channels', align: 'right', cell: (p) => (p.channels === null ? <span className="muted">source</span> : p.channels) },
              { header: 'Sample rate', align: 'right', cell: (p) => `${p.sampleRate} Hz` },
            ]}
          />
          <div className="list-footer">
            <div className="list-counts">
              <Count label="Total audio presets" value={audio.data?.total} />
            </div>
          </div>
        </Card>
      </div>
    </div>
  );
}
