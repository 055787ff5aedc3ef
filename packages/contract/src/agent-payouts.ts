/**
 * Agents' monthly payouts (decision 093): for a closed Nairobi month, one payout per agent whose
 * commission balance (that month's lines and what earlier months carried) reaches a whole
 * shilling, approved by a second admin and sent by M-Pesa B2C to the agent's phone.
 * Lives in: packages/contract/src/agent-payouts.ts
 */
import { z } from 'zod';
import { ApprovalCodeForm } from './approval-code.ts';
import { BooksMonth } from './books.ts';
import { Kes, PageQuery } from './common.ts';
import { endpoint } from './endpoint.ts';
import { providerBody } from './text.ts';

export const AGENT_PAYOUT_STATUSES = ['awaiting_approval', 'sending', 'unknown', 'held', 'paid', 'failed'] as const;
export type AgentPayoutStatus = (typeof AGENT_PAYOUT_STATUSES)[number];

export const AGENT_PAYOUT_STATUS_LABELS: Record<AgentPayoutStatus, string> = {
  awaiting_approval: 'Awaiting a second admin',
  sending: 'Sending',
  unknown: 'Asking M-Pesa',
  held: 'Held for review',
  paid: 'Paid',
  failed: 'Failed',
};

export const AgentPayout = z.object({
  id: z.number(),
  agent_id: z.number(),
  agent_name: z.string(),
  /** E.164 digits: where B2C sends it. */
  phone: z.string(),
  month: z.string(),
  /** The month's commission lines (clawbacks included). */
  commissions: Kes,
  /** What earlier months left: a negative month, a failed payout, cents below a shilling. */
  carried: Kes,
  /** Sent by B2C: whole shillings of commissions + carried; cents left carry to the next payout. */
  amount: Kes,
  status: z.enum(AGENT_PAYOUT_STATUSES),
  requested_by: z.string().nullable(),
  /** The requester's user id: the screen hides Approve from them (the server refuses anyway). */
  requested_by_id: z.number(),
  approved_by: z.string().nullable(),
  mpesa_receipt: z.string().nullable(),
  /** M-Pesa's words on how it ended (a failure's reason). */
  result: z.string().nullable(),
  created_at: z.string(),
  completed_at: z.string().nullable(),
});
export type AgentPayout = z.infer<typeof AgentPayout>;

export const MakeAgentPayoutsForm = z.object({ month: BooksMonth });
export type MakeAgentPayoutsForm = z.infer<typeof MakeAgentPayoutsForm>;

export const makeAgentPayouts = endpoint({
  method: 'POST',
  path: '/api/agents/payouts',
  tag: 'agents',
  summary: "A closed month's payouts, one per agent with a balance of a shilling or more, awaiting a second admin; again: nothing new",
  access: 'manage:agents',
  body: MakeAgentPayoutsForm,
  response: z.object({
    info: z.string(),
    /** Payouts asked now. */
    created: z.number(),
    /** Agents whose payout for the month was asked already. */
    already: z.number(),
    /** Agents whose balance is under a shilling (or negative): it carries to the next payout. */
    carried: z.number(),
    payouts: z.array(AgentPayout),
  }),
});

export const AgentPayoutListQuery = PageQuery.extend({ status: z.enum(AGENT_PAYOUT_STATUSES).optional() });

export const agentPayoutList = endpoint({
  method: 'GET',
  path: '/api/agents/payouts',
  tag: 'agents',
  summary: "Agents' payouts, newest month first, by status",
  access: 'manage:agents',
  query: AgentPayoutListQuery,
  response: z.object({ total_records: z.number(), payouts: z.array(AgentPayout) }),
});

export const approveAgentPayout = endpoint({
  method: 'POST',
  path: '/api/agents/payouts/:id/approve',
  tag: 'agents',
  summary: "Approves an agent's payout with the approver's TOTP code (never the requester, as refunds): it leaves by B2C",
  access: 'manage:refunds',
  body: ApprovalCodeForm,
  response: z.object({ info: z.string(), payout: AgentPayout }),
});

/** Daraja's answers to a payout's B2C: the ResultURLs its request names (never the refunds'). */
const payoutHook = (path: string, summary: string) =>
  endpoint({
    method: 'POST',
    path: `/api/hooks/mpesa/payouts/${path}/:secret`,
    tag: 'hooks',
    summary,
    access: 'public',
    body: providerBody(),
    response: z.object({ ResultCode: z.number(), ResultDesc: z.string() }),
  });

export const payoutB2cResult = payoutHook('b2c/result', "Daraja B2C result of an agent's payout: paid or failed, once; the statement SMS once");
export const payoutB2cTimeout = payoutHook('b2c/timeout', "Daraja B2C queue time-out of an agent's payout: unknown until a status query");
export const payoutStatusResult = payoutHook('status/result', "Daraja Transaction Status result: settles an agent's payout whose end was unknown");

export const agentPayoutTexts = {
  made: (created: number, already: number, carried: number) =>
    created === 0
      ? `Nothing new: ${already} payout${already === 1 ? '' : 's'} of this month asked already, ${carried} agent${carried === 1 ? '' : 's'} carry their balance to the next payout`
      : `${created} payout${created === 1 ? '' : 's'} asked: another admin must approve ${created === 1 ? 'it' : 'them'}` +
        (already ? `; ${already} asked already` : '') +
        (carried ? `; ${carried} agent${carried === 1 ? '' : 's'} carry their balance to the next payout` : ''),
  monthNotClosed: 'Choose a month that has ended (Nairobi time)',
  notFound: 'No such payout',
  approved: 'Payout approved: it is being sent to M-Pesa',
  ownRequest: 'You asked for this payout: another admin must approve it',
  tiedToRequester:
    'Your admin rights and those of the admin who asked for this payout come from one another (one asked for or approved the other\'s, or one admin asked for both): an admin outside that chain must approve it',
  coolingOff: (until: string) => `New admins may approve payouts only after their cooling-off period: from ${until}`,
  notAwaiting: 'This payout is no longer waiting for approval',
  noSecondFactor: 'Turn on two-factor sign-in (My Profile) before approving payouts',
  wrongCode: 'This code is not right. Check the time on your phone',
  notSetUp: 'Payouts cannot be sent yet: M-Pesa and its initiator must be set up (Refunds)',
  heldForReview: (mismatch: string) =>
    `M-Pesa's result does not match this payout (${mismatch}). Check the M-Pesa statement (org portal) before paying the agent again.`,
} as const;
