import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Icon } from '../icons.tsx';
import { MultiSelectFilter, SelectFilter, type FilterDefinition } from './Filters.tsx';
import { ItemsPerPage, Paginator } from './Paginator.tsx';
import { SearchBox } from './SearchBox.tsx';
import type { ListStateApi } from './useListState.ts';

export interface Column<T> {
  key: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  /** Sortable by this server-side key. */
  sortKey?: string;
  align?: 'left' | 'center' | 'right';
  width?: string;
  className?: string;
}

export interface ListTableProps<T> {
  /** Search, filters, sort and paging, from useListState. */
  list: ListStateApi;
  columns: readonly Column<T>[];
  rows: readonly T[] | undefined;
  /** Items matching search and filters (for the paginator). */
  total: number | undefined;
  rowKey: (row: T) => string | number;
  /** Accessible name of the table, e.g. "Users". */
  label: string;
  emptyText: string;
  loading?: boolean;
  /** A refetch is under way while older rows show. */
  fetching?: boolean;
  error?: unknown;
  searchPlaceholder?: string;
  filters?: readonly FilterDefinition[];
  /** Buttons at the right of the toolbar (Add New ...). */
  actions?: ReactNode;
  /** The counts at the left of the footer (Total, Active, Failed ...). */
  footer?: ReactNode;
  /** Check boxes per row and a bulk bar with these actions for the selected rows. */
  bulkActions?: (selected: T[], clearSelection: () => void) => ReactNode;
  rowClassName?: (row: T) => string | undefined;
  /** The footer's "Clear all filters" (default shown); a list without search or filters may leave it out. */
  clearAll?: boolean;
}

export const LOADING_TEXT = 'Loading ...';

/**
 * The list of every area: a toolbar (search debounced 800 ms, single and multi-select filters,
 * actions), sortable columns, optional row selection with a bulk bar, and a footer with the
 * counts, "Clear all filters", items per page and the paginator.
 */
