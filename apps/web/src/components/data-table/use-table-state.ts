import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { ListName, PageSize, SortDirection } from '@betdesk/contract';
import type { DataTableDateRange, DataTablePaging, DataTableSearch, DataTableSorting } from './data-table.tsx';
import {
  filtersOf,
  firstDirection,
  listDefinition,
  listQueryOf,
  readTableParams,
  writeTableParams,
  type TableParams,
} from './table-params.ts';

export interface TableStateOptions {
  perPage?: PageSize;
  /** Names this table's URL parameters (`bets.page`…) when a screen shows more than one table. */
  prefix?: string;
}

/**
 * THE state of a remote-paged list, kept in the URL: page, page size, search, sort and date range.
 * `list` names its entry of the contract's LISTS, which decides which headers sort and whether a
 * date range applies; a list outside LISTS (e.g. users) pages and searches only. `query` goes to
 * the list endpoint, `filters` to its CSV export, and the DataTable gets `paging`, `sorting`,
 * `dateRange` and `searchBox` from here, so every list behaves the same.
 */
export function useTableState(list?: ListName, options: TableStateOptions = {}) {
  const [params, setParams] = useSearchParams();
  const def = listDefinition(list);
  const { prefix, perPage: defaultPerPage } = options;
  const state = useMemo(
    () => readTableParams(params, def, { prefix, perPage: defaultPerPage }),
    [params, def, prefix, defaultPerPage],
  );

  const update = useCallback(
    (patch: Partial<TableParams>) =>
      setParams((current) => writeTableParams(current, patch, def, { prefix, perPage: defaultPerPage }), { replace: true }),
    [setParams, def, prefix, defaultPerPage],
  );

  const setPage = useCallback((page: number) => update({ page }), [update]);
  const setPerPage = useCallback((perPage: PageSize) => update({ perPage }), [update]);
  const setSearch = useCallback((search: string) => update({ search }), [update]);
  const setRange = useCallback((from: string | undefined, to: string | undefined) => update({ from, to }), [update]);
  const setSort = useCallback(
    (field: string) => {
      if (!def) return;
      const dir: SortDirection =
        field === state.sort ? (state.dir === 'asc' ? 'desc' : 'asc') : firstDirection(def, field);
      update({ sort: field, dir });
    },
    [def, state.sort, state.dir, update],
  );

  const setSortTo = useCallback((field: string, dir: SortDirection) => update({ sort: field, dir }), [update]);

  const query = useMemo(() => listQueryOf(state, def), [state, def]);
  const filters = useMemo(() => filtersOf(state, def), [state, def]);

  const sorting: DataTableSorting | undefined = useMemo(
    () =>
      def && state.sort && state.dir
        ? { sorts: def.sorts, sort: state.sort, dir: state.dir, onSort: setSort, onSortTo: setSortTo }
        : undefined,
    [def, state.sort, state.dir, setSort, setSortTo],
  );
  const dateRange: DataTableDateRange | undefined = useMemo(
    () => (def?.dated ? { from: state.from, to: state.to, onChange: setRange } : undefined),
    [def, state.from, state.to, setRange],
  );

  return {
    ...state,
    list,
    query,
    filters,
    setPage,
    setPerPage,
    setSearch,
    setSort,
    setRange,
    sorting,
    dateRange,
    /** The DataTable's `search` prop, starting from the URL's search text. */
    searchBox(placeholder?: string): DataTableSearch {
      return { placeholder, value: state.search, onSearch: setSearch };
    },
    /** The DataTable's `paging` prop for a list response (its `total_records` and `total_capped`). */
    pagingOf(data: { total_records?: number; total_capped?: boolean } | undefined): DataTablePaging {
      return this.paging(data?.total_records ?? 0, data?.total_capped ?? false);
    },
    /**
     * The DataTable's `search`, `sorting` and `paging` props for a list response, and its `exportCsv`
     * (this table's filters) when given the export's path and file name.
     */
    listProps(placeholder: string, data: { total_records?: number; total_capped?: boolean } | undefined, csv?: { path: string; filename: string }) {
      return {
        search: this.searchBox(placeholder),
        sorting,
        paging: this.pagingOf(data),
        ...(csv && { exportCsv: { path: csv.path, query: filters, filename: csv.filename } }),
      };
    },
    /** The DataTable's `paging` prop for `totalRecords` rows (`capped`: the count stopped at the cap). */
    paging(totalRecords: number, capped = false): DataTablePaging {
      return { page: state.page, perPage: state.perPage, totalRecords, capped, onPageChange: setPage, onPerPageChange: setPerPage };
    },
  };
}

export type TableState = ReturnType<typeof useTableState>;
