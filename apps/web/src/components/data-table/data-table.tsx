import { memo, useEffect, useRef, useState, type CSSProperties, type KeyboardEvent, type ReactNode } from 'react';
import { Box, Button, Group, Loader, LoadingOverlay, NativeSelect, Pagination, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconArrowDown, IconArrowUp, IconArrowsSort, IconDownload, IconSearch } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { COUNT_CAP, listTexts, MAX_LIST_OFFSET, PAGE_SIZES, type PageSize, type SortDirection } from '@betdesk/contract';
import classes from './data-table.module.css';
import { DateRangeFilter } from './date-range-filter.tsx';
import { EmptyText } from './empty-text.tsx';
import { downloadFile, type QueryParams } from '@/lib/http.ts';
import { formatCount } from '@/lib/format.ts';

export interface DataTableColumn<Row> {
  /** Stable key; also the row field shown when there is no `render`. */
  key: string;
  header: ReactNode;
  render?: (row: Row, index: number) => ReactNode;
  /** Width in px (or CSS): dates, amounts, phones and badges have one; text columns share the rest. */
  width?: CSSProperties['width'];
  /** Narrowest the column may get, in px; defaults to a numeric `width`, else MIN_COLUMN_WIDTH. */
  minWidth?: number;
  align?: 'left' | 'center' | 'right';
  /** The list's sort field this column shows, when it differs from `key`. */
  sortKey?: string;
  /**
   * Its place on a phone card: 'title' (the card's heading), 'field' (label and value), 'actions'
   * (the buttons row) or 'hidden'. Default: actions for a column without a header, else field.
   */
  card?: 'title' | 'field' | 'actions' | 'hidden';
}

