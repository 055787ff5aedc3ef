import { PasswordInput } from '@mantine/core';
import { FormModal } from '@/components/form-modal/index.ts';
import { logout } from '@/lib/auth.ts';
import { savePasswordInputSchema, useSavePassword } from '../api/save-password.ts';

interface ChangePasswordModalProps {
  opened: boolean;
  onClose: () => void;
}

/** New password + retype; after a successful save the modal closes and the user is logged out. */
export function ChangePasswordModal({ opened, onClose }: ChangePasswordModalProps) {
  const save = useSavePassword();
  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title="Change password"
      schema={savePasswordInputSchema}
      defaultValues={{ password: '', password_confirmation: '' }}
      submit={save.mutateAsync}
      onSaved={() => void logout()}
      submitLabel="Save password"
      data-testid="change-password-modal"
    >
      {({ form, errorOf }) => (
        <>
          <PasswordInput
            label="New password"
            autoComplete="new-password"
            required
            error={errorOf('password')}
            {...form.register('password')}
          />
          <PasswordInput
            label="Retype password"
            autoComplete="new-password"
            required
            error={errorOf('password_confirmation')}
            {...form.register('password_confirmation')}
          />
        </>
      )}
    </FormModal>
  );
}
