import { useState } from 'react';
import { Button, Card, Stack, TextInput, Title } from '@mantine/core';
import { durationLabel, type PricePackage } from '@betdesk/contract';
import { DataTable, type DataTableColumn } from '@/components/data-table/index.ts';
import { FormModal } from '@/components/form-modal/index.ts';
import { formatMoney } from '@/lib/format.ts';
import { usePackages, type PricesMedium } from '../api/get-packages.ts';
import { updatePriceInputSchema, useUpdatePrice } from '../api/update-price.ts';

/** /tips/prices/web-tips and /tips/prices/sms-tips: Name, Price (KES), Duration and an Edit modal. */
export function PricesPage({ medium }: { medium: PricesMedium }) {
  const packages = usePackages(medium);
  const update = useUpdatePrice();
  const [editing, setEditing] = useState<PricePackage | null>(null);
  const columns: DataTableColumn<PricePackage>[] = [
    { key: 'name', header: 'Name' },
    { key: 'price', header: 'Price (KES)', align: 'right', render: (p) => formatMoney(p.price) },
    { key: 'duration', header: 'Duration', render: (p) => durationLabel(p.duration) },
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
      <Title order={2}>{medium === 'web' ? 'Web Tips Prices' : 'SMS Tips Prices'}</Title>
      <Card withBorder>
        <DataTable
          columns={columns}
          rows={packages.data?.packages ?? []}
          rowKey={(p) => p.id}
          loading={packages.isFetching}
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
    </Stack>
  );
}
