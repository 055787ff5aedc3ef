import { useRef, useState, type CSSProperties, type KeyboardEvent, type ReactNode } from 'react';
import {
  Box,
  Button,
  Group,
  Loader,
  LoadingOverlay,
  NativeSelect,
  Pagination,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { IconDownload, IconSearch } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { PAGE_SIZES, type PageSize } from '@betdesk/contract';
import classes from './data-table.module.css';
import { downloadFile, type QueryParams } from '@/lib/http.ts';

export interface DataTableColumn<Row> {
  /** Stable key; also the row field shown when there is no `render`. */
  key: string;
  header: ReactNode;
  render?: (row: Row, index: number) => ReactNode;
  width?: CSSProperties['width'];
  /** Narrowest the column may get, in px; defaults to a numeric `width`, else MIN_COLUMN_WIDTH. */
  minWidth?: number;
  align?: 'left' | 'center' | 'right';
}

export interface DataTablePaging {
  page: number;
  perPage: PageSize;
  totalRecords: number;
  onPageChange: (page: number) => void;
  onPerPageChange: (perPage: PageSize) => void;
}

export interface DataTableSearch {
  placeholder?: string;
  /** Called with the typed text when Enter is pressed, never on each key. */
  onSearch: (value: string) => void;
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
  /** A server path that streams the whole filtered result as CSV, fetched with the session. */
  exportCsv?: { path: string; query?: QueryParams; filename: string };
  /** Height of the scrolling body in px: the virtualizer needs a fixed window. */
  height?: number;
  estimatedRowHeight?: number;
  'data-testid'?: string;
}

const OVERSCAN = 10;
export const MIN_COLUMN_WIDTH = 120;

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

/**
 * The shared table: remote paging with the spec's page sizes, search on Enter, optional CSV link,
 * and a virtualized body so a 2,000-row page scrolls smoothly.
 */
export function DataTable<Row>({
  columns,
  rows,
  rowKey,
  loading = false,
  emptyText = 'No records found.',
  paging,
  search,
  exportCsv,
  height = 560,
  estimatedRowHeight = 41,
  'data-testid': testId = 'data-table',
}: DataTableProps<Row>) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => estimatedRowHeight,
    // A row not laid out (hidden tab, closed modal) measures 0; keep the estimate rather than
    // collapsing it, which would pull every row into the window.
    measureElement: (element) => element.getBoundingClientRect().height || estimatedRowHeight,
    overscan: OVERSCAN,
    initialRect: { width: 0, height },
  });
  const items = virtualizer.getVirtualItems();
  const paddingTop = items[0]?.start ?? 0;
  const paddingBottom = items.length > 0 ? virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0) : 0;

  const showToolbar = search !== undefined || exportCsv !== undefined;

  return (
    <Box data-testid={testId}>
      {showToolbar && (
        <Group justify="space-between" mb="sm" wrap="wrap">
          {search ? <SearchInput {...search} /> : <span />}
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
        <div ref={scrollRef} className={classes.scroller} style={{ maxHeight: height }} data-testid="table-scroller">
          <Table
            striped
            highlightOnHover
            layout="fixed"
            verticalSpacing="xs"
            style={{ minWidth: tableMinWidth(columns) }}
            data-testid="table"
          >
            <Table.Thead className={classes.head}>
              <Table.Tr>
                {columns.map((column) => (
                  <Table.Th key={column.key} style={{ width: column.width, textAlign: column.align }}>
                    {column.header}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={columns.length}>
                    <Group justify="center" py="lg">
                      {loading ? <Loader size="sm" aria-label="Loading" /> : <Text c="dimmed">{emptyText}</Text>}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ) : (
                <>
                  {paddingTop > 0 && (
                    <tr aria-hidden="true">
                      <td colSpan={columns.length} style={{ height: paddingTop, padding: 0, border: 0 }} />
                    </tr>
                  )}
                  {items.map((item) => {
                    const row = rows[item.index] as Row;
                    return (
                      <Table.Tr
                        key={rowKey(row, item.index)}
                        data-index={item.index}
                        ref={virtualizer.measureElement}
                        data-testid="table-row"
                      >
                        {columns.map((column) => (
                          <Table.Td key={column.key} className={classes.cell} style={{ textAlign: column.align }}>
                            {cellValue(column, row, item.index)}
                          </Table.Td>
                        ))}
                      </Table.Tr>
                    );
                  })}
                  {paddingBottom > 0 && (
                    <tr aria-hidden="true">
                      <td colSpan={columns.length} style={{ height: paddingBottom, padding: 0, border: 0 }} />
                    </tr>
                  )}
                </>
              )}
            </Table.Tbody>
          </Table>
        </div>
      </Box>

      {paging && <PagingBar {...paging} />}
    </Box>
  );
}

function SearchInput({ placeholder = 'Search and press Enter', onSearch }: DataTableSearch) {
  const [value, setValue] = useState('');
  const submitOnEnter = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      onSearch(value.trim());
    }
  };
  return (
    <TextInput
      aria-label="Search"
      placeholder={placeholder}
      leftSection={<IconSearch size={16} />}
      value={value}
      onChange={(event) => setValue(event.currentTarget.value)}
      onKeyDown={submitOnEnter}
      w={320}
      maw="100%"
      data-testid="table-search"
    />
  );
}

function PagingBar({ page, perPage, totalRecords, onPageChange, onPerPageChange }: DataTablePaging) {
  const totalPages = Math.max(1, Math.ceil(totalRecords / perPage));
  const first = totalRecords === 0 ? 0 : (page - 1) * perPage + 1;
  const last = Math.min(page * perPage, totalRecords);
  return (
    <Group justify="space-between" mt="sm" wrap="wrap" gap="sm">
      <Group gap="sm">
        <NativeSelect
          aria-label="Rows per page"
          data={PAGE_SIZES.map(String)}
          value={String(perPage)}
          onChange={(event) => onPerPageChange(Number(event.currentTarget.value) as PageSize)}
          w={90}
          data-testid="table-page-size"
        />
        <Text size="sm" c="dimmed" data-testid="table-total">
          {first}–{last} of {totalRecords.toLocaleString('en-KE')} records
        </Text>
      </Group>
      <Pagination
        total={totalPages}
        value={Math.min(page, totalPages)}
        onChange={onPageChange}
        size="sm"
        withEdges
        getControlProps={(control) => ({ 'aria-label': `${control} page` })}
      />
    </Group>
  );
}
