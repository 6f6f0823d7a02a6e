import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { useConfirmDelete, useErrorAlert } from '../../components/dialogs.tsx';
import { Icon } from '../../components/icons.tsx';
import { Count, ListTable, type Column } from '../../components/list/ListTable.tsx';
import { useListState } from '../../components/list/useListState.ts';
import { PageHeader } from '../../components/Page.tsx';
import { useToast } from '../../components/toasts.tsx';
import { useGranted } from '../../data/auth/queries.ts';
import { messageOf } from '../../data/client.ts';
import type { JobKind } from '../../data/jobs/keys.ts';
import { useDeleteTemplate } from '../../data/jobs/mutations.ts';
import { useJobTemplates, type JobSummary } from '../../data/jobs/queries.ts';
import { usePageTitle } from '../../shell/breadcrumbs.tsx';
import { CommentIcon } from './CommentIcon.tsx';
import { PresetCell } from './jobColumns.tsx';
import { INPUT_TYPE_LABELS, JOB_KINDS, NONE, OUTPUT_TYPE_LABELS, TEMPLATES_EMPTY_TEXT, VIDEO_TYPE_OPTIONS, jobGrants, jobPaths, type JobGrants, type JobKindConfig } from './jobLabels.ts';
import { useJobListLive } from './useJobListLive.ts';

const FILTERS = [{ key: 'type', label: 'Type', options: VIDEO_TYPE_OPTIONS }];
const FILTER_KEYS = ['type'];
const rowKey = (template: { id: number }) => template.id;

function TemplateControls({ config, template, grants }: { config: JobKindConfig; template: JobSummary; grants: JobGrants }) {
  const remove = useDeleteTemplate(config.kind);
  const confirmDelete = useConfirmDelete();
  const showError = useErrorAlert();
  const toast = useToast();
  const editPath = jobPaths.templateEdit(config.kind, template.id);

  async function deleteTemplate() {
    if (!(await confirmDelete(`Delete template ${template.name}?`))) return;
    try {
      await remove.mutateAsync(template.id);
      toast.success(`Template ${template.name} deleted.`);
    } catch (error) {
      await showError(messageOf(error));
    }
  }

  return (
    <div className="row-controls">
      {grants.templateEdit ? (
        <Link to={editPath} className="icon-button" aria-label={`Edit template ${template.name}`} title="Edit">
          <Icon name="pencil" />
        </Link>
      ) : (
        <Link to={editPath} className="icon-button" aria-label={`View template ${template.name}`} title="View">
          <Icon name="eye" />
        </Link>
      )}
      {grants.templateDelete && (
        <button type="button" className="icon-button icon-button-danger" aria-label={`Delete template ${template.name}`} title="Delete" onClick={() => void deleteTemplate()}>
          <Icon name="trash" />
        </button>
      )}
    </div>
  );
}

function templateColumns(config: JobKindConfig, grants: JobGrants): Column<JobSummary>[] {
  const columns: (Column<JobSummary> | false)[] = [
    { key: 'id', header: 'ID', sortKey: 'id', width: '64px', className: 'cell-mono', cell: (t) => t.id },
    {
      key: 'name',
      header: 'Name',
      sortKey: 'name',
      className: 'cell-name',
      cell: (t) => (
        <span className="job-name">
          <Link to={jobPaths.templateEdit(config.kind, t.id)} className="cell-link">
            {t.name}
          </Link>
          <CommentIcon level={t.worstComment} count={t.commentCount} />
        </span>
      ),
    },
    { key: 'type', header: 'Type', cell: (t) => <span className="badge">{t.videoType}</span> },
    config.hasPreset && { key: 'preset', header: 'Preset', cell: (t) => <PresetCell job={t} /> },
    {
      key: 'output',
      header: 'Output',
      cell: (t) => (
        <span className="output-types">
          {t.outputTypes.length === 0 ? <span className="muted">{NONE}</span> : t.outputTypes.map((type, i) => <span key={`${type}-${i}`} className="output-label">{OUTPUT_TYPE_LABELS[type] ?? type}</span>)}
        </span>
      ),
    },
    { key: 'input', header: 'Input', cell: (t) => INPUT_TYPE_LABELS[t.inputType] ?? t.inputType },
    { key: 'createdBy', header: 'Created By', cell: (t) => t.createdBy ?? <span className="muted">{NONE}</span> },
    { key: 'controls', header: 'Controls', align: 'right', width: '110px', cell: (t) => <TemplateControls config={config} template={t} grants={grants} /> },
  ];
  return columns.filter((c): c is Column<JobSummary> => Boolean(c));
}

/**
 * /my/relays/templates and /my/encodings/templates (spec 01 §2.7): search, the type filter,
 * sortable ID and Name, a Preset column for encodings, edit and delete. EDIT adds templates;
 * VIEW_EDIT and VIEW_DELETE allow editing and deleting them.
 */
export default function TemplateListPage({ kind }: { kind: JobKind }) {
  const config = JOB_KINDS[kind];
  usePageTitle(config.templatesTitle);
  const granted = useGranted();
  const grants = useMemo(() => jobGrants(kind, granted), [kind, granted]);
  const list = useListState({ filterKeys: FILTER_KEYS, defaultSort: 'id', defaultOrder: 'desc' });
  const type = list.filters.type?.[0];
  const templates = useJobTemplates(kind, {
    search: list.search || undefined,
    type: type === 'LIVE' || type === 'VOD' ? type : undefined,
    sort: list.sort === 'name' ? 'name' : 'id',
    order: list.order,
    page: list.page,
    size: list.size,
  });
  useJobListLive(config.topic);
  const columns = useMemo(() => templateColumns(config, grants), [config, grants]);

  return (
    <div className="page page-wide job-list">
      <PageHeader
        title={config.templatesTitle}
        actions={
          grants.fullEdit && (
            <Link to={jobPaths.templateEdit(kind)} className="button">
              <Icon name="plus" />
              Add Template
            </Link>
          )
        }
      />
      <ListTable
        label={config.templatesTitle}
        list={list}
        columns={columns}
        rows={templates.data?.items}
        total={templates.data?.total}
        rowKey={rowKey}
        loading={templates.isPending}
        fetching={templates.isPlaceholderData}
        error={templates.error}
        emptyText={TEMPLATES_EMPTY_TEXT}
        searchPlaceholder="Enter Name or ID"
        filters={FILTERS}
        footer={<Count label="Total" value={templates.data?.total} />}
      />
    </div>
  );
}
