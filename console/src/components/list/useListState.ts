import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';

export const PAGE_SIZES = [10, 25, 50, 100] as const;

export type SortOrder = 'asc' | 'desc';

export interface ListState {
  search: string;
  page: number;
  size: number;
  sort: string | undefined;
  order: SortOrder;
  /** Selected values per filter key; a single-select filter holds at most one. */
  filters: Record<string, string[]>;
}

export interface ListStateApi extends ListState {
  setSearch(search: string): void;
  setPage(page: number): void;
  setSize(size: number): void;
  /** Sort by this key: ascending first, a second click reverses. */
  toggleSort(key: string): void;
  setFilter(key: string, values: string[]): void;
  /** Search and filters back to none (sort and page size stay). */
  clearAll(): void;
  /** A search or a filter narrows the list. */
  isFiltered: boolean;
}

export interface ListStateOptions {
  filterKeys?: readonly string[];
  defaultSort?: string;
  defaultOrder?: SortOrder;
  defaultSize?: number;
}

/**
 * The state of a list screen (search, filters, sort, page, page size), kept in the URL so that a
 * reload, a shared link or the Back button shows the same page. A new search, filter or page size
 * goes back to page 1.
 */
export function useListState({ filterKeys = [], defaultSort, defaultOrder = 'asc', defaultSize = 25 }: ListStateOptions = {}): ListStateApi {
  const [params, setParams] = useSearchParams();
  const keys = filterKeys.join(',');

  const state = useMemo<ListState>(() => {
    const size = Number(params.get('size'));
    const page = Number(params.get('page'));
    const filters: Record<string, string[]> = {};
    for (const key of keys ? keys.split(',') : []) filters[key] = params.getAll(key).filter(Boolean);
    return {
      search: params.get('search') ?? '',
      page: Number.isInteger(page) && page > 0 ? page : 1,
      size: (PAGE_SIZES as readonly number[]).includes(size) ? size : defaultSize,
      sort: params.get('sort') ?? defaultSort,
      order: params.get('order') === 'desc' ? 'desc' : params.get('order') === 'asc' ? 'asc' : defaultOrder,
      filters,
    };
  }, [params, keys, defaultSort, defaultOrder, defaultSize]);

  const update = useCallback(
    (change: (next: URLSearchParams) => void, resetPage = true) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          change(next);
          if (resetPage) next.delete('page');
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  const setOrDelete = (p: URLSearchParams, key: string, value: string | undefined) => (value ? p.set(key, value) : p.delete(key));

  return {
    ...state,
    isFiltered: state.search !== '' || Object.values(state.filters).some((v) => v.length > 0),
    setSearch: (search) => update((p) => setOrDelete(p, 'search', search.trim())),
    setPage: (page) => update((p) => setOrDelete(p, 'page', page > 1 ? String(page) : undefined), false),
    setSize: (size) => update((p) => setOrDelete(p, 'size', size === defaultSize ? undefined : String(size))),
    toggleSort: (key) =>
      update((p) => {
        const order: SortOrder = state.sort === key && state.order === 'asc' ? 'desc' : 'asc';
        p.set('sort', key);
        p.set('order', order);
      }),
    setFilter: (key, values) =>
      update((p) => {
        p.delete(key);
        for (const value of values) p.append(key, value);
      }),
    clearAll: () =>
      update((p) => {
        p.delete('search');
        for (const key of Object.keys(state.filters)) p.delete(key);
      }),
  };
}

/**
 * The same state held by the component instead of the URL: for a list inside a modal, whose
 * paging and sort must not change the address (or the list) of the screen beneath it.
 */
export function useLocalListState({ defaultSort, defaultOrder = 'asc', defaultSize = 25 }: Omit<ListStateOptions, 'filterKeys'> = {}): ListStateApi {
  const [state, setState] = useState<ListState>({ search: '', page: 1, size: defaultSize, sort: defaultSort, order: defaultOrder, filters: {} });
  return useMemo<ListStateApi>(
    () => ({
      ...state,
      isFiltered: state.search !== '' || Object.values(state.filters).some((v) => v.length > 0),
      setSearch: (search) => setState((s) => ({ ...s, search: search.trim(), page: 1 })),
      setPage: (page) => setState((s) => ({ ...s, page: Math.max(1, page) })),
      setSize: (size) => setState((s) => ({ ...s, size, page: 1 })),
      toggleSort: (key) => setState((s) => ({ ...s, sort: key, order: s.sort === key && s.order === 'asc' ? 'desc' : 'asc', page: 1 })),
      setFilter: (key, values) => setState((s) => ({ ...s, filters: { ...s.filters, [key]: values }, page: 1 })),
      clearAll: () => setState((s) => ({ ...s, search: '', filters: {}, page: 1 })),
    }),
    [state],
  );
}
