import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Box, Button, Group, LoadingOverlay, NativeSelect, Pagination, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconDownload, IconSearch } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { listTexts, MAX_LIST_OFFSET, PAGE_SIZES, type PageSize, type SortDirection } from '@betdesk/contract';
import classes from './data-table.module.css';
import {
  CARD_LAYOUT_QUERY,
  CardRow,
  EmptyBody,
  HeaderRow,
  ROW_HEIGHT,
  tableMinWidth,
  TableRow,
  useFitColumns,
  type DataTableColumn,
  type DataTableSorting,
} from './table-parts.tsx';
import { DateRangeFilter } from './date-range-filter.tsx';
import { downloadFile, type QueryParams } from '@/lib/http.ts';
import { formatCount } from '@/lib/format.ts';

export type { DataTableColumn, DataTableSorting } from './table-parts.tsx';

export interface DataTablePaging {
  page: number;
  perPage: PageSize;
  totalRecords: number;
  /**
   * The server stopped counting at `totalRecords` (COUNT_CAP, or for a search the next thousand past
   * the page): the total shows as "10,000+" or "1,000+", and the pager reaches that far.
   */
  capped?: boolean;
  onPageChange: (page: number) => void;
  onPerPageChange: (perPage: PageSize) => void;
}

export interface DataTableSearch {
  placeholder?: string;
  /** The search in force (e.g. from the URL); the box starts with it. */
  value?: string;
  /** Called with the typed text when Enter is pressed, never on each key. */
  onSearch: (value: string) => void;
}

export interface DataTableDateRange {
  from: string | undefined;
  to: string | undefined;
  onChange: (from: string | undefined, to: string | undefined) => void;
}

export interface DataTableProps<Row> {
  columns: readonly DataTableColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row, index: number) => string | number;
  loading?: boolean;
  emptyText?: string;
  /** Remote paging; without it the table shows every row it is given. */
  paging?: DataTablePaging;
  search?: DataTableSearch;
  /** Clickable headers for the columns whose field is in `sorts`. */
  sorting?: DataTableSorting;
  /** From/to with presets, for a dated list. */
  dateRange?: DataTableDateRange;
  /** A server path that streams the whole filtered result as CSV, fetched with the session. */
  exportCsv?: { path: string; query?: QueryParams; filename: string };
  /** Height of the scrolling body in px: the virtualizer needs a fixed window. */
  height?: number;
  /** Every row of the table is this tall (one line): the virtualizer never measures a row. */
  rowHeight?: number;
  /**
   * For a list whose rows hold several lines (an audit diff): rows wrap and are measured, this
   * being the first guess. Costs a layout per row on scroll; one-line lists leave it out.
   */
  estimatedRowHeight?: number;
  /**
   * What the rows are ("Settings", "Subscriptions"), naming the table's scrolling region for a screen
   * reader; a screen with two tables gives each its own (two regions of one name confuse). Default "Rows".
   */
  label?: string;
  'data-testid'?: string;
}

const OVERSCAN = 6;
const CARD_HEIGHT_ESTIMATE = 150;

/**
 * The shared table: remote paging with the spec's page sizes, sortable headers, search on Enter,
 * a date range, a CSV link, and a virtualized body of fixed-height rows so a 2,000-row page
 * scrolls smoothly. Under 768 px each row is a card (no sideways scrolling on a phone).
 */
