import { useState } from 'react';
import { Badge, Button, Group, NumberInput, Stack, Switch, Text, TextInput } from '@mantine/core';
import { DURATION_MAX_DAYS, type PlanRow } from '@betdesk/contract';
import { DataTable, type DataTableColumn } from '@/components/data-table/index.ts';
import { FormModal, numberFieldProps } from '@/components/form-modal/index.ts';
import { formatDuration, formatMoney } from '@/lib/format.ts';
import { storePlanInputSchema, useStorePlan } from '../api/store-plan.ts';

type Editing = PlanRow | 'new' | null;

/**
 * Bet4Me plans. A plan is never deleted: subscriptions point at it. Taking it off sale stops
 * payments and payment requests from buying it.
 */
export function PlansPanel({ rows, loading }: { rows: PlanRow[]; loading: boolean }) {
  const store = useStorePlan();
  const [editing, setEditing] = useState<Editing>(null);
  const edited = editing !== null && editing !== 'new' ? editing : null;
  const columns: DataTableColumn<PlanRow>[] = [
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
    {
      key: 'edit',
      header: '',
      width: 90,
      align: 'right',
      render: (p) => (
        <Button size="compact-sm" variant="light" onClick={() => setEditing(p)} data-testid={`edit-plan-${p.id}`}>
          Edit
        </Button>
      ),
    },
  ];
  return (
    <Stack>
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          A client payment buys the plan on sale whose price equals what is left after pending bonuses.
        </Text>
        <Button onClick={() => setEditing('new')} data-testid="add-plan">
          Add plan
        </Button>
      </Group>
      <DataTable
        columns={columns}
        rows={rows}
        rowKey={(p) => p.id}
        loading={loading}
        emptyText="No Bet4Me plans yet. Add one (e.g. Weekly, 7 days) before taking client payments."
        data-testid="plans-table"
      />
      <FormModal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={edited ? `Edit ${edited.name}` : 'Add Bet4Me plan'}
        schema={storePlanInputSchema}
        defaultValues={{
          id: edited?.id,
          name: edited?.name ?? '',
          duration: edited?.duration ?? '',
          price: edited?.price ?? '',
          active: edited?.active ?? true,
        }}
        submit={store.mutateAsync}
        data-testid="plan-modal"
      >
        {({ form, errorOf }) => (
          <>
            <TextInput label="Name" placeholder="e.g. Weekly" required error={errorOf('name')} {...form.register('name')} />
            <NumberInput
              label="Duration (days)"
              description={`1 to ${DURATION_MAX_DAYS} days`}
              required
              min={1}
              max={DURATION_MAX_DAYS}
              allowDecimal={false}
              allowNegative={false}
              error={errorOf('duration')}
              {...numberFieldProps(form, 'duration')}
              data-testid="plan-duration"
            />
            <NumberInput
              label="Price (KES)"
              required
              min={0}
              decimalScale={2}
              thousandSeparator=","
              allowNegative={false}
              error={errorOf('price')}
              {...numberFieldProps(form, 'price')}
              data-testid="plan-price"
            />
            <Switch
              label="On sale"
              description="Payments and payment requests only buy plans on sale"
              checked={form.watch('active') !== false}
              onChange={(event) => form.setValue('active', event.currentTarget.checked)}
              error={errorOf('active')}
            />
          </>
        )}
      </FormModal>
    </Stack>
  );
}
