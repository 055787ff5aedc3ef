import { memo, type CSSProperties, type ReactNode } from 'react';
import { Group, Loader, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import type { SortDirection } from '@betdesk/contract';
import classes from './data-table.module.css';
import { EmptyText } from './empty-text.tsx';

/**
 * What every table of the app draws the same way, whatever feeds it: columns, the header row with
 * its sort buttons, a row, a row as a phone card, the empty state. The paged, virtualized
 * `DataTable` and the light `ShortTable` (a few rows, first screens) are both built from these.
 */

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

export interface DataTableSorting {
  /** The fields the server can sort this list by (the contract's LISTS entry). */
  sorts: readonly string[];
  sort: string;
  dir: SortDirection;
  onSort: (field: string) => void;
  /** Sorts by `field` in `dir` (the phone layout's select). */
  onSortTo?: (field: string, dir: SortDirection) => void;
}

export const MIN_COLUMN_WIDTH = 105;
export const ROW_HEIGHT = 40;
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

export function cellValue<Row>(column: DataTableColumn<Row>, row: Row, index: number): ReactNode {
  if (column.render) return column.render(row, index);
  const value = (row as Record<string, unknown>)[column.key];
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export function cardRole<Row>(column: DataTableColumn<Row>): NonNullable<DataTableColumn<Row>['card']> {
  if (column.card) return column.card;
  return column.header === '' || column.header === null || column.header === undefined ? 'actions' : 'field';
}

export interface RowProps<Row> {
  row: Row;
  index: number;
  columns: readonly DataTableColumn<Row>[];
  measure?: ((element: Element | null) => void) | undefined;
}

/**
 * One table row. Memoized on (row, index, columns): scrolling re-renders the table, which only
 * changes which rows exist and the spacer heights; a row already on screen is not rendered again.
 */
export const TableRow = memo(function TableRow<Row>({ row, index, columns, measure }: RowProps<Row>) {
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



/** One row as a phone card: its heading, its key fields as label/value pairs, its actions. */
export const CardRow = memo(function CardRow<Row>({ row, index, columns, measure }: RowProps<Row>) {
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
}) as <Row>(props: RowProps<Row>) => ReactNode;

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

export function HeaderRow<Row>({ columns, sorting }: { columns: readonly DataTableColumn<Row>[]; sorting: DataTableSorting | undefined }) {
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

export function EmptyBody<Row>({
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
