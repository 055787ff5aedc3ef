export { DataTable, type DataTableColumn, type DataTablePaging, type DataTableProps, type DataTableSearch } from './data-table.tsx';
export { useTableState, type TableState } from './use-table-state.ts';
