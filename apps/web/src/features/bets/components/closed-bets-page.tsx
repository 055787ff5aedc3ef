import { Card, Stack, Title } from '@mantine/core';
import { DataTable, useTableState } from '@/components/data-table/index.ts';
import { DateRangeNote } from '@/components/data-table/date-range-note.tsx';
import { FigureBoxes } from '@/components/figure-boxes.tsx';
import { formatCount } from '@/lib/format.ts';
import { useClosedBets } from '../api/get-closed-bets.ts';
import { betColumns } from './bet-columns.tsx';

const columns = betColumns.filter((c) => c.key !== 'status');

/** /bets/closed: closed bets, newest closed first, remote-paged, sortable, searchable by client name or phone, by date range. */
export function ClosedBetsPage() {
  const table = useTableState('closedBets');
  const bets = useClosedBets(table.query);
  const data = bets.data;
  return (
    <Stack>
      <Title order={1} size="h2">Closed Bets</Title>
      <DateRangeNote from={table.from} to={table.to} />
      {data?.total_closed_bets !== undefined && (
        <FigureBoxes
          figures={[
            { label: 'Closed bets', value: formatCount(data.total_closed_bets) },
            { label: 'Open bets', value: formatCount(data.total_open_bets ?? 0) },
          ]}
        />
      )}
      <Card withBorder>
        <DataTable
          columns={columns}
          rows={data?.bets ?? []}
          rowKey={(b) => b.bet_id}
          loading={bets.isFetching}
          {...table.listProps('Client name or phone, then Enter', data, { path: '/api/bets/closed/export', filename: 'closed-bets.csv' })}
          dateRange={table.dateRange}
          data-testid="closed-bets-table"
        />
      </Card>
    </Stack>
  );
}
