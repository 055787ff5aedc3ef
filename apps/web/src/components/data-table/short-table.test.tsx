import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderWithProviders } from '@/testing/test-utils.tsx';
import { onAPhone } from '@/testing/media.ts';
import { ShortTable } from './short-table.tsx';
import type { DataTableColumn } from './table-parts.tsx';

interface Payment {
  ref: string;
  name: string;
  amount: string;
}

const columns: DataTableColumn<Payment>[] = [
  { key: 'name', header: 'Subscriber', card: 'title' },
  { key: 'ref', header: 'Ref' },
  { key: 'amount', header: 'Amount', align: 'right' },
  { key: 'act', header: '', render: (p) => <button type="button">Open {p.ref}</button> },
];

const payments: Payment[] = Array.from({ length: 12 }, (_, i) => ({
  ref: `QK${i}`,
  name: `Payer ${i + 1}`,
  amount: `KES ${(i + 1) * 100}.00`,
}));

afterEach(() => vi.restoreAllMocks());

describe('ShortTable (the dashboard’s tables)', () => {
  it('draws every row it is given under the same headers as the paged tables, with no pager', () => {
    onAPhone(false);
    renderWithProviders(<ShortTable columns={columns} rows={payments} rowKey={(p) => p.ref} />);
    expect(screen.getByRole('columnheader', { name: 'Subscriber' })).toBeInTheDocument();
    expect(screen.getAllByTestId('table-row')).toHaveLength(12);
    expect(screen.getByText('Payer 12')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Open QK11' })).toBeInTheDocument();
    expect(screen.queryByTestId('table-page-size')).not.toBeInTheDocument();
    expect(screen.queryByTestId('table-total')).not.toBeInTheDocument();
  });

  it('shows each row as a card with its title, fields and actions on a phone', () => {
    onAPhone(true);
    renderWithProviders(<ShortTable columns={columns} rows={payments.slice(0, 2)} rowKey={(p) => p.ref} />);
    expect(screen.getByTestId('data-table')).toHaveAttribute('data-layout', 'cards');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const cards = screen.getAllByTestId('table-card');
    expect(cards).toHaveLength(2);
    expect(within(cards[1]!).getByText('Payer 2')).toBeInTheDocument();
    expect(within(cards[1]!).getByText('Amount')).toBeInTheDocument();
    expect(within(cards[1]!).getByRole('button', { name: 'Open QK1' })).toBeInTheDocument();
  });

  it('says so when there is nothing to show, and shows a loader while loading', () => {
    onAPhone(false);
    const { rerender } = renderWithProviders(
      <ShortTable columns={columns} rows={[]} rowKey={(p) => p.ref} emptyText="No payments yet." />,
    );
    expect(screen.getByText('No payments yet.')).toBeInTheDocument();
    rerender(<ShortTable columns={columns} rows={[]} rowKey={(p) => p.ref} loading />);
    expect(screen.getByLabelText('Loading')).toBeInTheDocument();
  });
});
