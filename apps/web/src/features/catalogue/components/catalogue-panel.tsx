import { useState, type ReactNode } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import type { DefaultValues, FieldValues } from 'react-hook-form';
import type { z } from 'zod';
import { DataTable, type DataTableColumn } from '@/components/data-table/index.ts';
import { FormModal, type FormModalRenderProps } from '@/components/form-modal/index.ts';

type FormSchema = z.ZodType<FieldValues, FieldValues>;

export interface CataloguePanelProps<Row extends { id: number; name: string }, S extends FormSchema> {
  /** What the list is for, above it. */
  intro: ReactNode;
  /** The kind of row in words: "bet category" gives "Add bet category" and "Edit Daily 2 Odds". */
  noun: string;
  /** The test ids' stem: "bet-category" gives add-bet-category, bet-category-modal, edit-bet-category-<key>. */
  testId: string;
  /** The part of a row in its Edit button's test id (the id unless said). */
  editKey?: (row: Row) => string | number;
  rows: Row[];
  loading: boolean;
  columns: DataTableColumn<Row>[];
  emptyText: string;
  tableTestId: string;
  schema: S;
  /** The form's values for a row being edited, or for a new one (null). */
  valuesOf: (row: Row | null) => DefaultValues<z.input<S>>;
  submit: (values: z.output<S>) => Promise<unknown>;
  fields: (props: FormModalRenderProps<S>) => ReactNode;
}

/**
 * One list of the catalogue (bet categories, post categories, Bet4Me plans): its words, a table
 * with an Edit button per row, and the Add/Edit form in a modal. Rows are never deleted here: other
 * rows point at them.
 */
export function CataloguePanel<Row extends { id: number; name: string }, S extends FormSchema>(props: CataloguePanelProps<Row, S>) {
  const { noun, testId, rows, loading, schema, submit } = props;
  const [editing, setEditing] = useState<Row | 'new' | null>(null);
  const edited = editing !== null && editing !== 'new' ? editing : null;
  const editKey = props.editKey ?? ((row: Row) => row.id);
  const columns: DataTableColumn<Row>[] = [
    ...props.columns,
    {
      key: 'edit',
      header: '',
      width: 90,
      align: 'right',
      render: (row) => (
        <Button size="compact-sm" variant="light" onClick={() => setEditing(row)} data-testid={`edit-${testId}-${editKey(row)}`}>
          Edit
        </Button>
      ),
    },
  ];
  const addLabel = `Add ${noun}`;
  return (
    <Stack>
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {props.intro}
        </Text>
        <Button onClick={() => setEditing('new')} data-testid={`add-${testId}`}>
          {addLabel}
        </Button>
      </Group>
      <DataTable columns={columns} rows={rows} rowKey={(row) => row.id} loading={loading} emptyText={props.emptyText} data-testid={props.tableTestId} />
      <FormModal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={edited ? `Edit ${edited.name}` : addLabel}
        schema={schema}
        defaultValues={props.valuesOf(edited)}
        submit={submit}
        data-testid={`${testId}-modal`}
      >
        {props.fields}
      </FormModal>
    </Stack>
  );
}
