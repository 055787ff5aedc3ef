import type { ReactNode } from 'react';
import { Card, Stack, Title } from '@mantine/core';
import { DataTable, type DataTableProps } from '@/components/data-table/index.ts';
import { FigureBoxes, type Figure } from '@/components/figure-boxes.tsx';
import { LoadState } from '@/components/load-state.tsx';

/**
 * One report as every report screen shows it: optional controls, the summary figures, the chart in a
 * titled card, then the table (with its CSV export) in a card, and any further cards below. The
 * reports differ only in what goes into these places.
 */
export function ReportCard<Row>({
  name,
  title,
  query,
  controls,
  figures,
  chart,
  note,
  table,
  children,
}: {
  /** Names the report's test id (`report-<name>`). */
  name: string;
  /** The chart card's title. */
  title: string;
  /** The report's query: a failure replaces the report, a fetch marks it loading. */
  query: { isError: boolean; isFetching: boolean };
  controls?: ReactNode;
  /** The summary boxes; none until the report has loaded. */
  figures?: Figure[];
  chart: ReactNode;
  /** A line above the table. */
  note?: ReactNode;
  table: Omit<DataTableProps<Row>, 'loading'>;
  children?: ReactNode;
}) {
  if (query.isError) return <LoadState failed what="report" />;
  const loading = query.isFetching;
  return (
    <Stack data-testid={`report-${name}`} data-loading={loading ? 'true' : 'false'}>
      {controls}
      {figures && <FigureBoxes figures={figures} />}
      <Card withBorder>
        <Title order={2} size="h4" mb="sm">
          {title}
        </Title>
        {chart}
      </Card>
      <Card withBorder>
        {note}
        <DataTable {...table} loading={loading} />
      </Card>
      {children}
    </Stack>
  );
}
