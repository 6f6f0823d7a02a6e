import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { useConfirmDelete, useErrorAlert } from '../../components/dialogs.tsx';
import { Icon } from '../../components/icons.tsx';
import { Count, ListTable, type Column } from '../../components/list/ListTable.tsx';
import { useListState } from '../../components/list/useListState.ts';
import { PageHeader } from '../../components/Page.tsx';
import { useToast } from '../../components/toasts.tsx';
import { useCan } from '../../data/auth/queries.ts';
import { messageOf } from '../../data/client.ts';
import { useLiveUpdates } from '../../data/live.ts';
import { watermarkImageUrl } from '../../data/watermarks/keys.ts';
import { useDeleteWatermark } from '../../data/watermarks/mutations.ts';
import { useWatermarkList, type Watermark } from '../../data/watermarks/queries.ts';
import { usePageTitle } from '../../shell/breadcrumbs.tsx';
import './watermarks.css';

const LIVE_TOPICS = ['watermarks'];

/** Spec 03 §2: the name search runs on submit (Enter or the Search button), not as one types. */
function SearchForm({ value, onSearch }: { value: string; onSearch: (text: string) => void }) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  return (
    <form
      className="watermark-search"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(text.trim());
      }}
    >
      <input type="search" value={text} placeholder="Enter Name" aria-label="Search by name" onChange={(e) => setText(e.target.value)} />
      <button type="submit" className="button button-secondary">
        <Icon name="search" />
        Search
      </button>
    </form>
  );
}

/** /my/watermarks: the watermarks, sorted by name, with the Total Watermarks count; refreshed live. */
export default function WatermarksPage() {
  usePageTitle('Watermarks');
  // Spec 03 §6.
  const canEdit = useCan('ENCODING_EDIT', 'ENCODING_VIEW_EDIT');
  const canDelete = useCan('ENCODING_EDIT', 'ENCODING_VIEW_DELETE');
  const canAdd = useCan('ENCODING_EDIT');
  const list = useListState({ defaultSort: 'name' });
  const watermarks = useWatermarkList({ search: list.search || undefined, page: list.page, size: list.size, sort: list.sort === 'id' ? 'id' : 'name', order: list.order });
  useLiveUpdates(LIVE_TOPICS);
  const remove = useDeleteWatermark();
  const confirmDelete = useConfirmDelete();
  const showError = useErrorAlert();
  const toast = useToast();

  async function deleteOne(watermark: Watermark) {
    if (!(await confirmDelete(`Delete watermark ${watermark.name}?`))) return;
    try {
      await remove.mutateAsync(watermark.id);
      toast.success(`Watermark ${watermark.name} deleted.`);
    } catch (error) {
      await showError(messageOf(error));
    }
  }

  async function deleteSelected(selected: Watermark[], clear: () => void) {
    if (!(await confirmDelete(selected.length === 1 ? `Delete watermark ${selected[0].name}?` : `Delete ${selected.length} watermarks?`))) return;
    const failures: string[] = [];
    for (const watermark of selected) {
      try {
        await remove.mutateAsync(watermark.id);
      } catch (error) {
        failures.push(messageOf(error));
      }
    }
    clear();
    if (failures.length) await showError(failures.join(' '));
    else toast.success(`${selected.length} watermark${selected.length === 1 ? '' : 's'} deleted.`);
  }

  const columns: Column<Watermark>[] = [
    {
      key: 'image',
      header: 'Image',
      width: '72px',
      cell: (w) => <img className="watermark-thumb" src={watermarkImageUrl(w.id, w.updatedAt)} alt={`Image of ${w.name}`} loading="lazy" />,
    },
    {
      key: 'name',
      header: 'Name',
      sortKey: 'name',
      cell: (w) => (
        <Link to={`/my/watermarks/edit/${w.id}`} className="cell-link">
          {w.name}
        </Link>
      ),
    },
    { key: 'size', header: 'Size', cell: (w) => `${w.scaledImage.width}x${w.scaledImage.height} (${w.scalePercent}%)` },
    { key: 'alpha', header: 'Transparency', align: 'right', cell: (w) => `${w.alpha}%` },
    { key: 'resolution', header: 'Resolution', cell: (w) => (w.resolution.value === 'CUSTOM' ? `Custom ${w.resolution.width}x${w.resolution.height}` : w.resolution.name) },
    { key: 'position', header: 'Position', cell: (w) => `${w.x}, ${w.y}` },
    {
      key: 'controls',
      header: 'Controls',
      align: 'right',
      width: '110px',
      cell: (w) => (
        <div className="row-controls">
          <Link to={`/my/watermarks/edit/${w.id}`} className="icon-button" aria-label={`${canEdit ? 'Edit' : 'View'} watermark ${w.name}`} title={canEdit ? 'Edit' : 'View'}>
            <Icon name={canEdit ? 'pencil' : 'eye'} />
          </Link>
          {canDelete && (
            <button type="button" className="icon-button icon-button-danger" aria-label={`Delete watermark ${w.name}`} title={w.usageCount ? `Used by ${w.usageCount} encoding(s)` : 'Delete'} onClick={() => void deleteOne(w)}>
              <Icon name="trash" />
            </button>
          )}
        </div>
      ),
    },
  ];

  return (
    <div className="page watermarks-page">
      <PageHeader
        title="Watermarks"
        actions={
          canAdd && (
            <Link to="/my/watermarks/edit" className="button">
              <Icon name="plus" />
              Add New
            </Link>
          )
        }
      />
      <ListTable
        label="Watermarks"
        list={list}
        columns={columns}
        rows={watermarks.data?.items}
        total={watermarks.data?.total}
        rowKey={(w) => w.id}
        loading={watermarks.isPending}
        fetching={watermarks.isFetching}
        error={watermarks.error}
        emptyText="No watermarks"
        actions={<SearchForm value={list.search} onSearch={list.setSearch} />}
        footer={<Count label="Total Watermarks" value={watermarks.data?.total} />}
        bulkActions={
          canAdd
            ? (selected, clear) => (
                <button type="button" className="button button-danger" onClick={() => void deleteSelected(selected, clear)}>
                  <Icon name="trash" />
                  Delete selected
                </button>
              )
            : undefined
        }
      />
    </div>
  );
}
