import { useState } from 'react';
import { DEFAULT_PAGE_SIZE, type PageSize } from '@betdesk/contract';

/** Page, page size and search of a remote-paged table: a new size or search starts at page 1. */
export function useTableState(initial: { perPage?: PageSize } = {}) {
  const [page, setPage] = useState(1);
  const [perPage, setPerPageState] = useState<PageSize>(initial.perPage ?? DEFAULT_PAGE_SIZE);
  const [search, setSearchState] = useState('');
  return {
    page,
    perPage,
    search,
    setPage,
    setPerPage(next: PageSize) {
      setPerPageState(next);
      setPage(1);
    },
    setSearch(next: string) {
      setSearchState(next);
      setPage(1);
    },
  };
}

export type TableState = ReturnType<typeof useTableState>;