export function DataTable<Row>({
  columns,
  rows,
  rowKey,
  loading = false,
  emptyText = 'No records found.',
  paging,
  search,
  sorting,
  dateRange,
  exportCsv,
  height = 560,
  rowHeight = ROW_HEIGHT,
  estimatedRowHeight,
  label = 'Rows',
  'data-testid': testId = 'data-table',
}: DataTableProps<Row>) {
  const cards = useMediaQuery(CARD_LAYOUT_QUERY, false, { getInitialValueInEffect: false }) ?? false;
  const showToolbar = search !== undefined || exportCsv !== undefined || dateRange !== undefined || (cards && sorting !== undefined);

  return (
    <Box data-testid={testId} data-layout={cards ? 'cards' : 'table'}>
      {showToolbar && (
        <Group justify="space-between" mb="sm" wrap="wrap" gap="xs">
          <Group gap="xs" wrap="wrap" className={classes.filters}>
            {search && <SearchInput {...search} />}
            {dateRange && <DateRangeFilter {...dateRange} />}
            {cards && sorting && <CardSortSelect columns={columns} sorting={sorting} />}
          </Group>
          {exportCsv && (
            <Button
              onClick={() => {
                downloadFile(exportCsv.path, exportCsv.query, exportCsv.filename).catch(() => {});
              }}
              variant="light"
              leftSection={<IconDownload size={16} />}
              data-testid="table-export"
            >
              Export CSV
            </Button>
          )}
        </Group>
      )}

      <Box pos="relative">
        <LoadingOverlay visible={loading && rows.length > 0} loaderProps={{ size: 'sm' }} />
        {rows.length === 0 ? (
          <EmptyBody columns={columns} sorting={sorting} cards={cards} loading={loading} emptyText={emptyText} />
        ) : cards ? (
          <CardBody columns={columns} rows={rows} rowKey={rowKey} height={height} label={label} />
        ) : (
          <TableBody
            columns={columns}
            rows={rows}
            rowKey={rowKey}
            height={height}
            label={label}
            rowHeight={estimatedRowHeight ?? rowHeight}
            measured={estimatedRowHeight !== undefined}
            sorting={sorting}
          />
        )}
      </Box>

      {paging && <PagingBar {...paging} />}
    </Box>
  );
}

/** On a phone there are no headers to click: the same sorts as a select. */
function CardSortSelect<Row>({ columns, sorting }: { columns: readonly DataTableColumn<Row>[]; sorting: DataTableSorting }) {
  const options = sorting.sorts.flatMap((field) => {
    const column = columns.find((c) => (c.sortKey ?? c.key) === field);
    if (!column) return [];
    const label = typeof column.header === 'string' ? column.header : field;
    return [
      { value: `${field}:desc`, label: `${label} ↓` },
      { value: `${field}:asc`, label: `${label} ↑` },
    ];
  });
  if (options.length === 0 || !sorting.onSortTo) return null;
  return (
    <NativeSelect
      aria-label="Sort by"
      data={options}
      value={`${sorting.sort}:${sorting.dir}`}
      onChange={(event) => {
        const [field, dir] = event.currentTarget.value.split(':') as [string, SortDirection];
        sorting.onSortTo?.(field, dir);
      }}
      w={170}
      data-testid="card-sort"
    />
  );
}

interface BodyProps<Row> {
  columns: readonly DataTableColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row, index: number) => string | number;
  height: number;
  /** The scrolling region's name (DataTableProps.label). */
  label: string;
}

