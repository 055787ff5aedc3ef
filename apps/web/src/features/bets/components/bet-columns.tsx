import type { Bet } from '@betdesk/contract';
import { clientColumns } from '@/components/client-columns.tsx';
import { StatusBadge, WIDTH, type DataTableColumn } from '@/components/data-table/index.ts';
import { formatDateTime, formatMoney } from '@/lib/format.ts';

export const betColumns: DataTableColumn<Bet>[] = [
  ...clientColumns<Bet>(),
  { key: 'description', header: 'Bet', render: (b) => <span title={b.description}>{b.description}</span> },
  { key: 'stake', header: 'Stake', render: (b) => formatMoney(b.stake), align: 'right', width: WIDTH.money, fit: true },
  {
    key: 'profit',
    header: 'Profit',
    align: 'right',
    width: WIDTH.money, fit: true,
    render: (b) => (b.profit === null ? '' : <span style={{ color: b.profit < 0 ? 'var(--mantine-color-red-text)' : undefined }}>{formatMoney(b.profit)}</span>),
  },
  { key: 'bonus', header: 'Bonus', render: (b) => (b.bonus === null ? '' : formatMoney(b.bonus)), align: 'right', width: WIDTH.money, fit: true },
  { key: 'opened_on', header: 'Opened on', render: (b) => formatDateTime(b.opened_on), width: WIDTH.dateTime, fit: true },
  { key: 'closed_on', header: 'Closed on', render: (b) => formatDateTime(b.closed_on), width: WIDTH.dateTime, fit: true },
  { key: 'status', header: 'Status', width: WIDTH.status, fit: true, render: (b) => <StatusBadge status={b.status} /> },
];
