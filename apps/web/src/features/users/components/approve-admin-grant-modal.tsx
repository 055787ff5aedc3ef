import { Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { ApproveAdminGrantForm, localPhone, type AdminGrant } from '@betdesk/contract';
import { FormModal } from '@/components/form-modal/index.ts';
import { queryKeys } from '@/lib/query-keys.ts';
import { approveAdminGrantWithCode } from '../api/admin-grants.ts';

/**
 * Giving admin rights asks for the approver's own authenticator code, even inside their session
 * (decision 056). The server's refusals show here: 403 to the admin who asked, to one tied to them
 * and to a new admin still cooling off; 422 under the code.
 */
export function ApproveAdminGrantModal({ grant, onClose }: { grant: AdminGrant | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  return (
    <FormModal
      opened={grant !== null}
      onClose={onClose}
      title="Approve admin rights"
      schema={ApproveAdminGrantForm}
      defaultValues={{ code: '' }}
      submit={(values) => approveAdminGrantWithCode(grant!.id, values.code)}
      onSaved={() => void queryClient.invalidateQueries({ queryKey: queryKeys.users.all })}
      submitLabel="Approve"
      data-testid="approve-admin-grant-modal"
    >
      {({ form, errorOf }) => (
        <>
          {grant && (
            <Text size="sm">
              {grant.user_name} ({grant.user_email}, {localPhone(grant.user_phone)}) becomes an admin, asked by {grant.requested_by ?? 'another admin'}. Check
              with them that this person is meant to be an admin: an admin sees all money and approves refunds.
            </Text>
          )}
          <TextInput
            label="6-digit code from your authenticator app"
            required
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={8}
            error={errorOf('code')}
            {...form.register('code')}
            data-testid="approve-admin-grant-code"
          />
        </>
      )}
    </FormModal>
  );
}
