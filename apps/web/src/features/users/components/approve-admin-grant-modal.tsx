import { localPhone, type AdminGrant } from '@betdesk/contract';
import { ApproveWithCodeModal } from '@/components/approve-with-code-modal.tsx';
import { queryKeys } from '@/lib/query-keys.ts';
import { approveAdminGrantWithCode } from '../api/admin-grants.ts';

/**
 * Giving admin rights asks for the approver's own code (decision 056): 403 to the admin who asked,
 * to one tied to them and to a new admin still cooling off.
 */
export function ApproveAdminGrantModal({ grant, onClose }: { grant: AdminGrant | null; onClose: () => void }) {
  return (
    <ApproveWithCodeModal
      opened={grant !== null}
      onClose={onClose}
      title="Approve admin rights"
      summary={
        grant && (
          <>
            {grant.user_name} ({grant.user_email}, {localPhone(grant.user_phone)}) becomes an admin, asked by {grant.requested_by ?? 'another admin'}. Check
            with them that this person is meant to be an admin: an admin sees all money and approves refunds.
          </>
        )
      }
      approve={(code) => approveAdminGrantWithCode(grant!.id, code)}
      changes={queryKeys.users.all}
      submitLabel="Approve"
      testId="approve-admin-grant-modal"
    />
  );
}
