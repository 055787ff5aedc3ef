import { Radio, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { ResolveRefundForm, type Refund } from '@betdesk/contract';
import { FormModal } from '@/components/form-modal/index.ts';
import { formatMoney } from '@/lib/format.ts';
import { queryKeys } from '@/lib/query-keys.ts';
import { resolveRefundAfterStatement } from '../api/refund-actions.ts';

/**
 * An admin's decision on a refund M-Pesa's answers did not settle (held for review, or unknown past
 * the limit), after reading the M-Pesa statement: done (the statement's receipt when M-Pesa gave
 * none) or failed, with a note of what the statement shows. The server's refusals land on the fields.
 */
export function ResolveRefundModal({ refund, onClose }: { refund: Refund | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  return (
    <FormModal
      opened={refund !== null}
      onClose={onClose}
      title="Mark this refund"
      schema={ResolveRefundForm}
      defaultValues={{ outcome: 'done', receipt: refund?.mpesa_receipt ?? '', note: '' }}
      submit={(values) => resolveRefundAfterStatement(refund!.id, values)}
      onSaved={() => void queryClient.invalidateQueries({ queryKey: queryKeys.refunds.all })}
      submitLabel="Mark it"
      data-testid="resolve-refund-modal"
    >
      {({ form, errorOf }) => (
        <>
          {refund && (
            <Text size="sm">
              {formatMoney(refund.amount)} of payment {refund.trans_id} by {refund.method === 'reversal' ? 'M-Pesa Reversal' : 'B2C'}. {refund.attention}
            </Text>
          )}
          <Radio.Group
            label="What the M-Pesa statement shows"
            required
            value={form.watch('outcome')}
            onChange={(value) => form.setValue('outcome', value as 'done' | 'failed')}
            error={errorOf('outcome')}
          >
            <Stack gap="xs" mt={4}>
              <Radio value="done" label="Done: the refund's amount went back to the payer" data-testid="resolve-refund-done" />
              <Radio value="failed" label="Failed: it did not go back (it can be asked again)" data-testid="resolve-refund-failed" />
            </Stack>
          </Radio.Group>
          {form.watch('outcome') === 'done' && (
            <TextInput
              label="M-Pesa receipt of the refund"
              description={refund?.mpesa_receipt ? 'As M-Pesa gave it; correct it if the statement shows another' : 'As the statement shows it'}
              maxLength={20}
              error={errorOf('receipt')}
              {...form.register('receipt')}
              data-testid="resolve-refund-receipt"
            />
          )}
          <Textarea label="Note" required autosize minRows={2} maxLength={500} error={errorOf('note')} {...form.register('note')} data-testid="resolve-refund-note" />
        </>
      )}
    </FormModal>
  );
}
