import { useState } from 'react';
import { Button, Card, Stack, Title } from '@mantine/core';
import type { Bet } from '@betdesk/contract';
import { DataTable, useTableState } from '@/components/data-table/index.ts';
import { FigureBoxes } from '@/components/figure-boxes.tsx';
import { EnterProfitModal } from '@/components/enter-profit-modal.tsx';
import { formatCount } from '@/lib/format.ts';
import { useOpenBets } from '../api/get-open-bets.ts';
import { betColumns } from './bet-columns.tsx';

const columns = betColumns.filter((c) => !['profit', 'bonus', 'status', 'closed_on'].includes(c.key));

/**
 * /bets/open: open bets, newest first, paged, sortable and searchable by client name or phone,
 * each with an Enter Profit button; admins see the totals.
 */
export function OpenBetsPage() {
  const table = useTableState('openBets');
  const bets = useOpenBets(table.query);
  const [closing, setClosing] = useState<Bet | null>(null);
  const data = bets.data;
  return (
    <Stack>
      <Title order={1} size="h2">Open Bets</Title>
      {data?.total_open_bets !== undefined && (
        <FigureBoxes
          figures={[
            { label: 'Open bets', value: formatCount(data.total_open_bets), testId: 'total-open-bets' },
            { label: 'Closed bets', value: formatCount(data.total_closed_bets ?? 0) },
          ]}
        />
      )}
      <Card withBorder>
        <DataTable
          columns={[
            ...columns,
            {
              key: 'enter-profit',
              header: '',
              width: 125,
              render: (b) => (
                <Button size="xs" onClick={() => setClosing(b)} data-testid="enter-profit">
                  Enter Profit
                </Button>
              ),
            },
          ]}
          rows={data?.bets ?? []}
          rowKey={(b) => b.bet_id}
          loading={bets.isFetching}
          emptyText="No open bets."
          {...table.listProps('Client name or phone, then Enter', data, { path: '/api/bets/open/export', filename: 'open-bets.csv' })}
          data-testid="open-bets-table"
        />
      </Card>
      <EnterProfitModal bet={closing} onClose={() => setClosing(null)} />
    </Stack>
  );
}
