import { TextInput, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { ApproveRefundForm, type Refund } from '@betdesk/contract';
import { FormModal } from '@/components/form-modal/index.ts';
import { formatMoney } from '@/lib/format.ts';
import { approveRefundWithCode } from '../api/refund-actions.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/**
 * Approving money out asks for the approver's own authenticator code, even inside their session
 * (decision 036). The server's refusals show here: 403 to the admin who asked, 422 under the code.
 */
export function ApproveRefundModal({ refund, onClose }: { refund: Refund | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  return (
    <FormModal
      opened={refund !== null}
      onClose={onClose}
      title="Approve this refund"
      schema={ApproveRefundForm}
      defaultValues={{ code: '' }}
      submit={(values) => approveRefundWithCode(refund!.id, values.code)}
      onSaved={() => void queryClient.invalidateQueries({ queryKey: queryKeys.refunds.all })}
      submitLabel="Approve and send"
      data-testid="approve-refund-modal"
    >
      {({ form, errorOf }) => (
        <>
          {refund && (
            <Text size="sm">
              {formatMoney(refund.amount)} of payment {refund.trans_id} goes back by {refund.method === 'reversal' ? 'M-Pesa Reversal' : 'B2C'}, asked by{' '}
              {refund.requested_by ?? 'another admin'}. Once approved it is sent to M-Pesa and cannot be stopped.
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
            data-testid="approve-refund-code"
          />
        </>
      )}
    </FormModal>
  );
}
