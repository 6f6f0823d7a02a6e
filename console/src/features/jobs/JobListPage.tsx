import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { Icon } from '../../components/icons.tsx';
import type { FilterDefinition } from '../../components/list/Filters.tsx';
import { Count, ListTable } from '../../components/list/ListTable.tsx';
import { PAGE_SIZES, useListState, type ListState } from '../../components/list/useListState.ts';
import { PageHeader } from '../../components/Page.tsx';
import { useGranted } from '../../data/auth/queries.ts';
import { api, unwrap } from '../../data/client.ts';
import { jobKeys, type JobKind, type JobListQuery } from '../../data/jobs/keys.ts';
import { jobPaths as apiPaths } from '../../data/jobs/paths.ts';
import { presetKeys } from '../../data/presets/keys.ts';
import { queryClient } from '../../data/query-client.ts';
import { useJobs } from '../../data/jobs/queries.ts';
import { useNodeSummaries } from '../../data/system/queries.ts';
import { usePageTitle } from '../../shell/breadcrumbs.tsx';
import { JobBulkActions, hasBulkActions } from './JobBulkActions.tsx';
import { jobColumns } from './jobColumns.tsx';
import { JobRowActionsProvider } from './jobRowActions.tsx';
import { INPUT_TYPE_OPTIONS, JOB_KINDS, OUTPUT_TYPE_OPTIONS, VIDEO_TYPE_OPTIONS, jobGrants, jobPaths, statusFilterOptions, type JobKindConfig } from './jobLabels.ts';
import { useJobListLive } from './useJobListLive.ts';

const FILTER_KEYS = ['type', 'status', 'node', 'preset', 'outputTypes', 'inputTypes'] as const;
const NO_VALUES: string[] = [];
const rowKey = (job: { id: number }) => job.id;

/** Only the values the API knows go into the query (a hand-edited URL must not make it fail). */
function pick<T extends string>(values: string[] | undefined, allowed: readonly { value: string }[]): T[] {
  const known = new Set(allowed.map((o) => o.value));
  return (values ?? []).filter((v) => known.has(v)) as T[];
}
const ids = (values: string[] | undefined) => (values ?? []).filter((v) => /^[1-9]\d{0,9}$/.test(v));
const csv = (values: string[]) => (values.length ? values.join(',') : undefined);

/** The list state as the API's query: search, filters, sort (ID or Name) and the page. */
export function jobListQuery(list: ListState, kind: JobKind): JobListQuery {
  const f = list.filters;
  return {
    search: list.search || undefined,
    type: pick<'LIVE' | 'VOD'>(f.type, VIDEO_TYPE_OPTIONS)[0],
    status: pick<NonNullable<JobListQuery['status']>>(f.status, statusFilterOptions(kind))[0],
    node: csv(ids(f.node)),
    preset: JOB_KINDS[kind].hasPreset ? csv(ids(f.preset)) : undefined,
    outputTypes: csv(pick(f.outputTypes, OUTPUT_TYPE_OPTIONS)),
    inputTypes: csv(pick(f.inputTypes, INPUT_TYPE_OPTIONS)),
    sort: list.sort === 'name' ? 'name' : 'id',
    order: list.order,
    page: list.page,
    size: list.size,
  };
}

/**
 * Opened by a link or a reload: ask for the rows the moment this module loads, as useListState
 * will read the URL. React reveals a lazy page only 300 ms after its fallback showed; the rows
 * arrive meanwhile instead of after it.
 */
function prefetchFromLocation(): void {
  const match = /^\/my\/(relay|encoding)s\/?$/.exec(window.location.pathname);
  if (!match) return;
  const kind = match[1] as JobKind;
  const params = new URLSearchParams(window.location.search);
  const size = Number(params.get('size'));
  const page = Number(params.get('page'));
  const filters: Record<string, string[]> = {};
  for (const key of FILTER_KEYS) filters[key] = params.getAll(key).filter(Boolean);
  const query = jobListQuery(
    {
      search: params.get('search') ?? '',
      page: Number.isInteger(page) && page > 0 ? page : 1,
      size: (PAGE_SIZES as readonly number[]).includes(size) ? size : 25,
      sort: params.get('sort') ?? 'id',
      order: params.get('order') === 'asc' ? 'asc' : 'desc',
      filters,
    },
    kind,
  );
  void queryClient.prefetchQuery({ queryKey: jobKeys.list(kind, query), queryFn: ({ signal }) => unwrap(api.GET(apiPaths(kind).list, { params: { query }, signal })) });
}
prefetchFromLocation();

