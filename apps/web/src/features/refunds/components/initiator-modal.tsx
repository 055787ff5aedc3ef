import { PasswordInput, Text, Textarea, TextInput } from '@mantine/core';
import { InitiatorForm, saveInitiator, type ResponseOf } from '@betdesk/contract';
import { FormModal } from '@/components/form-modal/index.ts';
import { request } from '@/lib/http.ts';

/**
 * The M-Pesa initiator refunds are sent as: its name, its password (sealed at rest, never shown
 * again) and M-Pesa's public certificate that encrypts it (docs/OPERATIONS.md, section 5).
 */
export function InitiatorModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title="M-Pesa initiator"
      schema={InitiatorForm}
      defaultValues={{ name: '', password: '', certificate: '' }}
      submit={(values) => request<ResponseOf<typeof saveInitiator>>('POST', saveInitiator.path, { body: values })}
      data-testid="initiator-modal"
    >
      {({ form, errorOf }) => (
        <>
          <Text size="sm">
            The API user created on the M-Pesa org portal with the Reversal, B2C and Transaction Status roles. Saving replaces the one kept; the
            password is never shown again.
          </Text>
          <TextInput label="Initiator name" required error={errorOf('name')} {...form.register('name')} />
          <PasswordInput label="Initiator password" required autoComplete="new-password" error={errorOf('password')} {...form.register('password')} />
          <Textarea
            label="M-Pesa public certificate (PEM)"
            required
            autosize
            minRows={4}
            maxRows={10}
            placeholder="-----BEGIN CERTIFICATE-----"
            styles={{ input: { fontFamily: 'monospace', fontSize: 12 } }}
            error={errorOf('certificate')}
            {...form.register('certificate')}
          />
        </>
      )}
    </FormModal>
  );
}
