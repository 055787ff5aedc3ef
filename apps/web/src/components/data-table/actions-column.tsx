import type { ReactNode } from 'react';
import { Group } from '@mantine/core';
import type { DataTableColumn } from './table-parts.tsx';

/**
 * A list's last column: a row's buttons side by side, never wrapped (no header, so a phone card
 * shows them as its buttons row). `width` is the first guess of the room they all take.
 */
export function actionsColumn<Row>(width: number, buttons: (row: Row) => ReactNode): DataTableColumn<Row> {
  return {
    key: 'actions',
    header: '',
    width,
    render: (row) => (
      <Group gap={4} wrap="nowrap">
        {buttons(row)}
      </Group>
    ),
  };
}
