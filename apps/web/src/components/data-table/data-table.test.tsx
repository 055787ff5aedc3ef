import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PageSize } from '@betdesk/contract';
import { renderWithProviders } from '@/testing/test-utils.tsx';
import { onAPhone } from '@/testing/media.ts';
import { setBearerToken } from '@/lib/http.ts';
import { fireEvent } from '@testing-library/react';
import { DataTable, pagingSummary, type DataTableColumn, type DataTableSorting } from './data-table.tsx';
import { MIN_COLUMN_WIDTH, tableMinWidth } from './table-parts.tsx';

interface Client {
  id: number;
  name: string;
  phone: string;
}

const columns: DataTableColumn<Client>[] = [
  { key: 'name', header: 'Name' },
  { key: 'phone', header: 'Phone', render: (row) => <b>{row.phone}</b> },
];

function clients(count: number): Client[] {
  return Array.from({ length: count }, (_, i) => ({ id: i + 1, name: `Client ${i + 1}`, phone: `07${i}` }));
}

beforeEach(() => {
  // jsdom has no layout: give the scroll window a real height so the virtualizer has one to fill.
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(560);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(800);
});

afterEach(() => vi.restoreAllMocks());

describe('DataTable', () => {
  it('shows the rows it is given through the columns config', () => {
    renderWithProviders(<DataTable columns={columns} rows={clients(3)} rowKey={(r) => r.id} />);
    expect(screen.getByRole('columnheader', { name: 'Name' })).toBeInTheDocument();
    expect(screen.getAllByTestId('table-row')).toHaveLength(3);
    expect(screen.getByText('Client 2')).toBeInTheDocument();
    expect(screen.getByText('071').tagName).toBe('B');
  });

  it('heads a column of buttons "Actions" for screen readers, so no header is empty', () => {
    const withActions: DataTableColumn<Client>[] = [...columns, { key: 'actions', header: '', render: () => <button type="button">Edit</button> }];
    renderWithProviders(<DataTable columns={withActions} rows={clients(2)} rowKey={(r) => r.id} />);
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Name', 'Phone', 'Actions']);
  });

  it('renders far fewer rows than a 2,000-row page holds', () => {
    renderWithProviders(<DataTable columns={columns} rows={clients(2000)} rowKey={(r) => r.id} />);
    const rendered = screen.getAllByTestId('table-row').length;
    expect(rendered).toBeGreaterThan(5);
    expect(rendered).toBeLessThan(100);
    expect(screen.getByText('Client 1')).toBeInTheDocument();
    expect(screen.queryByText('Client 2000')).not.toBeInTheDocument();
  });

  it('says so when there is nothing to show, and shows a loader while loading', () => {
    const { rerender } = renderWithProviders(
      <DataTable columns={columns} rows={[]} rowKey={(r) => r.id} emptyText="No clients yet." />,
    );
    expect(screen.getByText('No clients yet.')).toBeInTheDocument();
    rerender(<DataTable columns={columns} rows={[]} rowKey={(r) => r.id} loading />);
    expect(screen.getByLabelText('Loading')).toBeInTheDocument();
  });

  it('pages remotely: total records, page change and the page sizes of the spec', async () => {
    const onPageChange = vi.fn();
    const onPerPageChange = vi.fn();
    renderWithProviders(
      <DataTable
        columns={columns}
        rows={clients(50)}
        rowKey={(r) => r.id}
        paging={{ page: 1, perPage: 50, totalRecords: 1234, onPageChange, onPerPageChange }}
      />,
    );
    expect(screen.getByTestId('table-total')).toHaveTextContent('1–50 of 1,234 records');

    const sizes = screen.getByLabelText('Rows per page');
    expect(within(sizes).getAllByRole('option').map((o) => o.textContent)).toEqual(['50', '100', '500', '1000', '2000']);
    expect(sizes).toHaveValue('50');

    await userEvent.selectOptions(sizes, '500');
    expect(onPerPageChange).toHaveBeenCalledWith(500);

    await userEvent.click(screen.getByRole('button', { name: '2' }));
    expect(onPageChange).toHaveBeenCalledWith(2);
  });

  it('goes back to page 1 when the page size changes', async () => {
    function Paged() {
      const [page, setPage] = useState(3);
      const [perPage, setPerPage] = useState<PageSize>(50);
      return (
        <DataTable
          columns={columns}
          rows={clients(10)}
          rowKey={(r) => r.id}
          paging={{
            page,
            perPage,
            totalRecords: 5000,
            onPageChange: setPage,
            onPerPageChange: (size) => {
              setPerPage(size);
              setPage(1);
            },
          }}
        />
      );
    }
    renderWithProviders(<Paged />);
    expect(screen.getByTestId('table-total')).toHaveTextContent('101–150 of 5,000 records');
    await userEvent.selectOptions(screen.getByLabelText('Rows per page'), '1000');
    expect(screen.getByTestId('table-total')).toHaveTextContent('1–1,000 of 5,000 records');
  });

  it('searches on Enter only', async () => {
    const onSearch = vi.fn();
    renderWithProviders(
      <DataTable columns={columns} rows={clients(2)} rowKey={(r) => r.id} search={{ onSearch }} />,
    );
    const input = screen.getByLabelText('Search');
    await userEvent.type(input, 'wanjiru');
    expect(onSearch).not.toHaveBeenCalled();
    await userEvent.type(input, '{Enter}');
    expect(onSearch).toHaveBeenCalledExactlyOnceWith('wanjiru');
  });

  it('downloads the CSV export with the session token, from the server path it is given', async () => {
    setBearerToken('session-token');
    const fetchMock = vi.fn(async () => new Response('name,phone\n', { status: 200, headers: { 'content-type': 'text/csv' } }));
    vi.stubGlobal('fetch', fetchMock);
    URL.createObjectURL = vi.fn(() => 'blob:csv');
    URL.revokeObjectURL = vi.fn();
    renderWithProviders(
      <DataTable
        columns={columns}
        rows={[]}
        rowKey={(r) => r.id}
        exportCsv={{ path: '/api/clients/export', query: { search: 'x' }, filename: 'clients.csv' }}
      />,
    );
    await userEvent.click(screen.getByTestId('table-export'));
    await waitFor(() => expect(URL.createObjectURL).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/clients/export?search=x');
    expect(new Headers(init.headers).get('Authorization')).toBe('Bearer session-token');
    vi.unstubAllGlobals();
    setBearerToken(null);
  });

  it('keeps a minimum width so a phone scrolls the table sideways instead of squeezing it', () => {
    const wide: DataTableColumn<Client>[] = [
      ...columns,
      { key: 'id', header: 'Id', width: 80 },
      { key: 'notes', header: 'Notes', minWidth: 300 },
    ];
    renderWithProviders(<DataTable columns={wide} rows={clients(2)} rowKey={(r) => r.id} />);
    expect(screen.getByTestId('table')).toHaveStyle({ minWidth: `${2 * MIN_COLUMN_WIDTH + 80 + 300}px` });
    expect(tableMinWidth(columns)).toBe(2 * MIN_COLUMN_WIDTH);
  });

  it('sizes a figure column to its figures, and wraps the longest headers before the table outgrows its box', () => {
    const figures: DataTableColumn<Client>[] = [
      { key: 'name', header: 'Name' },
      ...[1, 2, 3, 4, 5].map((k): DataTableColumn<Client> => ({ key: `f${k}`, header: 'Net revenue retention', align: 'right', width: 60, render: (r) => `KES ${r.id},000.00` })),
    ];
    // jsdom has no layout: a header is 150 px on one line and 40 wrapped, a figure 60 px.
    vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (this: Element) {
      const th = this.closest('th');
      const width = th ? (th.hasAttribute('data-measure-min') ? 40 : 150) : this.closest('td') ? 60 : 0;
      return { width, height: 40, top: 0, left: 0, right: width, bottom: 40, x: 0, y: 0, toJSON: () => ({}) } as DOMRect;
    });
    renderWithProviders(<DataTable columns={figures} rows={clients(2)} rowKey={(r) => r.id} />);
    const headers = screen.getAllByRole('columnheader');
    // Figure columns are `fit` by default: measured, never cut at their first guess of 60 px.
    expect(headers.slice(1).every((th) => th.hasAttribute('data-fit'))).toBe(true);
    // On one line: 105 + 5 × 166 = 935 px in an 800 px box; two headers wrap (76 px each): 755 px.
    expect(headers.filter((th) => th.hasAttribute('data-wrap'))).toHaveLength(2);
    expect(screen.getByTestId('table')).toHaveStyle({ minWidth: '755px' });
    expect(headers[1]).toHaveStyle({ width: '76px' });
    expect(headers[5]).toHaveStyle({ width: '166px' });
  });

  it('makes a header clickable exactly when the list can be sorted by its field, and shows the order', async () => {
    const onSort = vi.fn();
    const sorting: DataTableSorting = { sorts: ['name'], sort: 'name', dir: 'asc', onSort };
    renderWithProviders(<DataTable columns={columns} rows={clients(3)} rowKey={(r) => r.id} sorting={sorting} />);
    const name = screen.getByRole('columnheader', { name: /Name/ });
    expect(name).toHaveAttribute('aria-sort', 'ascending');
    expect(within(name).getByRole('button')).toBeInTheDocument();
    const phone = screen.getByRole('columnheader', { name: 'Phone' });
    expect(phone).not.toHaveAttribute('aria-sort');
    expect(within(phone).queryByRole('button')).not.toBeInTheDocument();
    await userEvent.click(within(name).getByRole('button'));
    expect(onSort).toHaveBeenCalledExactlyOnceWith('name');
  });

  it('renders a row once: scrolling renders only the rows that come into view', () => {
    const render = vi.fn((row: Client) => row.name);
    const counted: DataTableColumn<Client>[] = [{ key: 'name', header: 'Name', render }, columns[1]!];
    renderWithProviders(<DataTable columns={counted} rows={clients(2000)} rowKey={(r) => r.id} />);
    const firstWindow = render.mock.calls.length;
    const renderedRows = new Set(render.mock.calls.map(([row]) => row.id));
    expect(firstWindow).toBe(renderedRows.size);

    const scroller = screen.getByTestId('table-scroller');
    scroller.scrollTop = 40 * 5;
    fireEvent.scroll(scroller);
    const after = render.mock.calls.slice(firstWindow).map(([row]) => row.id);
    expect(after.length).toBeGreaterThan(0);
    // Only rows new to the window were rendered; none on screen before was rendered again.
    expect(after.every((id) => !renderedRows.has(id))).toBe(true);
  });

  it('says the range with separators, the right plural, and 10,000+ or 1,000+ when the count was capped', () => {
    expect(pagingSummary(1, 2000, 2500)).toBe('1–2,000 of 2,500 records');
    expect(pagingSummary(1, 50, 1)).toBe('1–1 of 1 record');
    expect(pagingSummary(1, 50, 0)).toBe('0 records');
    expect(pagingSummary(3, 50, 10_000, true)).toBe('101–150 of 10,000+ records');
    expect(pagingSummary(1, 50, 1_000, true)).toBe('1–50 of 1,000+ records');
  });

  it('shows each row as a card with its fields and actions on a phone', () => {
    onAPhone();
    const withAction: DataTableColumn<Client>[] = [
      ...columns,
      { key: 'act', header: '', render: (r) => <button type="button">Claim {r.name}</button> },
    ];
    renderWithProviders(<DataTable columns={withAction} rows={clients(2)} rowKey={(r) => r.id} />);
    expect(screen.getByTestId('data-table')).toHaveAttribute('data-layout', 'cards');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const cards = screen.getAllByTestId('table-card');
    expect(cards).toHaveLength(2);
    expect(within(cards[0]!).getByText('Client 1')).toBeInTheDocument();
    expect(within(cards[0]!).getByText('Phone')).toBeInTheDocument();
    expect(within(cards[0]!).getByRole('button', { name: 'Claim Client 1' })).toBeInTheDocument();
  });

  it('offers the sorts as a select on a phone, where there are no headers to click', async () => {
    onAPhone();
    const onSortTo = vi.fn();
    renderWithProviders(
      <DataTable
        columns={columns}
        rows={clients(2)}
        rowKey={(r) => r.id}
        sorting={{ sorts: ['name'], sort: 'name', dir: 'asc', onSort: vi.fn(), onSortTo }}
      />,
    );
    const select = screen.getByLabelText('Sort by');
    expect(select).toHaveValue('name:asc');
    await userEvent.selectOptions(select, 'name:desc');
    expect(onSortTo).toHaveBeenCalledExactlyOnceWith('name', 'desc');
  });

  it('pages only as deep as the server serves, and says how to reach the rest', () => {
    const paging = { page: 1, perPage: 50 as const, totalRecords: 500_000, onPageChange: vi.fn(), onPerPageChange: vi.fn() };
    const { rerender } = renderWithProviders(<DataTable columns={columns} rows={clients(3)} rowKey={(r) => r.id} paging={paging} />);
    expect(screen.getByTestId('table-page-cap')).toHaveTextContent('narrow the list with a search or dates');
    expect(screen.getByRole('button', { name: '2001' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '10000' })).not.toBeInTheDocument();
    rerender(<DataTable columns={columns} rows={clients(3)} rowKey={(r) => r.id} paging={{ ...paging, totalRecords: 5000 }} />);
    expect(screen.queryByTestId('table-page-cap')).not.toBeInTheDocument();
  });
});
