import { Checkbox, Group, MultiSelect, NumberInput, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { z } from 'zod';
import { PROMO_KIND_LABELS, PromoCodeBody, type PromoCode } from '@betdesk/contract';
import { FormModal, MoneyField, numberFieldProps } from '@/components/form-modal/index.ts';
import { usePackageChoices, useSavePromoCode } from '../api/promo-codes.ts';

const typed = z.union([z.number(), z.string()]);
const optionalNumber = (v: number | string) => (v === '' ? null : Number(v));
/** A datetime-local value (the browser's own time, Nairobi for staff) as an instant. */
const instant = (v: string) => (v === '' || Number.isNaN(Date.parse(v)) ? v : new Date(v).toISOString());

/** The form as typed (numbers may be blank, dates are datetime-local), checked as the server checks the body. */
const formSchema = z
  .object({
    code: z.string(),
    kind: z.enum(['percent', 'fixed']),
    percent_off: typed,
    amount_off: typed,
    package_ids: z.array(z.string()),
    starts_on: z.string(),
    ends_on: z.string(),
    max_uses: typed,
    one_per_phone: z.boolean(),
    first_purchase_only: z.boolean(),
  })
  .transform((v): z.input<typeof PromoCodeBody> => ({
    code: v.code,
    kind: v.kind,
    percent_off: v.kind === 'percent' ? optionalNumber(v.percent_off) : null,
    amount_off: v.kind === 'fixed' ? optionalNumber(v.amount_off) : null,
    package_ids: v.package_ids.map(Number),
    starts_on: instant(v.starts_on),
    ends_on: instant(v.ends_on),
    max_uses: optionalNumber(v.max_uses),
    one_per_phone: v.one_per_phone,
    first_purchase_only: v.first_purchase_only,
  }))
  .pipe(PromoCodeBody);

/** An instant as a datetime-local value in the browser's time. */
function local(isoText: string): string {
  const d = new Date(isoText);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function defaultsOf(code: PromoCode | null): z.input<typeof formSchema> {
  const now = Date.now();
  return {
    code: code?.code ?? '',
    kind: code?.kind ?? 'percent',
    percent_off: code?.percent_off ?? '',
    amount_off: code?.amount_off ?? '',
    package_ids: (code?.package_ids ?? []).map(String),
    starts_on: local(code?.starts_on ?? new Date(now).toISOString()),
    ends_on: local(code?.ends_on ?? new Date(now + 30 * 86_400_000).toISOString()),
    max_uses: code?.max_uses ?? '',
    one_per_phone: code?.one_per_phone ?? true,
    first_purchase_only: code?.first_purchase_only ?? false,
  };
}

/** Creates a promo code (code null) or changes one: percent or KES off, packages, start and end, cap, once per phone, first purchase only. */
export function PromoCodeFormModal({ code, opened, onClose }: { code: PromoCode | null; opened: boolean; onClose: () => void }) {
  const save = useSavePromoCode();
  const choices = usePackageChoices(opened);
  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={code ? `Edit ${code.code}` : 'New promo code'}
      schema={formSchema}
      defaultValues={defaultsOf(code)}
      submit={(body) => save.mutateAsync({ id: code?.id ?? null, body })}
      submitLabel={code ? 'Save' : 'Create code'}
      data-testid="promo-code-modal"
    >
      {({ form, errorOf }) => {
        const kind = form.watch('kind');
        return (
          <Stack gap="sm">
            <TextInput
              label="Code"
              description="Letters and digits, 3 to 20; typed in any case"
              required
              error={errorOf('code')}
              {...form.register('code')}
              data-testid="promo-code-code"
            />
            <Stack gap={4}>
              <Text size="sm" fw={500} id="promo-kind-label">
                Discount
              </Text>
              <SegmentedControl
                aria-labelledby="promo-kind-label"
                value={kind}
                onChange={(value) => form.setValue('kind', value === 'fixed' ? 'fixed' : 'percent')}
                data={Object.entries(PROMO_KIND_LABELS).map(([value, label]) => ({ value, label }))}
                data-testid="promo-code-kind"
              />
            </Stack>
            {kind === 'percent' ? (
              <NumberInput
                label="Percent off"
                required
                min={1}
                max={100}
                allowDecimal={false}
                allowNegative={false}
                error={errorOf('percent_off')}
                {...numberFieldProps(form, 'percent_off')}
                data-testid="promo-code-percent"
              />
            ) : (
              <MoneyField form={form} errorOf={errorOf} name="amount_off" label="KES off" required min={0} allowNegative={false} data-testid="promo-code-amount" />
            )}
            <MultiSelect
              label="Packages"
              placeholder="Choose the packages"
              required
              searchable
              data={choices.data ?? []}
              value={form.watch('package_ids')}
              onChange={(value) => form.setValue('package_ids', value)}
              error={errorOf('package_ids')}
              data-testid="promo-code-packages"
            />
            <Group grow align="flex-start">
              <TextInput label="Starts" type="datetime-local" required error={errorOf('starts_on')} {...form.register('starts_on')} data-testid="promo-code-starts" />
              <TextInput label="Ends" type="datetime-local" required error={errorOf('ends_on')} {...form.register('ends_on')} data-testid="promo-code-ends" />
            </Group>
            <NumberInput
              label="Cap on uses"
              description="Blank: no cap"
              min={1}
              allowDecimal={false}
              allowNegative={false}
              error={errorOf('max_uses')}
              {...numberFieldProps(form, 'max_uses')}
              data-testid="promo-code-cap"
            />
            <Checkbox label="One use per phone" {...form.register('one_per_phone')} error={errorOf('one_per_phone')} data-testid="promo-code-one-per-phone" />
            <Checkbox label="First purchase only" {...form.register('first_purchase_only')} error={errorOf('first_purchase_only')} data-testid="promo-code-first-only" />
          </Stack>
        );
      }}
    </FormModal>
  );
}
