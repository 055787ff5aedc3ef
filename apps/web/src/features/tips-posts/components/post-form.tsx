import { lazy, Suspense, useState } from 'react';
import { Button, Checkbox, Group, NativeSelect, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { betCategoryLabel, type BetCategory, type ImageType, type PostCategory, type PostForm as PostFields } from '@betdesk/contract';
import { PageForm } from '@/components/page-form.tsx';
import { RichTextEditor } from '@/components/rich-text-editor/index.ts';
import { can } from '@betdesk/contract';
import { useRole } from '@/lib/auth.ts';
import { isHttpError } from '@/lib/http.ts';

export interface PostFormValues {
  title: string;
  post_category_id: string | null;
  image_type_id: string | null;
  match_date: string | null;
  selected_bets: string[];
  content: string;
  attach_ticket: boolean;
}

export const emptyPost: PostFormValues = {
  title: '',
  post_category_id: null,
  image_type_id: null,
  match_date: null,
  selected_bets: [],
  content: '',
  attach_ticket: false,
};

interface PostFormProps {
  choices: { post_categories: PostCategory[]; image_types: ImageType[]; bet_categories: BetCategory[] };
  initial: PostFormValues;
  submitLabel: string;
  onSubmit: (body: PostFields) => Promise<unknown>;
}

type FieldName = keyof PostFormValues;

// The upload dialog (a modal form) is fetched when asked for, not with the post form (decision 067).
const UploadCoverModal = lazy(() => import('./upload-cover-modal.tsx').then((m) => ({ default: m.UploadCoverModal })));

/**
 * The post form of /tips/posts/add and /tips/posts/edit: title, category, cover image, match date,
 * the bets it is shown in (name plus code) and the rich-text content. Field errors come from the
 * server and show under the inputs, with a banner.
 */
export function PostForm({ choices, initial, submitLabel, onSubmit }: PostFormProps) {
  const [values, setValues] = useState<PostFormValues>(initial);
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [banner, setBanner] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [uploading, setUploading] = useState(false);
  const mayUpload = can(useRole(), 'upload:images');
  const set = <K extends FieldName>(key: K, value: PostFormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors(({ [key]: _fixed, ...rest }) => rest as Partial<Record<FieldName, string>>);
  };
  /** What binds an input that hands over its value (not an event) to a field: value, change and error. */
  const bind = <K extends FieldName>(key: K) => ({
    value: values[key],
    onChange: (value: PostFormValues[K]) => set(key, value),
    error: errors[key],
  });

  const submit = async () => {
    setBusy(true);
    setErrors({});
    setBanner(null);
    try {
      await onSubmit({
        title: values.title,
        // An empty select is sent as null, never 0: the server answers 'Choose a ...' under it.
        post_category_id: values.post_category_id,
        image_type_id: values.image_type_id,
        match_date: values.match_date ?? '',
        selected_bets: values.selected_bets.map(Number),
        content: values.content,
        attach_ticket: values.attach_ticket,
      });
    } catch (error) {
      if (isHttpError(error)) {
        setBanner(error.info);
        const next: Partial<Record<FieldName, string>> = {};
        for (const [field, messages] of Object.entries(error.errors ?? {})) {
          const name = field.split('.')[0] as FieldName;
          if (name in emptyPost) next[name] = messages.join(' ');
        }
        setErrors(next);
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <PageForm onSubmit={submit} error={banner}>
      <TextInput
        label="Title"
        required
        value={values.title}
        onChange={(e) => set('title', e.currentTarget.value)}
        error={errors.title}
      />
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {/* Native controls (decision 067): a phone's own pickers, and no popover code in the form's first load. */}
        <NativeSelect
          label="Category"
          required
          data={[{ value: '', label: 'Pick a category' }, ...choices.post_categories.map((c) => ({ value: String(c.id), label: c.name }))]}
          value={values.post_category_id ?? ''}
          onChange={(e) => set('post_category_id', e.currentTarget.value || null)}
          error={errors.post_category_id}
        />
        <Stack gap={4}>
          <NativeSelect
            label="Cover image"
            data={[{ value: '', label: 'Default image' }, ...choices.image_types.map((i) => ({ value: String(i.id), label: i.title }))]}
            value={values.image_type_id ?? ''}
            onChange={(e) => set('image_type_id', e.currentTarget.value || null)}
            error={errors.image_type_id}
          />
          {mayUpload && (
            <Button variant="subtle" size="compact-xs" onClick={() => setUploading(true)} style={{ alignSelf: 'flex-start' }}>
              Upload a new cover image
            </Button>
          )}
        </Stack>
        <TextInput
          label="Match date"
          type="date"
          required
          value={values.match_date ?? ''}
          onChange={(e) => set('match_date', e.currentTarget.value || null)}
          error={errors.match_date}
          data-testid="match-date"
        />
      </SimpleGrid>
      <Checkbox.Group label="Show in these bets" required {...bind('selected_bets')}>
        <Group mt="xs">
          {choices.bet_categories.map((b) => (
            <Checkbox key={b.id} value={String(b.id)} label={betCategoryLabel(b)} />
          ))}
        </Group>
      </Checkbox.Group>
      <Checkbox
        label="Show each bet's ticket of the match date in the post"
        description="The selections with odds entered on the SMS tips screen, with their results"
        checked={values.attach_ticket}
        onChange={(e) => set('attach_ticket', e.currentTarget.checked)}
        data-testid="post-attach-ticket"
      />
      <RichTextEditor label="Content" {...bind('content')} data-testid="post-content" />
      <Group justify="flex-end">
        <Button type="submit" loading={busy} disabled={busy}>
          {submitLabel}
        </Button>
      </Group>
      {uploading && (
        <Suspense fallback={null}>
          <UploadCoverModal
            opened
            onClose={() => setUploading(false)}
            onUploaded={(imageTypeId) => set('image_type_id', String(imageTypeId))}
          />
        </Suspense>
      )}
    </PageForm>
  );
}
