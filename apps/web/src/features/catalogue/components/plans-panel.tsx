import { Badge, Switch, TextInput } from '@mantine/core';
import { DURATION_MAX_DAYS, type PlanRow } from '@betdesk/contract';
import { DurationField, MoneyField } from '@/components/form-modal/index.ts';
import { formatDuration, formatMoney } from '@/lib/format.ts';
import { storePlanInputSchema, useStorePlan } from '../api/store-plan.ts';
import { CataloguePanel } from './catalogue-panel.tsx';

/**
 * Bet4Me plans. A plan is never deleted: subscriptions point at it. Taking it off sale stops
 * payments and payment requests from buying it.
 */
export function PlansPanel({ rows, loading }: { rows: PlanRow[]; loading: boolean }) {
  const store = useStorePlan();
  return (
    <CataloguePanel
      noun="Bet4Me plan"
      testId="plan"
      intro="A client payment buys the plan on sale whose price equals what is left after pending bonuses."
      rows={rows}
      loading={loading}
      columns={[
        { key: 'name', header: 'Name' },
        { key: 'duration', header: 'Duration', width: 140, fit: true, render: (p) => formatDuration(p.duration) },
        { key: 'price', header: 'Price (KES)', width: 150, fit: true, align: 'right', render: (p) => formatMoney(p.price) },
        {
          key: 'active',
          header: 'Status',
          width: 120,
          render: (p) => (
            <Badge color={p.active ? 'green' : 'gray'} variant="light">
              {p.active ? 'On sale' : 'Off sale'}
            </Badge>
          ),
        },
        { key: 'subscriptions', header: 'Subscriptions', width: 130, fit: true, align: 'right' },
      ]}
      emptyText="No Bet4Me plans yet. Add one (e.g. Weekly, 7 days) before taking client payments."
      tableTestId="plans-table"
      schema={storePlanInputSchema}
      valuesOf={(edited) => ({
        id: edited?.id,
        name: edited?.name ?? '',
        duration: edited?.duration ?? '',
        price: edited?.price ?? '',
        active: edited?.active ?? true,
      })}
      submit={store.mutateAsync}
      fields={({ form, errorOf }) => (
        <>
          <TextInput label="Name" placeholder="e.g. Weekly" required error={errorOf('name')} {...form.register('name')} />
          <DurationField form={form} errorOf={errorOf} name="duration" description={`1 to ${DURATION_MAX_DAYS} days`} data-testid="plan-duration" />
          <MoneyField form={form} errorOf={errorOf} name="price" label="Price (KES)" required min={0} allowNegative={false} data-testid="plan-price" />
          <Switch
            label="On sale"
            description="Payments and payment requests only buy plans on sale"
            checked={form.watch('active') !== false}
            onChange={(event) => form.setValue('active', event.currentTarget.checked)}
            error={errorOf('active')}
          />
        </>
      )}
    />
  );
}
