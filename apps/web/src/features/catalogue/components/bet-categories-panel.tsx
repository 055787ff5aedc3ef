import { Anchor, Text, TextInput } from '@mantine/core';
import { Link } from 'react-router';
import { BET_CATEGORY_CODE_MAX, type BetCategoryRow } from '@betdesk/contract';
import { paths } from '@/config/paths.ts';
import { storeBetCategoryInputSchema, useStoreBetCategory } from '../api/store-bet-category.ts';
import { CataloguePanel } from './catalogue-panel.tsx';

function packagesText(b: BetCategoryRow): string {
  if (b.sms_packages + b.web_packages === 0) return 'None yet';
  return `${b.sms_packages} SMS · ${b.web_packages} Web`;
}

/** Bet categories: what tips are sold as; the code is what payers type as the M-Pesa account. */
export function BetCategoriesPanel({ rows, loading }: { rows: BetCategoryRow[]; loading: boolean }) {
  const store = useStoreBetCategory();
  return (
    <CataloguePanel
      noun="bet category"
      testId="bet-category"
      editKey={(b) => b.code}
      intro={
        <>
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
        </>
      }
      rows={rows}
      loading={loading}
      columns={[
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
      ]}
      emptyText="No bet categories yet. Add the first one to start selling tips."
      tableTestId="bet-categories-table"
      schema={storeBetCategoryInputSchema}
      valuesOf={(edited) => ({ id: edited?.id, name: edited?.name ?? '', code: edited?.code ?? '' })}
      submit={store.mutateAsync}
      fields={({ form, errorOf }) => (
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
    />
  );
}
