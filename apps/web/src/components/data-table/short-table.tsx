import { useRef } from 'react';
import { Box } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import classes from './data-table.module.css';
import {
  CARD_LAYOUT_QUERY,
  CardRow,
  EmptyBody,
  HeaderRow,
  tableMinWidth,
  TableRow,
  useFitColumns,
  type DataTableColumn,
} from './table-parts.tsx';

export interface ShortTableProps<Row> {
  columns: readonly DataTableColumn<Row>[];
  /** A short, bounded list (the dashboard's ten newest payments): every row is drawn. */
  rows: readonly Row[];
  rowKey: (row: Row, index: number) => string | number;
  loading?: boolean;
  emptyText?: string;
  'data-testid'?: string;
}

/**
 * A table of a few rows that never pages, sorts or scrolls: the same header, rows and phone cards
 * as `DataTable`, without its pager, filters and virtualizer, so a first screen (the dashboard)
 * loads none of them. Under 768 px each row is a card.
 */
export function ShortTable<Row>({
  columns,
  rows,
  rowKey,
  loading = false,
  emptyText = 'No records found.',
  'data-testid': testId = 'data-table',
}: ShortTableProps<Row>) {
  const cards = useMediaQuery(CARD_LAYOUT_QUERY, false, { getInitialValueInEffect: false }) ?? false;
  const tableRef = useRef<HTMLTableElement>(null);
  useFitColumns(tableRef, columns);
  return (
    <Box data-testid={testId} data-layout={cards ? 'cards' : 'table'} aria-busy={loading || undefined}>
      {rows.length === 0 ? (
        <EmptyBody columns={columns} sorting={undefined} cards={cards} loading={loading} emptyText={emptyText} />
      ) : cards ? (
        <div className={classes.cardList}>
          {rows.map((row, index) => (
            <CardRow key={rowKey(row, index)} row={row} index={index} columns={columns} />
          ))}
        </div>
      ) : (
        // Focusable: a table wider than the screen scrolls sideways, by keyboard too (axe).
        <div className={classes.scroller} tabIndex={0} data-testid="table-scroller">
          <table ref={tableRef} className={classes.table} style={{ minWidth: tableMinWidth(columns) }} data-testid="table">
            <HeaderRow columns={columns} sorting={undefined} />
            <tbody>
              {rows.map((row, index) => (
                <TableRow key={rowKey(row, index)} row={row} index={index} columns={columns} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Box>
  );
}
