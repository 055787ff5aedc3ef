import { useState } from 'react';
import { DEFAULT_PAGE_SIZE, type PageSize } from '@betdesk/contract';
import type { DataTablePaging } from './data-table.tsx';

/** Page, page size and search of a remote-paged table: a new size or search starts at page 1. */
export function useTableState(initial: { perPage?: PageSize } = {}) {
  const [page, setPage] = useState(1);
  const [perPage, setPerPageState] = useState<PageSize>(initial.perPage ?? DEFAULT_PAGE_SIZE);
  const [search, setSearchState] = useState('');
  const setPerPage = (next: PageSize) => {
    setPerPageState(next);
    setPage(1);
  };
  const setSearch = (next: string) => {
    setSearchState(next);
    setPage(1);
  };
  return {
    page,
    perPage,
    search,
    setPage,
    setPerPage,
    setSearch,
    /** The DataTable's `paging` prop for a result of `totalRecords` rows. */
    paging(totalRecords: number): DataTablePaging {
      return { page, perPage, totalRecords, onPageChange: setPage, onPerPageChange: setPerPage };
    },
  };
}

export type TableState = ReturnType<typeof useTableState>;