/**
 * The Preset filter's choices: every video preset (GET /api/presets/video, sorted by name), and a
 * chosen one that no longer exists under its id. Asked for on the encoding list only.
 */
function usePresetOptions(enabled: boolean, chosen: string[]): { value: string; label: string }[] {
  const presets = useQuery({ queryKey: presetKeys.list('video'), queryFn: ({ signal }) => unwrap(api.GET('/api/presets/video', { signal })), enabled });
  return useMemo(() => {
    const options = (presets.data?.items ?? []).map((preset) => ({ value: String(preset.id), label: preset.name }));
    for (const id of chosen) if (!options.some((o) => o.value === id)) options.push({ value: id, label: `Preset ${id}` });
    return options;
  }, [presets.data, chosen]);
}

function useFilters(config: JobKindConfig, chosenPresets: string[]): FilterDefinition[] {
  const nodes = useNodeSummaries();
  const presets = usePresetOptions(config.hasPreset, chosenPresets);
  const nodeOptions = useMemo(() => (nodes.data?.items ?? []).map((node) => ({ value: String(node.id), label: node.name })), [nodes.data]);
  return useMemo(() => {
    const filters: FilterDefinition[] = [
      { key: 'type', label: 'Type', options: VIDEO_TYPE_OPTIONS },
      { key: 'status', label: 'Status', options: statusFilterOptions(config.kind) },
      { key: 'node', label: 'Node', options: nodeOptions, multiple: true },
    ];
    if (config.hasPreset) filters.push({ key: 'preset', label: 'Preset', options: presets, multiple: true });
    filters.push({ key: 'outputTypes', label: 'Output types', options: OUTPUT_TYPE_OPTIONS, multiple: true });
    filters.push({ key: 'inputTypes', label: 'Input types', options: INPUT_TYPE_OPTIONS, multiple: true });
    return filters;
  }, [config, nodeOptions, presets]);
}

/**
 * /my/relays and /my/encodings (spec 01 §2.3, §2.5): one page per kind, paged, searched, filtered
 * and sorted by the server (a list of 10,000 jobs costs one page of rows), updated live.
 */
export default function JobListPage({ kind }: { kind: JobKind }) {
  const config = JOB_KINDS[kind];
  usePageTitle(config.title);
  const granted = useGranted();
  const grants = useMemo(() => jobGrants(kind, granted), [kind, granted]);
  const list = useListState({ filterKeys: FILTER_KEYS, defaultSort: 'id', defaultOrder: 'desc' });
  const jobs = useJobs(kind, jobListQuery(list, kind));
  useJobListLive(config.topic);

  const filters = useFilters(config, list.filters.preset ?? NO_VALUES);
  const columns = useMemo(() => jobColumns(config, grants), [config, grants]);
  const counts = jobs.data?.counts;
  const bulk = hasBulkActions(grants);

  return (
    <div className="page page-wide job-list">
      <PageHeader
        title={config.title}
        actions={
          grants.edit && (
            <Link to={jobPaths.edit(kind)} className="button">
              <Icon name="plus" />
              {config.addLabel}
            </Link>
          )
        }
      />
      <JobRowActionsProvider kind={kind}>
        <ListTable
          label={config.title}
          list={list}
          columns={columns}
          rows={jobs.data?.items}
          total={jobs.data?.total}
          rowKey={rowKey}
          loading={jobs.isPending}
          fetching={jobs.isPlaceholderData}
          error={jobs.error}
          emptyText={config.emptyText}
          searchPlaceholder="Enter Name or ID"
          filters={filters}
          rowClassName={(job) => (job.active ? undefined : 'is-off')}
          bulkActions={bulk ? (selected, clear) => <JobBulkActions config={config} grants={grants} selected={selected} clearSelection={clear} /> : undefined}
          footer={
            <>
              <Count label="Total" value={counts?.total} />
              <Count label="Active" value={counts?.active} tone="success" />
              <Count label="Failed" value={counts?.failed} tone={counts?.failed ? 'danger' : undefined} />
              <Count label="Waiting" value={counts?.waiting} />
            </>
          }
        />
      </JobRowActionsProvider>
    </div>
  );
}