function TableBody<Row>({
  columns,
  rows,
  rowKey,
  height,
  label,
  rowHeight,
  measured,
  sorting,
}: BodyProps<Row> & { rowHeight: number; measured: boolean; sorting: DataTableSorting | undefined }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const tableRef = useRef<HTMLTableElement>(null);
  useFitColumns(tableRef, columns);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    // Fixed heights: the window is computed, never measured, so scrolling lays out nothing new.
    estimateSize: () => rowHeight,
    // Let React batch the scroll updates of one frame instead of rendering on every scroll event.
    useFlushSync: false,
    // A row not laid out (hidden tab) measures 0: keep the estimate rather than pull in every row.
    ...(measured ? { measureElement: (element: Element) => element.getBoundingClientRect().height || rowHeight } : {}),
    overscan: OVERSCAN,
    initialRect: { width: 0, height },
  });
  const items = virtualizer.getVirtualItems();
  const paddingTop = items[0]?.start ?? 0;
  const paddingBottom = items.length > 0 ? virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0) : 0;
  return (
    // Focusable, so a keyboard scrolls the rows even when no row holds a link or button.
    <div ref={scrollRef} className={classes.scroller} style={{ maxHeight: height }} tabIndex={0} role="region" aria-label={label} data-testid="table-scroller">
      <table
        ref={tableRef}
        className={classes.table}
        style={{ minWidth: tableMinWidth(columns), ['--row-height' as string]: `${rowHeight}px` }}
        data-measured={measured || undefined}
        data-testid="table"
      >
        <HeaderRow columns={columns} sorting={sorting} />
        <tbody>
          {paddingTop > 0 && (
            <tr aria-hidden="true">
              <td colSpan={columns.length} style={{ height: paddingTop, padding: 0, border: 0 }} />
            </tr>
          )}
          {items.map((item) => {
            const row = rows[item.index] as Row;
            return (
              <TableRow
                key={rowKey(row, item.index)}
                row={row}
                index={item.index}
                columns={columns}
                measure={measured ? virtualizer.measureElement : undefined}
              />
            );
          })}
          {paddingBottom > 0 && (
            <tr aria-hidden="true">
              <td colSpan={columns.length} style={{ height: paddingBottom, padding: 0, border: 0 }} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

function CardBody<Row>({ columns, rows, rowKey, height, label }: BodyProps<Row>) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => CARD_HEIGHT_ESTIMATE,
    measureElement: (element) => element.getBoundingClientRect().height || CARD_HEIGHT_ESTIMATE,
    overscan: 4,
    initialRect: { width: 0, height },
  });
  const items = virtualizer.getVirtualItems();
  return (
    <div
      ref={scrollRef}
      className={`${classes.cardList} ${classes.cardScroller}`}
      style={{ maxHeight: height }}
      tabIndex={0}
      role="region"
      aria-label={label}
      data-testid="table-scroller"
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        <div style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${items[0]?.start ?? 0}px)` }}>
          {items.map((item) => {
            const row = rows[item.index] as Row;
            return (
              <CardRow key={rowKey(row, item.index)} row={row} index={item.index} columns={columns} measure={virtualizer.measureElement} />
            );
          })}
        </div>
      </div>
    </div>
  );
}

function SearchInput({ placeholder = 'Search and press Enter', value: current = '', onSearch }: DataTableSearch) {
  const [value, setValue] = useState(current);
  // The search in force can change from outside (back button, a link): show it.
  useEffect(() => setValue(current), [current]);
  const submitOnEnter = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      onSearch(value.trim());
    }
  };
  return (
    <TextInput
      aria-label="Search"
      type="search"
      placeholder={placeholder}
      leftSection={<IconSearch size={16} />}
      value={value}
      onChange={(event) => setValue(event.currentTarget.value)}
      onKeyDown={submitOnEnter}
      w={300}
      maw="100%"
      data-testid="table-search"
    />
  );
}

/** "1–50 of 1,234 records", "1 record", "1–2,000 of 10,000+ records". */
export function pagingSummary(page: number, perPage: number, totalRecords: number, capped = false): string {
  const noun = totalRecords === 1 && !capped ? 'record' : 'records';
  const total = `${formatCount(totalRecords)}${capped ? '+' : ''}`;
  if (totalRecords === 0) return '0 records';
  const first = (page - 1) * perPage + 1;
  const last = Math.min(page * perPage, totalRecords);
  if (first > totalRecords) return `${total} ${noun}`;
  return `${formatCount(first)}–${formatCount(last)} of ${total} ${noun}`;
}

function PagingBar({ page, perPage, totalRecords, capped = false, onPageChange, onPerPageChange }: DataTablePaging) {
  // The server pages only the first MAX_LIST_OFFSET rows (deeper offsets cost a walk over every
  // row before them): the pager stops there and says how to reach the rest.
  const lastPageable = Math.floor(MAX_LIST_OFFSET / perPage) + 1;
  const totalPages = Math.max(1, Math.min(Math.ceil(totalRecords / perPage), lastPageable));
  const truncated = Math.ceil(totalRecords / perPage) > lastPageable;
  return (
    <Group justify="space-between" mt="sm" wrap="wrap" gap="sm">
      <Group gap="sm" wrap="nowrap">
        <NativeSelect
          aria-label="Rows per page"
          data={PAGE_SIZES.map(String)}
          value={String(perPage)}
          onChange={(event) => onPerPageChange(Number(event.currentTarget.value) as PageSize)}
          w={90}
          data-testid="table-page-size"
        />
        <Text size="sm" c="dimmed" data-testid="table-total">
          {pagingSummary(page, perPage, totalRecords, capped)}
        </Text>
      </Group>
      {truncated && (
        <Text size="xs" c="dimmed" data-testid="table-page-cap">
          {listTexts.pastLastPage}
        </Text>
      )}
      <Pagination
        total={totalPages}
        value={Math.min(page, totalPages)}
        onChange={onPageChange}
        size="sm"
        siblings={1}
        boundaries={1}
        withEdges
        getControlProps={(control) => ({ 'aria-label': `${control} page` })}
      />
    </Group>
  );
}
