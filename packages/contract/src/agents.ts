/**
 * Agents and their referral commissions (decision 088): a person the business registers with a
 * phone, their referral code (a promo code of kind referral), and a month's statement of the
 * commissions on their referees' payments (clawbacks of refunded ones included).
 * Lives in: packages/contract/src/agents.ts
 */
import { z } from 'zod';
import { Kes, Notice, PageQuery } from './common.ts';
import { endpoint } from './endpoint.ts';
import { BooksMonth } from './books.ts';
import { KenyanPhone } from './phone.ts';

export const AgentBody = z.object({
  name: z.string({ message: 'Enter the name' }).trim().min(2, 'Enter the name').max(100, 'At most 100 characters'),
  phone: KenyanPhone,
});
export type AgentBody = z.infer<typeof AgentBody>;

export const Agent = z.object({
  id: z.number(),
  name: z.string(),
  /** E.164 digits. */
  phone: z.string(),
  referral_code: z.string(),
  /** Referees' first purchases made with the code. */
  referrals: z.number(),
  /** This Nairobi month's commission net of clawbacks: the total of the agent's statement of this month. */
  month_commission: Kes,
  created_on: z.string(),
});
export type Agent = z.infer<typeof Agent>;

export const createAgent = endpoint({
  method: 'POST',
  path: '/api/agents',
  tag: 'agents',
  summary: 'Register an agent (one per phone) and give them a referral code; 422 naming the field',
  access: 'manage:agents',
  body: AgentBody,
  response: Notice.extend({ agent: Agent }),
});

export const agentList = endpoint({
  method: 'GET',
  path: '/api/agents',
  tag: 'agents',
  summary: "Agents, newest first, with their referral codes, referrals and this month's commission (net of clawbacks)",
  access: 'manage:agents',
  query: PageQuery,
  response: z.object({ total_records: z.number(), agents: z.array(Agent) }),
});

export const AGENT_COMMISSION_KIND_LABELS = { commission: 'Commission', clawback: 'Clawback (refunded)' } as const;

export const AgentStatementLine = z.object({
  kind: z.enum(['commission', 'clawback']),
  /** The referee's M-Pesa receipt (or the payment's id when it has none). */
  receipt: z.string(),
  paid_on: z.string(),
  payment: Kes,
  percent: z.number(),
  /** Negative for a clawback. */
  amount: Kes,
});
export type AgentStatementLine = z.infer<typeof AgentStatementLine>;

export const agentStatement = endpoint({
  method: 'GET',
  path: '/api/agents/:id/statement',
  tag: 'agents',
  summary: "An agent's month: commissions on their referees' payments and clawbacks of refunded ones; the total is the lines' sum",
  access: 'manage:agents',
  query: z.object({ month: BooksMonth }),
  response: z.object({
    agent: Agent,
    month: z.string(),
    lines: z.array(AgentStatementLine),
    commissions: Kes,
    clawbacks: Kes,
    total: Kes,
  }),
});

export const agentTexts = {
  created: 'Agent registered',
  notFound: 'No such agent',
  phoneTaken: 'An agent with this phone is already registered',
} as const;
