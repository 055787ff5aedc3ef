import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { Id, Notice } from './common.ts';
import { StandingOrder } from './auto-renew.ts';

/** The longest free trial a package may offer, in days (decision 089). */
export const TRIAL_DAYS_MAX = 31;

/** A package's free trial as the packages screen shows it (0 days: no trial). */
export const PackageTrial = z.object({
  id: z.number(),
  trial_days: z.number(),
  trial_needs_auto_renew: z.boolean(),
});
export type PackageTrial = z.infer<typeof PackageTrial>;

/** An admin sets a package's free trial: so many days (0 turns it off), optionally only with automatic renewal. */
export const TrialForm = z.object({
  bet_category_price_id: Id,
  trial_days: z.coerce
    .number({ message: 'The trial days must be a whole number' })
    .int('The trial days must be a whole number')
    .min(0, 'The trial days may not be negative')
    .max(TRIAL_DAYS_MAX, `A trial may not be longer than ${TRIAL_DAYS_MAX} days`),
  trial_needs_auto_renew: z.boolean({ message: 'Say whether the trial needs automatic renewal' }).default(false),
});
export type TrialForm = z.input<typeof TrialForm>;

export const trialTexts = {
  saved: 'Trial saved successfully',
  needsRenewablePackage: 'Only a daily, weekly or monthly package can ask for automatic renewal',
} as const;

export const packageTrials = endpoint({
  method: 'GET',
  path: '/api/tips/prices/trials',
  tag: 'tips-prices',
  summary: 'The free trial of every tips package (days, and whether it needs automatic renewal)',
  access: 'manage:tips-prices',
  response: z.object({ packages: z.array(PackageTrial) }),
});

export const saveTrial = endpoint({
  method: 'POST',
  path: '/api/tips/prices/trial',
  tag: 'tips-prices',
  summary: "Set a package's free trial: days (0: none) and whether only with automatic renewal (audited)",
  access: 'manage:tips-prices',
  body: TrialForm,
  response: Notice,
});

/** A trial the signed-in phone started: its subscription, when it ends, and the standing order set up with it. */
export const PortalTrial = z.object({
  subscription_id: z.number(),
  package_id: z.number(),
  ends_at: z.string(),
  standing_order: StandingOrder.nullable(),
});
export type PortalTrial = z.infer<typeof PortalTrial>;

export const portalStartTrial = endpoint({
  method: 'POST',
  path: '/api/portal/trials',
  tag: 'portal',
  summary:
    "Start a package's free trial for the signed-in phone: once per phone and package, amount 0, no invoice; with automatic renewal, a Ratiba standing order whose first debit is the day the trial ends (409 when used, self-excluded or erased)",
  access: 'portal',
  body: z.object({ package_id: Id, auto_renew: z.boolean().default(false), adult: z.boolean().default(false) }),
  response: Notice.extend({ trial: PortalTrial }),
});
