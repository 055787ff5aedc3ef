import { Card, Stack, Title } from '@mantine/core';
import { DataTable, useTableState } from '@/components/data-table/index.ts';
import { FigureBoxes } from '@/components/figure-boxes.tsx';
import { useClosedBets } from '../api/get-closed-bets.ts';
import { betColumns } from './bet-columns.tsx';

/** /bets/closed: closed bets, remote-paged and searchable by client name or phone. */
export function ClosedBetsPage() {
  const table = useTableState();
  const bets = useClosedBets(table.page, table.perPage, table.search);
  const data = bets.data;
  return (
    <Stack>
      <Title order={2}>Closed Bets</Title>
      {data?.total_closed_bets !== undefined && (
        <FigureBoxes
          figures={[
            { label: 'Closed bets', value: data.total_closed_bets.toLocaleString('en-KE') },
            { label: 'Open bets', value: (data.total_open_bets ?? 0).toLocaleString('en-KE') },
          ]}
        />
      )}
      <Card withBorder>
        <DataTable
          columns={betColumns}
          rows={data?.bets ?? []}
          rowKey={(b) => b.bet_id}
          loading={bets.isFetching}
          search={{ placeholder: 'Client name or phone, then Enter', onSearch: table.setSearch }}
          exportCsv={{ path: '/api/bets/closed/export', query: { search: table.search }, filename: 'closed-bets.csv' }}
          paging={table.paging(data?.total_records ?? 0)}
          data-testid="closed-bets-table"
        />
      </Card>
    </Stack>
  );
}
