import { FileInput, TextInput } from '@mantine/core';
import { Controller } from 'react-hook-form';
import { z } from 'zod';
import { COVER_IMAGE_MAX_BYTES, COVER_IMAGE_TYPES } from '@betdesk/contract';
import { FormModal } from '@/components/form-modal/index.ts';
import { useUploadCoverImage } from '../api/upload-cover-image.ts';

const UploadForm = z.object({
  title: z.string().trim().min(1, 'The title is required').max(100),
  image: z
    .instanceof(File, { message: 'Choose a picture to upload' })
    .refine((f) => f.size <= COVER_IMAGE_MAX_BYTES, 'The picture may not be larger than 2 MB'),
});

/** An admin uploads a new cover picture; it becomes a choice of the post form. */
export function UploadCoverModal({
  opened,
  onClose,
  onUploaded,
}: {
  opened: boolean;
  onClose: () => void;
  onUploaded: (imageTypeId: number) => void;
}) {
  const upload = useUploadCoverImage();
  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title="Upload a cover image"
      schema={UploadForm}
      defaultValues={{ title: '', image: undefined }}
      submit={(values) => upload.mutateAsync(values)}
      onSaved={(result) => onUploaded(result.image_type.id)}
      submitLabel="Upload"
      data-testid="upload-cover-modal"
    >
      {({ form, errorOf }) => (
        <>
          <TextInput label="Title" required error={errorOf('title')} {...form.register('title')} />
          <Controller
            control={form.control}
            name="image"
            render={({ field }) => (
              <FileInput
                label="Picture (PNG, JPEG, WebP or GIF, up to 2 MB)"
                required
                accept={COVER_IMAGE_TYPES.join(',')}
                value={field.value ?? null}
                onChange={(file) => field.onChange(file ?? undefined)}
                error={errorOf('image')}
              />
            )}
          />
        </>
      )}
    </FormModal>
  );
}
