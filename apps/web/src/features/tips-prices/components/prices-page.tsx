import { useState } from 'react';
import { Button, Card, Checkbox, Group, Stack, TextInput, Title } from '@mantine/core';
import type { PackageTrial, PricePackage } from '@betdesk/contract';
import { DataTable, type DataTableColumn } from '@/components/data-table/index.ts';
import { FormModal } from '@/components/form-modal/index.ts';
import { formatDuration, formatMoney } from '@/lib/format.ts';
import { usePackages, type PricesMedium } from '../api/get-packages.ts';
import { updatePriceInputSchema, useUpdatePrice } from '../api/update-price.ts';
import { saveTrialInputSchema, usePackageTrials, useSaveTrial } from '../api/package-trials.ts';
import { AddPackageModal } from './add-package-modal.tsx';

/**
 * /tips/prices/web-tips and /tips/prices/sms-tips: Name, Price (KES), Duration and an Edit modal,
 * plus Add package (not in the spec: without it a fresh install has nothing to sell), and each
 * package's free trial (decision 089): its days and whether it needs automatic renewal. Edit may
 * mark a 1-day package sold by the day (decision 095): the Duration column then says "Per day".
 */
export function PricesPage({ medium }: { medium: PricesMedium }) {
  const packages = usePackages(medium);
  const update = useUpdatePrice();
  const [editing, setEditing] = useState<PricePackage | null>(null);
  const [adding, setAdding] = useState(false);
  const trials = usePackageTrials();
  const saveTrial = useSaveTrial();
  const [trialOf, setTrialOf] = useState<PricePackage | null>(null);
  const trialById = new Map<number, PackageTrial>((trials.data?.packages ?? []).map((t) => [t.id, t]));
  const trialLabel = (p: PricePackage) => {
    const trial = trialById.get(p.id);
    if (!trial || trial.trial_days === 0) return 'None';
    return `${formatDuration(trial.trial_days)}${trial.trial_needs_auto_renew ? ', with renewal' : ''}`;
  };
  const editedTrial = trialOf ? trialById.get(trialOf.id) : undefined;
  const columns: DataTableColumn<PricePackage>[] = [
    { key: 'name', header: 'Name' },
    { key: 'price', header: 'Price (KES)', align: 'right', render: (p) => formatMoney(p.price), width: 140, fit: true },
    // A daily package (decision 095): its price is one day's, bought for 1 to 30 days.
    { key: 'duration', header: 'Duration', render: (p) => (p.billing === 'daily' ? 'Per day' : formatDuration(p.duration)), width: 110, fit: true },
    { key: 'trial', header: 'Free trial', render: trialLabel, width: 170, fit: true },
    {
      key: 'edit',
      header: '',
      align: 'right',
      render: (p) => (
        <Group gap="xs" justify="flex-end" wrap="nowrap">
          <Button size="compact-sm" variant="light" onClick={() => setEditing(p)}>
            Edit
          </Button>
          <Button size="compact-sm" variant="light" onClick={() => setTrialOf(p)} data-testid={`trial-${p.id}`}>
            Trial
          </Button>
        </Group>
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
        defaultValues={{
          bet_category_price_id: editing?.id ?? 0,
          name: editing?.name ?? '',
          price: String(editing?.price ?? ''),
          daily: editing?.billing === 'daily',
        }}
        submit={update.mutateAsync}
        data-testid="price-modal"
      >
        {({ form, errorOf }) => (
          <>
            <TextInput label="Name" required error={errorOf('name')} {...form.register('name')} />
            <TextInput label="Price (KES)" required inputMode="decimal" error={errorOf('price')} {...form.register('price')} />
            <Checkbox
              mt="md"
              label="Sold by the day: the price is one day's, and a punter buys 1 to 30 days (1-day packages only)"
              error={errorOf('daily')}
              {...form.register('daily')}
            />
          </>
        )}
      </FormModal>
      <FormModal
        opened={trialOf !== null}
        onClose={() => setTrialOf(null)}
        title={`Free trial of ${trialOf?.name ?? ''}`}
        schema={saveTrialInputSchema}
        defaultValues={{
          bet_category_price_id: trialOf?.id ?? 0,
          trial_days: String(editedTrial?.trial_days ?? 0),
          trial_needs_auto_renew: editedTrial?.trial_needs_auto_renew ?? false,
        }}
        submit={saveTrial.mutateAsync}
        data-testid="trial-modal"
      >
        {({ form, errorOf }) => (
          <>
            <TextInput
              label="Trial days"
              description="Free days a phone may take once; 0 for no trial"
              required
              inputMode="numeric"
              error={errorOf('trial_days')}
              {...form.register('trial_days')}
            />
            <Checkbox
              mt="md"
              label="Only with automatic renewal (M-Pesa Ratiba): the first debit comes the day the trial ends"
              error={errorOf('trial_needs_auto_renew')}
              {...form.register('trial_needs_auto_renew')}
            />
          </>
        )}
      </FormModal>
      <AddPackageModal medium={medium} opened={adding} onClose={() => setAdding(false)} />
    </Stack>
  );
}
