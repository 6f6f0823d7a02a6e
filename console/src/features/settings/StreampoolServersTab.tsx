import { useState } from 'react';
import { useConfirmDelete, useErrorAlert } from '../../components/dialogs.tsx';
import { Icon } from '../../components/icons.tsx';
import { Card } from '../../components/Page.tsx';
import { useToast } from '../../components/toasts.tsx';
import { messageOf } from '../../data/client.ts';
import { useDeleteStreampoolServer } from '../../data/settings/mutations.ts';
import type { StreampoolServer } from '../../data/settings/queries.ts';
import { StreampoolServerModal } from './StreampoolServerModal.tsx';

/** Streampool Server Settings: STREAM_POOL_VIEW sees the servers, STREAM_POOL_EDIT adds, edits and deletes them. */
export function StreampoolServersTab({ servers, canEdit }: { servers: StreampoolServer[]; canEdit: boolean }) {
  const [open, setOpen] = useState<{ server?: StreampoolServer } | null>(null);
  const remove = useDeleteStreampoolServer();
  const confirmDelete = useConfirmDelete();
  const showError = useErrorAlert();
  const toast = useToast();

  async function onDelete(server: StreampoolServer) {
    if (!(await confirmDelete({ message: `Delete streampool server ${server.alias || server.id}?` }))) return;
    try {
      await remove.mutateAsync(server.id);
      toast.success(`Streampool server ${server.alias || server.id} deleted.`);
    } catch (error) {
      void showError(messageOf(error));
    }
  }

  return (
    <div className="settings-form">
      <Card
        title="Streampool Server Settings"
        actions={
          canEdit && (
            <button type="button" className="button" onClick={() => setOpen({})}>
              <Icon name="plus" size={14} />
              Add New
            </button>
          )
        }
      >
        <table className="table settings-table">
          <thead>
            <tr>
              <th>ID</th>
              <th>Alias</th>
              <th>Publish address</th>
              <th>Playback address</th>
              <th>API key</th>
              <th className="cell-figure">Usage</th>
              <th className="cell-controls">Controls</th>
            </tr>
          </thead>
          <tbody>
            {servers.length === 0 ? (
              <tr>
                <td colSpan={7} className="table-empty">
                  No servers
                </td>
              </tr>
            ) : (
              servers.map((server) => (
                <tr key={server.id}>
                  <td>{server.id}</td>
                  <td className="cell-strong">{server.alias || '-'}</td>
                  <td className="cell-mono">{server.publishAddress || '-'}</td>
                  <td className="cell-mono">{server.playbackAddress || '-'}</td>
                  <td className="cell-mono">{server.apiKey}</td>
                  <td className="cell-figure">{server.usageCount}</td>
                  <td className="cell-controls">
                    <button type="button" className="icon-button" aria-label={`${canEdit ? 'Edit' : 'View'} streampool server ${server.alias || server.id}`} onClick={() => setOpen({ server })}>
                      <Icon name={canEdit ? 'pencil' : 'eye'} size={15} />
                    </button>
                    {canEdit && (
                      <button type="button" className="icon-button" aria-label={`Delete streampool server ${server.alias || server.id}`} onClick={() => void onDelete(server)}>
                        <Icon name="trash" size={15} />
                      </button>
                    )}
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </Card>
      {open && <StreampoolServerModal server={open.server} readOnly={!canEdit} onClose={() => setOpen(null)} />}
    </div>
  );
}
