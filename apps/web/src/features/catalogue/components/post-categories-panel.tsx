import { useState } from 'react';
import { Button, Checkbox, Group, Stack, Text, TextInput } from '@mantine/core';
import type { PostCategoryRow } from '@betdesk/contract';
import { DataTable, type DataTableColumn } from '@/components/data-table/index.ts';
import { FormModal } from '@/components/form-modal/index.ts';
import { storePostCategoryInputSchema, useStorePostCategory } from '../api/store-post-category.ts';

type Editing = PostCategoryRow | 'new' | null;

/** Post categories: the Category select of a web tip post. */
export function PostCategoriesPanel({ rows, loading }: { rows: PostCategoryRow[]; loading: boolean }) {
  const store = useStorePostCategory();
  const [editing, setEditing] = useState<Editing>(null);
  const edited = editing !== null && editing !== 'new' ? editing : null;
  const columns: DataTableColumn<PostCategoryRow>[] = [
    { key: 'name', header: 'Name' },
    { key: 'posts', header: 'Posts', width: 120, fit: true, align: 'right' },
    { key: 'public', header: 'Free on the portal', width: 160, render: (c) => (c.public ? 'Yes' : 'No') },
    {
      key: 'edit',
      header: '',
      width: 90,
      align: 'right',
      render: (c) => (
        <Button size="compact-sm" variant="light" onClick={() => setEditing(c)} data-testid={`edit-post-category-${c.id}`}>
          Edit
        </Button>
      ),
    },
  ];
  return (
    <Stack>
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          Each web tip post belongs to one of these categories. The posts of a category marked free are shown in full to
          everyone on the subscriber portal's home page.
        </Text>
        <Button onClick={() => setEditing('new')} data-testid="add-post-category">
          Add post category
        </Button>
      </Group>
      <DataTable
        columns={columns}
        rows={rows}
        rowKey={(c) => c.id}
        loading={loading}
        emptyText="No post categories yet. Add one before writing web tips."
        data-testid="post-categories-table"
      />
      <FormModal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={edited ? `Edit ${edited.name}` : 'Add post category'}
        schema={storePostCategoryInputSchema}
        defaultValues={{ id: edited?.id, name: edited?.name ?? '', public: edited?.public ?? false }}
        submit={store.mutateAsync}
        data-testid="post-category-modal"
      >
        {({ form, errorOf }) => (
          <>
            <TextInput label="Name" placeholder="e.g. Football" required error={errorOf('name')} {...form.register('name')} />
            <Checkbox
              mt="md"
              label="Free tips: show its posts in full on the subscriber portal"
              error={errorOf('public')}
              {...form.register('public')}
            />
          </>
        )}
      </FormModal>
    </Stack>
  );
}
