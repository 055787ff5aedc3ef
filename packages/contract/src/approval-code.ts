import { z } from 'zod';

/**
 * The approver's own authenticator code, asked again for every act of the two-person rule (approving
 * a refund, giving admin rights) even inside their session. A file of its own, with nothing but zod,
 * so that the screens which ask for it load no more of the contract.
 */
export const ApprovalCodeForm = z.object({
  code: z.string({ message: 'Enter the code from your authenticator app' }).trim().min(1, 'Enter the code from your authenticator app'),
});
