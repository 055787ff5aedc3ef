import { Select, TextInput } from '@mantine/core';
import { Controller } from 'react-hook-form';
import { ADMIN_CATEGORY_ID, UserForm, localPhone, type User, type UserCategory } from '@betdesk/contract';
import { FormModal } from '@/components/form-modal/index.ts';
import { useStoreUser } from '../api/mutations.ts';

interface UserFormModalProps {
  opened: boolean;
  onClose: () => void;
  /** Null: register mode. Otherwise update mode for this user. */
  user: User | null;
  categories: UserCategory[];
}

/** The register/update modal: one form, the mode flag being whether a user is given. */
export function UserFormModal({ opened, onClose, user, categories }: UserFormModalProps) {
  const save = useStoreUser();
  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={user ? 'Update user' : 'Register user'}
      schema={UserForm}
      defaultValues={{
        user_id: user?.id ?? null,
        name: user?.name ?? '',
        phone_number: user ? localPhone(user.phone_number) : '',
        email: user?.email ?? '',
        gender: user?.gender ?? null,
        category_id: user?.category_id ?? null,
      }}
      submit={save.mutateAsync}
      submitLabel={user ? 'Update' : 'Register'}
      data-testid="user-form-modal"
    >
      {({ form, errorOf }) => (
        <>
          <TextInput label="Name" required error={errorOf('name')} {...form.register('name')} data-testid="user-name" />
          <TextInput label="Phone" placeholder="07XXXXXXXX" required error={errorOf('phone_number')} {...form.register('phone_number')} data-testid="user-phone" />
          <TextInput label="Email" type="email" required error={errorOf('email')} {...form.register('email')} data-testid="user-email" />
          <Controller
            control={form.control}
            name="gender"
            render={({ field }) => (
              <Select
                label="Gender"
                data={[
                  { value: 'male', label: 'Male' },
                  { value: 'female', label: 'Female' },
                ]}
                value={(field.value as string | null) ?? null}
                onChange={(value) => field.onChange(value)}
                error={errorOf('gender')}
                clearable
                data-testid="user-gender"
              />
            )}
          />
          <Controller
            control={form.control}
            name="category_id"
            render={({ field }) => (
              <Select
                label="Category"
                required
                data={categories.map((c) => ({ value: String(c.id), label: c.name }))}
                value={field.value ? String(field.value) : null}
                onChange={(value) => field.onChange(value ? Number(value) : null)}
                error={errorOf('category_id')}
                description={field.value === ADMIN_CATEGORY_ID && user?.category_id !== ADMIN_CATEGORY_ID ? "Admin rights wait for another admin's approval with their code" : undefined}
                data-testid="user-category"
              />
            )}
          />
        </>
      )}
    </FormModal>
  );
}
