import { Select, Text, TextInput } from '@mantine/core';
import { DURATION_MAX_DAYS, TIPS_MEDIA_LABELS } from '@betdesk/contract';
import { formatDuration } from '@/lib/format.ts';
import { DurationField, FormModal, MoneyField } from '@/components/form-modal/index.ts';
import { useBetCategories } from '../api/get-bet-categories.ts';
import type { PricesMedium } from '../api/get-packages.ts';
import { storePackageInputSchema, useStorePackage } from '../api/store-package.ts';

/** Adds a package (bet category x medium x duration, at a price); the medium starts as the page's. */
export function AddPackageModal({ medium, opened, onClose }: { medium: PricesMedium; opened: boolean; onClose: () => void }) {
  const categories = useBetCategories(opened);
  const store = useStorePackage();
  const choices = (categories.data?.bet_categories ?? []).map((b) => ({ value: String(b.id), label: `${b.name} (${b.code})` }));
  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title="Add package"
      schema={storePackageInputSchema}
      defaultValues={{ bet_category_id: '', medium, name: '', duration: '', price: '' }}
      submit={store.mutateAsync}
      submitLabel="Add package"
      data-testid="add-package-modal"
    >
      {({ form, errorOf }) => {
        const days = Number(form.watch('duration'));
        return (
          <>
            {categories.isSuccess && choices.length === 0 && (
              <Text size="sm" c="orange">
                There are no bet categories yet: add one under Catalogue first.
              </Text>
            )}
            <Select
              label="Bet category"
              placeholder="Choose a bet category"
              required
              searchable
              data={choices}
              value={String(form.watch('bet_category_id') ?? '') || null}
              onChange={(value) => form.setValue('bet_category_id', value ?? '')}
              error={errorOf('bet_category_id')}
              data-testid="package-bet-category"
            />
            <Select
              label="Get Tips Via"
              required
              allowDeselect={false}
              data={Object.entries(TIPS_MEDIA_LABELS).map(([value, label]) => ({ value, label }))}
              value={String(form.watch('medium') ?? medium)}
              onChange={(value) => form.setValue('medium', value === 'web' || value === 'sms' ? value : medium)}
              error={errorOf('medium')}
              data-testid="package-medium"
            />
            <DurationField
              form={form}
              errorOf={errorOf}
              name="duration"
              description={Number.isInteger(days) && days > 0 ? formatDuration(days) : `1 to ${DURATION_MAX_DAYS} days`}
              data-testid="package-duration"
            />
            <TextInput
              label="Name"
              placeholder="e.g. Daily 2 Odds SMS weekly"
              required
              error={errorOf('name')}
              {...form.register('name')}
              data-testid="package-name"
            />
            <MoneyField
              form={form}
              errorOf={errorOf}
              name="price"
              label="Price (KES)"
              description="A payment of exactly this amount to the category's code buys the package"
              required
              min={0}
              allowNegative={false}
              data-testid="package-price"
            />
          </>
        );
      }}
    </FormModal>
  );
}
