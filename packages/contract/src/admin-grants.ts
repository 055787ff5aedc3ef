import { z } from 'zod';
import { ApprovalCodeForm } from './approval-code.ts';
import { endpoint } from './endpoint.ts';

// Admin rights asked in the web and given by a second admin (decision 056). A file of its own: the
// dashboard's alert reads it without loading the Users screen's schemas.

/** Where a user's admin rights come from: asked in the web (needs a second admin) or given outside it. */
export const ADMIN_GRANT_KINDS = ['new_user', 'promotion', 'operator', 'before_grants'] as const;
export type AdminGrantKind = (typeof ADMIN_GRANT_KINDS)[number];
export const ADMIN_GRANT_STATUSES = ['pending', 'approved', 'declined', 'cancelled'] as const;
export type AdminGrantStatus = (typeof ADMIN_GRANT_STATUSES)[number];

/** One grant of admin rights to a user: who asked, who decided, when the rights took effect. */
export const AdminGrant = z.object({
  id: z.number(),
  user_id: z.number(),
  user_name: z.string(),
  user_email: z.string(),
  user_phone: z.string(),
  kind: z.enum(ADMIN_GRANT_KINDS),
  status: z.enum(ADMIN_GRANT_STATUSES),
  requested_by_id: z.number().nullable(),
  requested_by: z.string().nullable(),
  requested_at: z.string(),
  decided_by: z.string().nullable(),
  decided_at: z.string().nullable(),
});
export type AdminGrant = z.infer<typeof AdminGrant>;

export const listAdminGrants = endpoint({
  method: 'GET',
  path: '/api/users/admin-grants',
  tag: 'users',
  summary: 'Admin rights waiting for a second admin, and those decided in the last days (admin; the dashboard alert and the Users screen)',
  access: 'manage:users',
  response: z.object({ pending: z.array(AdminGrant), recent: z.array(AdminGrant), recent_days: z.number() }),
});

export const ApproveAdminGrantForm = ApprovalCodeForm;

export const approveAdminGrant = endpoint({
  method: 'POST',
  path: '/api/users/admin-grants/:id/approve',
  tag: 'users',
  summary: "Gives the asked admin rights, with the approver's TOTP code (never the admin who asked, nor one they made an admin)",
  access: 'manage:users',
  body: ApproveAdminGrantForm,
  response: z.object({ info: z.string(), grant: AdminGrant }),
});

export const declineAdminGrant = endpoint({
  method: 'POST',
  path: '/api/users/admin-grants/:id/decline',
  tag: 'users',
  summary: 'Declines asked admin rights: the user stays as they are (any admin, the one who asked too)',
  access: 'manage:users',
  response: z.object({ info: z.string(), grant: AdminGrant }),
});

export const adminGrantTexts = {
  registeredPending: 'User registered. Their admin rights wait for another admin to approve them (Users → Admin rights).',
  updatedPending: 'User updated. Their admin rights wait for another admin to approve them (Users → Admin rights).',
  alreadyPending: 'User updated. Their admin rights already wait for another admin to approve them.',
  approved: (name: string) => `${name} is now an admin.`,
  declined: 'The admin rights were declined; the user stays as they were.',
  noSuchGrant: 'No such admin grant',
  notPending: 'These admin rights are no longer waiting for approval',
  ownRequest: 'You asked for these admin rights: another admin must approve them',
  tiedToRequester: 'Your own admin rights were asked for or approved by the admin who asked for these (or you did so for theirs): an admin outside that chain must approve them',
  coolingOff: (until: string) => `New admins may approve admin rights and refunds only after their cooling-off period: from ${until}`,
  noSecondFactor: 'Turn on two-factor sign-in (My Profile) before approving admin rights',
  wrongCode: 'This code is not right. Check the time on your phone.',
  userGone: 'This user has been trashed',
} as const;
