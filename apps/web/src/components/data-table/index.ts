export {
  DataTable,
  type DataTableColumn,
  type DataTableDateRange,
  type DataTablePaging,
  type DataTableProps,
  type DataTableSearch,
  type DataTableSorting,
} from './data-table.tsx';
export { useTableState, type TableState, type TableStateOptions } from './use-table-state.ts';
export { StatusBadge } from './status-badge.tsx';
export { actionsColumn } from './actions-column.tsx';
export { WIDTH } from './column-widths.ts';
export { getList, totalOf, type ListQueryParams } from './list-query.ts';
