/**
 * The agents' report (decision 094): per agent over a range, new referees, their referees' payments
 * and income, commission written, clawback and net. Apart from agents.ts so that the Reports screen
 * and the Agents screen each carry only their own schemas.
 * Lives in: packages/contract/src/agent-report.ts
 */
import { z } from 'zod';
import { Kes } from './common.ts';
import { csvExport, endpoint } from './endpoint.ts';
import { ReportRangeQuery } from './reports.ts';

/** One agent's row of the agents' report (decision 094). */
export const AgentReportRow = z.object({
  agent_id: z.number(),
  name: z.string(),
  referral_code: z.string(),
  /** Referees whose first purchase with the agent's code fell in the range. */
  referees: z.number(),
  /** The discount those first purchases had (a referral code may give the referee one). */
  discount: Kes,
  /** Of those referees, how many bought again (a paid subscription, not reversed) within 30 and 90 days of their first. */
  renewed_30: z.number(),
  renewed_90: z.number(),
  /** Payments of the agent's referees (old and new) received in the range that bought a package. */
  payments: z.number(),
  /** Those payments' amounts, every one (a refund is not taken off: its clawback is). */
  income: Kes,
  /** Commission lines whose payment was received in the range. */
  commission: Kes,
  /** Clawback lines written in the range (negative). */
  clawback: Kes,
  /** Commission plus clawback. */
  net: Kes,
});
export type AgentReportRow = z.infer<typeof AgentReportRow>;

export const agentReport = endpoint({
  method: 'GET',
  path: '/api/reports/promotions/agents',
  tag: 'reports',
  summary:
    "Per agent over a range: new referees, their discount and how many bought again within 30 and 90 days, referees' payments and their income, commission written (by the payment's received day), clawback (by the day it was written) and net",
  access: 'view:reports',
  query: ReportRangeQuery,
  response: z.object({ from: z.string(), to: z.string(), rows: z.array(AgentReportRow) }),
});

export const exportAgentReport = csvExport({
  path: '/api/reports/promotions/agents/export',
  tag: 'reports',
  summary: "CSV of the agents' report",
  access: 'view:reports',
  query: ReportRangeQuery,
});