export interface DataTablePaging {
  page: number;
  perPage: PageSize;
  totalRecords: number;
  /** The server stopped counting at COUNT_CAP: the total shows as "10,000+". */
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

export interface DataTableSorting {
  /** The fields the server can sort this list by (the contract's LISTS entry). */
  sorts: readonly string[];
  sort: string;
  dir: SortDirection;
  onSort: (field: string) => void;
  /** Sorts by `field` in `dir` (the phone layout's select). */
  onSortTo?: (field: string, dir: SortDirection) => void;
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
  'data-testid'?: string;
}

const OVERSCAN = 6;
export const MIN_COLUMN_WIDTH = 105;
export const ROW_HEIGHT = 40;
const CARD_HEIGHT_ESTIMATE = 150;
/** Under this width (Mantine's `sm`) each row is a card. */
export const CARD_LAYOUT_QUERY = '(max-width: 47.99em)';

/**
 * The table never gets narrower than its columns' minimum widths: on a phone the scroll box then
 * scrolls sideways instead of squeezing each column to a character.
 */
export function tableMinWidth<Row>(columns: readonly DataTableColumn<Row>[]): number {
  return columns.reduce(
    (sum, column) => sum + (column.minWidth ?? (typeof column.width === 'number' ? column.width : MIN_COLUMN_WIDTH)),
    0,
  );
}

function cellValue<Row>(column: DataTableColumn<Row>, row: Row, index: number): ReactNode {
  if (column.render) return column.render(row, index);
  const value = (row as Record<string, unknown>)[column.key];
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function cardRole<Row>(column: DataTableColumn<Row>): NonNullable<DataTableColumn<Row>['card']> {
  if (column.card) return column.card;
  return column.header === '' || column.header === null || column.header === undefined ? 'actions' : 'field';
}

interface RowProps<Row> {
  row: Row;
  index: number;
  columns: readonly DataTableColumn<Row>[];
  measure?: ((element: Element | null) => void) | undefined;
}

/**
 * One table row. Memoized on (row, index, columns): scrolling re-renders the table, which only
 * changes which rows exist and the spacer heights; a row already on screen is not rendered again.
 */
const TableRow = memo(function TableRow<Row>({ row, index, columns, measure }: RowProps<Row>) {
  return (
    <tr ref={measure} className={classes.row} data-odd={index % 2 === 1 || undefined} data-index={index} data-testid="table-row">
      {columns.map((column) => (
        <td key={column.key} className={classes.cell} style={column.align ? { textAlign: column.align } : undefined}>
          {cellValue(column, row, index)}
        </td>
      ))}
    </tr>
  );
}) as <Row>(props: RowProps<Row>) => ReactNode;

interface CardProps<Row> extends RowProps<Row> {
  measure: (element: Element | null) => void;
}


/** One row as a phone card: its heading, its key fields as label/value pairs, its actions. */
const CardRow = memo(function CardRow<Row>({ row, index, columns, measure }: CardProps<Row>) {
  const title = columns.find((c) => cardRole(c) === 'title') ?? columns.find((c) => cardRole(c) === 'field');
  const fields = columns.filter((c) => cardRole(c) === 'field' && c !== title);
  const actions = columns.filter((c) => cardRole(c) === 'actions');
  return (
    <div ref={measure} data-index={index} className={classes.cardSlot} data-testid="table-row">
      <div className={classes.card} data-testid="table-card">
        {title && <div className={classes.cardTitle}>{cellValue(title, row, index)}</div>}
        <dl className={classes.cardFields}>
          {fields.map((column) => (
            <div key={column.key} className={classes.cardField}>
              <dt>{column.header}</dt>
              <dd>{cellValue(column, row, index)}</dd>
            </div>
          ))}
        </dl>
        {actions.length > 0 && (
          <div className={classes.cardActions}>
            {actions.map((column) => (
              <div key={column.key}>{cellValue(column, row, index)}</div>
            ))}
          </div>
        )}
      </div>
    </div>
  );
}) as <Row>(props: CardProps<Row>) => ReactNode;

function SortableHeader<Row>({ column, sorting }: { column: DataTableColumn<Row>; sorting: DataTableSorting | undefined }) {
  const field = column.sortKey ?? column.key;
  if (!sorting || !sorting.sorts.includes(field)) return <>{column.header}</>;
  const active = sorting.sort === field;
  const Icon = !active ? IconArrowsSort : sorting.dir === 'asc' ? IconArrowUp : IconArrowDown;
  return (
    <UnstyledButton
      className={classes.sortButton}
      onClick={() => sorting.onSort(field)}
      data-active={active || undefined}
      data-testid={`sort-${field}`}
    >
      <span>{column.header}</span>
      <Icon size={14} aria-hidden="true" />
    </UnstyledButton>
  );
}

function ariaSort(field: string, sorting: DataTableSorting | undefined): 'ascending' | 'descending' | 'none' | undefined {
  if (!sorting || !sorting.sorts.includes(field)) return undefined;
  if (sorting.sort !== field) return 'none';
  return sorting.dir === 'asc' ? 'ascending' : 'descending';
}

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
          <CardBody columns={columns} rows={rows} rowKey={rowKey} height={height} />
        ) : (
          <TableBody
            columns={columns}
            rows={rows}
            rowKey={rowKey}
            height={height}
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

function HeaderRow<Row>({ columns, sorting }: { columns: readonly DataTableColumn<Row>[]; sorting: DataTableSorting | undefined }) {
  return (
    <thead className={classes.head}>
      <tr>
        {columns.map((column) => (
          <th
            key={column.key}
            className={classes.th}
            style={{ width: column.width, textAlign: column.align }}
            aria-sort={ariaSort(column.sortKey ?? column.key, sorting)}
          >
            <SortableHeader column={column} sorting={sorting} />
          </th>
        ))}
      </tr>
    </thead>
  );
}

function EmptyBody<Row>({
  columns,
  sorting,
  cards,
  loading,
  emptyText,
}: {
  columns: readonly DataTableColumn<Row>[];
  sorting: DataTableSorting | undefined;
  cards: boolean;
  loading: boolean;
  emptyText: string;
}) {
  const message = (
    <Group justify="center" py="lg">
      {loading ? <Loader size="sm" aria-label="Loading" /> : <EmptyText text={emptyText} />}
    </Group>
  );
  if (cards) return <div className={classes.cardList}>{message}</div>;
  return (
    <div className={classes.scroller} data-testid="table-scroller">
      <table className={classes.table} style={{ minWidth: tableMinWidth(columns) }} data-testid="table">
        <HeaderRow columns={columns} sorting={sorting} />
        <tbody>
          <tr>
            <td colSpan={columns.length}>{message}</td>
          </tr>
        </tbody>
      </table>
    </div>
  );
}

interface BodyProps<Row> {
  columns: readonly DataTableColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row, index: number) => string | number;
  height: number;
}

function TableBody<Row>({
  columns,
  rows,
  rowKey,
  height,
  rowHeight,
  measured,
  sorting,
}: BodyProps<Row> & { rowHeight: number; measured: boolean; sorting: DataTableSorting | undefined }) {
  const scrollRef = useRef<HTMLDivElement>(null);
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
    <div ref={scrollRef} className={classes.scroller} style={{ maxHeight: height }} data-testid="table-scroller">
      <table
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

function CardBody<Row>({ columns, rows, rowKey, height }: BodyProps<Row>) {
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
    <div ref={scrollRef} className={`${classes.cardList} ${classes.cardScroller}`} style={{ maxHeight: height }} data-testid="table-scroller">
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
  const countable = capped ? Math.max(totalRecords, COUNT_CAP) : totalRecords;
  // The server pages only the first MAX_LIST_OFFSET rows (deeper offsets cost a walk over every
  // row before them): the pager stops there and says how to reach the rest.
  const lastPageable = Math.floor(MAX_LIST_OFFSET / perPage) + 1;
  const totalPages = Math.max(1, Math.min(Math.ceil(countable / perPage), lastPageable));
  const truncated = Math.ceil(countable / perPage) > lastPageable;
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
          {pagingSummary(page, perPage, countable, capped)}
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
