import type { Refund } from '@betdesk/contract';
import { ApproveWithCodeModal } from '@/components/approve-with-code-modal.tsx';
import { formatMoney } from '@/lib/format.ts';
import { queryKeys } from '@/lib/query-keys.ts';
import { approveRefundWithCode } from '../api/refund-actions.ts';

/** Approving money out asks for the approver's own code (decision 036); 403 to the admin who asked. */
export function ApproveRefundModal({ refund, onClose }: { refund: Refund | null; onClose: () => void }) {
  return (
    <ApproveWithCodeModal
      opened={refund !== null}
      onClose={onClose}
      title="Approve this refund"
      summary={
        refund && (
          <>
            {formatMoney(refund.amount)} of payment {refund.trans_id} goes back by {refund.method === 'reversal' ? 'M-Pesa Reversal' : 'B2C'}, asked by{' '}
            {refund.requested_by ?? 'another admin'}. Once approved it is sent to M-Pesa and cannot be stopped.
          </>
        )
      }
      approve={(code) => approveRefundWithCode(refund!.id, code)}
      changes={queryKeys.refunds.all}
      submitLabel="Approve and send"
      testId="approve-refund-modal"
    />
  );
}