export function ListTable<T>(props: ListTableProps<T>) {
  const { list, columns, rows, total = 0, rowKey, label, emptyText, loading, fetching, error, searchPlaceholder, filters = [], actions, footer, bulkActions, rowClassName, clearAll = true } = props;
  const selectable = Boolean(bulkActions);
  const [selected, setSelected] = useState<Map<string | number, T>>(new Map());

  // Drop selections that are no longer in the list after a refresh (deleted elsewhere ...).
  const visibleKeys = useMemo(() => new Set((rows ?? []).map(rowKey)), [rows, rowKey]);
  useEffect(() => {
    setSelected((current) => {
      const kept = new Map([...current].filter(([key]) => visibleKeys.has(key)));
      return kept.size === current.size ? current : kept;
    });
  }, [visibleKeys]);

  // A page past the end (its last rows were deleted): go to the last page there is.
  const lastPage = Math.max(1, Math.ceil(total / list.size));
  useEffect(() => {
    if (rows && !fetching && list.page > lastPage) list.setPage(lastPage);
  }, [rows, fetching, list, lastPage]);

  const pageRows = rows ?? [];
  const allOnPage = pageRows.length > 0 && pageRows.every((row) => selected.has(rowKey(row)));
  const someOnPage = pageRows.some((row) => selected.has(rowKey(row)));
  const clearSelection = () => setSelected(new Map());
  const toggleRow = (row: T, on: boolean) =>
    setSelected((current) => {
      const next = new Map(current);
      if (on) next.set(rowKey(row), row);
      else next.delete(rowKey(row));
      return next;
    });
  const togglePage = (on: boolean) =>
    setSelected((current) => {
      const next = new Map(current);
      for (const row of pageRows) on ? next.set(rowKey(row), row) : next.delete(rowKey(row));
      return next;
    });

  const columnCount = columns.length + (selectable ? 1 : 0);
  let body: ReactNode;
  if (error && pageRows.length === 0) {
    body = (
      <tr>
        <td colSpan={columnCount} className="table-message table-error" role="alert">
          {error instanceof Error ? error.message : 'The list could not be loaded.'}
        </td>
      </tr>
    );
  } else if (loading && !rows) {
    body = (
      <tr>
        <td colSpan={columnCount} className="table-message">
          {LOADING_TEXT}
        </td>
      </tr>
    );
  } else if (pageRows.length === 0) {
    body = (
      <tr>
        <td colSpan={columnCount} className="table-message">
          {emptyText}
        </td>
      </tr>
    );
  } else {
    body = pageRows.map((row) => {
      const key = rowKey(row);
      const isSelected = selected.has(key);
      return (
        <tr key={key} className={[isSelected ? 'is-selected' : '', rowClassName?.(row) ?? ''].join(' ').trim() || undefined}>
          {selectable && (
            <td className="cell-select">
              <input type="checkbox" aria-label={`Select row ${key}`} checked={isSelected} onChange={(e) => toggleRow(row, e.target.checked)} />
            </td>
          )}
          {columns.map((column) => (
            <td key={column.key} className={[column.className, column.align ? `align-${column.align}` : ''].join(' ').trim() || undefined}>
              {column.cell(row)}
            </td>
          ))}
        </tr>
      );
    });
  }

  return (
    <section className="list-table" aria-label={label}>
      {(searchPlaceholder !== undefined || filters.length > 0 || actions) && (
        <div className="list-toolbar">
          {searchPlaceholder !== undefined && <SearchBox value={list.search} onSearch={list.setSearch} placeholder={searchPlaceholder} />}
          {filters.map((filter) =>
            filter.multiple ? (
              <MultiSelectFilter key={filter.key} filter={filter} values={list.filters[filter.key] ?? []} onChange={(values) => list.setFilter(filter.key, values)} />
            ) : (
              <SelectFilter key={filter.key} filter={filter} value={list.filters[filter.key]?.[0]} onChange={(values) => list.setFilter(filter.key, values)} />
            ),
          )}
          <div className="list-toolbar-actions">{actions}</div>
        </div>
      )}

      {selectable && selected.size > 0 && (
        <div className="bulk-bar" role="region" aria-label="Bulk actions">
          <span className="bulk-count">{selected.size} selected</span>
          <div className="bulk-actions">{bulkActions?.([...selected.values()], clearSelection)}</div>
          <button type="button" className="link-button" onClick={clearSelection}>
            Clear selection
          </button>
        </div>
      )}

      <div className={`table-wrap${fetching && rows ? ' is-fetching' : ''}`}>
        <table className="table" aria-label={label} aria-busy={loading || fetching || undefined}>
          <thead>
            <tr>
              {selectable && (
                <th className="cell-select" scope="col">
                  <input
                    type="checkbox"
                    aria-label="Select all rows on this page"
                    checked={allOnPage}
                    ref={(el) => {
                      if (el) el.indeterminate = someOnPage && !allOnPage;
                    }}
                    disabled={pageRows.length === 0}
                    onChange={(e) => togglePage(e.target.checked)}
                  />
                </th>
              )}
              {columns.map((column) => {
                const sorted = column.sortKey && list.sort === column.sortKey;
                return (
                  <th
                    key={column.key}
                    scope="col"
                    style={column.width ? { width: column.width } : undefined}
                    className={[column.className, column.align ? `align-${column.align}` : ''].join(' ').trim() || undefined}
                    aria-sort={sorted ? (list.order === 'asc' ? 'ascending' : 'descending') : undefined}
                  >
                    {column.sortKey ? (
                      <button type="button" className={`sort-button${sorted ? ' is-sorted' : ''}`} onClick={() => list.toggleSort(column.sortKey as string)}>
                        {column.header}
                        <Icon name={sorted ? (list.order === 'asc' ? 'arrowUp' : 'arrowDown') : 'sort'} size={12} />
                      </button>
                    ) : (
                      column.header
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>{body}</tbody>
        </table>
      </div>

      <div className="list-footer">
        <div className="list-counts">{footer}</div>
        {clearAll && (
          <button type="button" className="link-button" disabled={!list.isFiltered} onClick={list.clearAll}>
            Clear all filters
          </button>
        )}
        <div className="list-paging">
          <ItemsPerPage size={list.size} onChange={list.setSize} />
          <Paginator page={list.page} size={list.size} total={total} onPage={list.setPage} />
        </div>
      </div>
    </section>
  );
}

/** One figure of the footer counts: "Total users: 12". */
export function Count({ label, value, tone }: { label: string; value: number | undefined; tone?: 'success' | 'danger' }) {
  return (
    <span className={`count${tone ? ` count-${tone}` : ''}`}>
      {label}: <strong>{value ?? '–'}</strong>
    </span>
  );
}
