import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { useTableState } from './use-table-state.ts';

function wrapperAt(url: string) {
  return ({ children }: { children: ReactNode }) => <MemoryRouter initialEntries={[url]}>{children}</MemoryRouter>;
}

function useStateAndUrl(...args: Parameters<typeof useTableState>) {
  const table = useTableState(...args);
  const location = useLocation();
  return { table, search: location.search };
}

describe('useTableState', () => {
  it('reads a bookmarked view from the URL and sends it to the list endpoint and its export', () => {
    const { result } = renderHook(() => useStateAndUrl('mpesaTransactions'), {
      wrapper: wrapperAt('/mpesa?page=2&from=2026-11-17&to=2026-11-23&search=kamau'),
    });
    expect(result.current.table.query).toEqual({
      page: 2,
      perPage: 50,
      search: 'kamau',
      sort: 'transaction_timestamp',
      dir: 'desc',
      from: '2026-11-17',
      to: '2026-11-23',
    });
    expect(result.current.table.filters).not.toHaveProperty('page');
    expect(result.current.table.dateRange).toMatchObject({ from: '2026-11-17', to: '2026-11-23' });
  });

  it('clicking a header sorts by it, a second click turns the order, and the URL follows', () => {
    const { result } = renderHook(() => useStateAndUrl('closedBets'), { wrapper: wrapperAt('/bets/closed?page=3') });
    expect(result.current.table.sorting).toMatchObject({ sort: 'closed_on', dir: 'desc', sorts: ['closed_on', 'opened_on', 'stake', 'profit'] });
    act(() => result.current.table.setSort('stake'));
    expect(result.current.table.sorting).toMatchObject({ sort: 'stake', dir: 'desc' });
    expect(result.current.search).toBe('?sort=stake&dir=desc');
    act(() => result.current.table.setSort('stake'));
    expect(result.current.table.sorting).toMatchObject({ sort: 'stake', dir: 'asc' });
    expect(result.current.search).toBe('?sort=stake&dir=asc');
  });

  it('offers no sorting or dates for a list outside LISTS, and no dates for an undated list', () => {
    const plain = renderHook(() => useTableState(), { wrapper: wrapperAt('/users?from=2026-11-01') });
    expect(plain.result.current.sorting).toBeUndefined();
    expect(plain.result.current.dateRange).toBeUndefined();
    expect(plain.result.current.query).toEqual({ page: 1, perPage: 50 });
    const undated = renderHook(() => useTableState('openBets'), { wrapper: wrapperAt('/bets/open?from=2026-11-01') });
    expect(undated.result.current.dateRange).toBeUndefined();
    expect(undated.result.current.query).not.toHaveProperty('from');
  });

  it('a range and a page size start again from page 1', () => {
    const { result } = renderHook(() => useStateAndUrl('mpesaTransactions'), { wrapper: wrapperAt('/mpesa?page=5') });
    act(() => result.current.table.setRange('2026-11-01', '2026-11-30'));
    expect(result.current.table.page).toBe(1);
    expect(result.current.search).toBe('?from=2026-11-01&to=2026-11-30');
    act(() => result.current.table.setPage(2));
    act(() => result.current.table.setPerPage(500));
    expect(result.current.search).toBe('?from=2026-11-01&to=2026-11-30&perPage=500');
  });
});
