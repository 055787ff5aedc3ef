import { memo, useLayoutEffect, useRef, type CSSProperties, type ReactNode, type RefObject } from 'react';
import { Group, Loader, UnstyledButton, VisuallyHidden } from '@mantine/core';
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
  /**
   * Width in px (or CSS). For a `fit` column it is only the first guess before the content is
   * measured; text columns without one share the rest of the row.
   */
  width?: CSSProperties['width'];
  /** Narrowest the column may get, in px; defaults to a numeric `width`, else MIN_COLUMN_WIDTH. */
  minWidth?: number;
  /**
   * The column is as wide as its widest content (codes, dates, amounts, phones, badges, buttons):
   * never wrapped, never cut. Default: true for an actions column (no header) and for a figure
   * column (`align: 'right'`: amounts, counts, rates), else false.
   */
  fit?: boolean;
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
/** Narrowest a text column without a width of its own gets when the figures need the room. */
export const SQUEEZED_TEXT_WIDTH = 80;
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

export function fitsContent<Row>(column: DataTableColumn<Row>): boolean {
  return column.fit ?? (cardRole(column) === 'actions' || column.align === 'right');
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
      {columns.map((column) =>
        fitsContent(column) ? (
          <td key={column.key} className={classes.cell} style={column.align ? { textAlign: column.align } : undefined} data-fit>
            <span className={classes.fitContent}>{cellValue(column, row, index)}</span>
          </td>
        ) : (
          <td key={column.key} className={classes.cell} style={column.align ? { textAlign: column.align } : undefined}>
            {cellValue(column, row, index)}
          </td>
        ),
      )}
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
  // The buttons' column shows no title, but a screen reader announces each cell by its header.
  if (cardRole(column) === 'actions' && !column.header) return <VisuallyHidden>Actions</VisuallyHidden>;
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
            style={{ width: fitsContent(column) ? undefined : column.width, textAlign: column.align }}
            aria-sort={ariaSort(column.sortKey ?? column.key, sorting)}
            data-fit={fitsContent(column) || undefined}
          >
            {fitsContent(column) ? (
              <span className={classes.fitContent}>
                <SortableHeader column={column} sorting={sorting} />
              </span>
            ) : (
              <SortableHeader column={column} sorting={sorting} />
            )}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** Left and right padding of a cell (data-table.module.css). */
const CELL_PADDING_PX = 16;

interface FitMeasures {
  columnsKey: string;
  /** Widest content of each `fit` column's cells seen so far, padding included. */
  cells: Map<number, number>;
  /** Each `fit` header on one line (max) and wrapped at its spaces (min), padding included. */
  heads: Map<number, { max: number; min: number }>;
}

/**
 * Sizes each `fit` column to its widest content seen so far. The table keeps `table-layout: fixed`
 * (a scroll frame lays out no column widths), so the widths are measured after each render and
 * written on the header cells before paint; they only grow while the same columns are shown, so a
 * column never jumps narrower as the virtualized rows change under it. Text columns share the rest.
 * When the columns on one line are wider than the table's box, the headers wider than their
 * figures wrap at their spaces ("Net revenue / retention"), the widest saving first, until the
 * table fits, then the text columns without a width of their own give up room down to
 * SQUEEZED_TEXT_WIDTH: a figure is never cut, nor pushed past the box's edge while that can help.
 */
export function useFitColumns<Row>(tableRef: RefObject<HTMLTableElement | null>, columns: readonly DataTableColumn<Row>[]): void {
  const seen = useRef<FitMeasures>({ columnsKey: '', cells: new Map(), heads: new Map() });
  const columnsKey = columns.map((c) => `${c.key}:${fitsContent(c) ? 1 : 0}`).join('|');
  useLayoutEffect(() => {
    const table = tableRef.current;
    if (!table) return;
    if (seen.current.columnsKey !== columnsKey) seen.current = { columnsKey, cells: new Map(), heads: new Map() };
    const { cells, heads } = seen.current;
    const headers = table.tHead?.rows[0]?.cells;
    if (!headers) return;
    const widthOf = (content: Element | null | undefined) => (content ? Math.ceil(content.getBoundingClientRect().width) + CELL_PADDING_PX : 0);

    // Headers once per set of columns (their text does not change): on one line, then wrapped.
    const unmeasured = columns.flatMap((column, index) => (fitsContent(column) && !heads.has(index) ? [index] : []));
    if (unmeasured.length > 0) {
      const max = unmeasured.map((index) => widthOf(headers[index]?.firstElementChild));
      unmeasured.forEach((index) => headers[index]?.setAttribute('data-measure-min', ''));
      const min = unmeasured.map((index) => widthOf(headers[index]?.firstElementChild));
      unmeasured.forEach((index) => headers[index]?.removeAttribute('data-measure-min'));
      unmeasured.forEach((index, k) => {
        // A table not laid out yet (a hidden tab) measures nothing: measure again next time.
        if ((max[k] ?? 0) > CELL_PADDING_PX) heads.set(index, { max: max[k] ?? 0, min: Math.min(min[k] ?? 0, max[k] ?? 0) });
      });
    }
    for (const row of Array.from(table.tBodies[0]?.rows ?? [])) {
      if (row.cells.length !== columns.length) continue;
      columns.forEach((column, index) => {
        if (!fitsContent(column)) return;
        const width = widthOf(row.cells[index]?.firstElementChild);
        if (width > (cells.get(index) ?? 0)) cells.set(index, width);
      });
    }

    let textWidth = 0;
    /** What the text columns without a width of their own can give up: each down to SQUEEZED_TEXT_WIDTH. */
    let textSlack = 0;
    const wide = new Map<number, number>();
    const narrow = new Map<number, number>();
    columns.forEach((column, index) => {
      if (!fitsContent(column)) {
        textWidth += column.minWidth ?? (typeof column.width === 'number' ? column.width : MIN_COLUMN_WIDTH);
        if (column.minWidth === undefined && column.width === undefined) textSlack += MIN_COLUMN_WIDTH - SQUEEZED_TEXT_WIDTH;
        return;
      }
      const cell = cells.get(index) ?? CELL_PADDING_PX;
      const head = heads.get(index);
      wide.set(index, Math.max(cell, head?.max ?? 0));
      narrow.set(index, Math.max(cell, head?.min ?? 0));
    });
    const box = table.parentElement?.clientWidth ?? 0;
    let total = textWidth + [...wide.values()].reduce((a, b) => a + b, 0);
    const wrapped = new Set<number>();
    if (box > 0 && total > box) {
      const savings = [...wide.keys()]
        .map((index) => ({ index, saving: (wide.get(index) ?? 0) - (narrow.get(index) ?? 0) }))
        .filter((s) => s.saving > 0)
        .sort((a, b) => b.saving - a.saving);
      for (const { index, saving } of savings) {
        if (total <= box) break;
        wrapped.add(index);
        total -= saving;
      }
      // Still too wide: the names and descriptions give up some of their room (they wrap or end in "…").
      if (total > box) total -= Math.min(textSlack, total - box);
    }
    wide.forEach((width, index) => {
      const header = headers[index];
      if (!header) return;
      const px = `${wrapped.has(index) ? (narrow.get(index) ?? width) : width}px`;
      if (header.style.width !== px) header.style.width = px;
      if (wrapped.has(index) !== header.hasAttribute('data-wrap')) header.toggleAttribute('data-wrap', wrapped.has(index));
    });
    if (table.style.minWidth !== `${total}px`) table.style.minWidth = `${total}px`;
  });
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
      {loading ? <Loader size="sm" role="status" aria-label="Loading" /> : <EmptyText text={emptyText} />}
    </Group>
  );
  if (cards) return <div className={classes.cardList}>{message}</div>;
  return <EmptyTable columns={columns} sorting={sorting} message={message} />;
}

function EmptyTable<Row>({
  columns,
  sorting,
  message,
}: {
  columns: readonly DataTableColumn<Row>[];
  sorting: DataTableSorting | undefined;
  message: ReactNode;
}) {
  const tableRef = useRef<HTMLTableElement>(null);
  useFitColumns(tableRef, columns);
  return (
    // Focusable: on a narrow screen the header is wider than the screen and scrolls (axe).
    <div className={classes.scroller} tabIndex={0} data-testid="table-scroller">
      <table ref={tableRef} className={classes.table} style={{ minWidth: tableMinWidth(columns) }} data-testid="table">
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
