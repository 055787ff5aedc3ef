import { Checkbox, TextInput } from '@mantine/core';
import type { PostCategoryRow } from '@betdesk/contract';
import { storePostCategoryInputSchema, useStorePostCategory } from '../api/store-post-category.ts';
import { CataloguePanel } from './catalogue-panel.tsx';

/** Post categories: the Category select of a web tip post. */
export function PostCategoriesPanel({ rows, loading }: { rows: PostCategoryRow[]; loading: boolean }) {
  const store = useStorePostCategory();
  return (
    <CataloguePanel
      noun="post category"
      testId="post-category"
      intro="Each web tip post belongs to one of these categories. The posts of a category marked free are shown in full to everyone on the subscriber portal's home page."
      rows={rows}
      loading={loading}
      columns={[
        { key: 'name', header: 'Name' },
        { key: 'posts', header: 'Posts', width: 120, fit: true, align: 'right' },
        { key: 'public', header: 'Free on the portal', width: 160, render: (c) => (c.public ? 'Yes' : 'No') },
      ]}
      emptyText="No post categories yet. Add one before writing web tips."
      tableTestId="post-categories-table"
      schema={storePostCategoryInputSchema}
      valuesOf={(edited) => ({ id: edited?.id, name: edited?.name ?? '', public: edited?.public ?? false })}
      submit={store.mutateAsync}
      fields={({ form, errorOf }) => (
        <>
          <TextInput label="Name" placeholder="e.g. Football" required error={errorOf('name')} {...form.register('name')} />
          <Checkbox mt="md" label="Free tips: show its posts in full on the subscriber portal" error={errorOf('public')} {...form.register('public')} />
        </>
      )}
    />
  );
}
