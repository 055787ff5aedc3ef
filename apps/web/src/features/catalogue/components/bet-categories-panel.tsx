import { useState } from 'react';
import { Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { Link } from 'react-router';
import { BET_CATEGORY_CODE_MAX, type BetCategoryRow } from '@betdesk/contract';
import { DataTable, type DataTableColumn } from '@/components/data-table/index.ts';
import { FormModal } from '@/components/form-modal/index.ts';
import { paths } from '@/config/paths.ts';
import { storeBetCategoryInputSchema, useStoreBetCategory } from '../api/store-bet-category.ts';

type Editing = BetCategoryRow | 'new' | null;

function packagesText(b: BetCategoryRow): string {
  if (b.sms_packages + b.web_packages === 0) return 'None yet';
  return `${b.sms_packages} SMS · ${b.web_packages} Web`;
}

/** Bet categories: what tips are sold as; the code is what payers type as the M-Pesa account. */
export function BetCategoriesPanel({ rows, loading }: { rows: BetCategoryRow[]; loading: boolean }) {
  const store = useStoreBetCategory();
  const [editing, setEditing] = useState<Editing>(null);
  const edited = editing !== null && editing !== 'new' ? editing : null;
  const columns: DataTableColumn<BetCategoryRow>[] = [
    { key: 'name', header: 'Name' },
    { key: 'code', header: 'Code (M-Pesa account)', width: 200, fit: true, render: (b) => <Text ff="monospace">{b.code}</Text> },
    {
      key: 'packages',
      header: 'Packages',
      width: 180,
      render: (b) => (
        <Text size="sm" c={b.sms_packages + b.web_packages === 0 ? 'orange' : undefined}>
          {packagesText(b)}
        </Text>
      ),
    },
    {
      key: 'edit',
      header: '',
      width: 90,
      align: 'right',
      render: (b) => (
        <Button size="compact-sm" variant="light" onClick={() => setEditing(b)} data-testid={`edit-bet-category-${b.code}`}>
          Edit
        </Button>
      ),
    },
  ];
  return (
    <Stack>
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          A payment whose M-Pesa account number is a category code buys that category&apos;s package of the same price.
          Add their packages under{' '}
          <Anchor component={Link} to={paths.tips.smsTipsPrices}>
            SMS tips prices
          </Anchor>{' '}
          and{' '}
          <Anchor component={Link} to={paths.tips.webTipsPrices}>
            web tips prices
          </Anchor>
          .
        </Text>
        <Button onClick={() => setEditing('new')} data-testid="add-bet-category">
          Add bet category
        </Button>
      </Group>
      <DataTable
        columns={columns}
        rows={rows}
        rowKey={(b) => b.id}
        loading={loading}
        emptyText="No bet categories yet. Add the first one to start selling tips."
        data-testid="bet-categories-table"
      />
      <FormModal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={edited ? `Edit ${edited.name}` : 'Add bet category'}
        schema={storeBetCategoryInputSchema}
        defaultValues={{ id: edited?.id, name: edited?.name ?? '', code: edited?.code ?? '' }}
        submit={store.mutateAsync}
        data-testid="bet-category-modal"
      >
        {({ form, errorOf }) => (
          <>
            <TextInput label="Name" placeholder="e.g. Daily 2 Odds" required error={errorOf('name')} {...form.register('name')} />
            <TextInput
              label="Code"
              description={`Letters and digits, up to ${BET_CATEGORY_CODE_MAX}; saved in capitals. Payers type it as the account number.`}
              placeholder="e.g. D2"
              required
              maxLength={BET_CATEGORY_CODE_MAX + 2}
              error={errorOf('code')}
              {...form.register('code')}
            />
          </>
        )}
      </FormModal>
    </Stack>
  );
}
