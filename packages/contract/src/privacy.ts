import { z } from 'zod';
import { Id, Notice, PageQuery } from './common.ts';
import { endpoint } from './endpoint.ts';
import { KenyanPhone } from './phone.ts';

/**
 * Kenya's Data Protection Act 2019 (decision 025): what Betdesk holds about a phone, erasing a
 * person, people's requests with their deadlines, marketing consent and the breach register.
 */

export const privacyTexts = {
  erased: 'The person was erased: their money records stay, pseudonymised',
  nothingToErase: 'Betdesk holds nothing about this phone',
  requestRecorded: 'Request recorded',
  requestDone: 'Request marked done',
  requestAlreadyDone: 'This request is already done',
  consentRecorded: 'Consent recorded',
  breachRecorded: 'Breach recorded: the Data Commissioner must be told within 72 hours of its discovery',
  breachNotified: 'Breach marked notified',
  breachAlreadyNotified: 'This breach is already marked notified',
  clientErased: 'This client was erased at their request: no message can be sent to them',
  phoneErased: "This phone's owner was erased at their request: nothing more can be recorded for it",
} as const;

const Text = (field: string, max: number) =>
  z.string({ message: `The ${field} is required` }).trim().min(1, `The ${field} is required`).max(max, `At most ${max} characters`);

/** Rows of one kind, as stored (column names in snake_case), for the subject's export. */
const Rows = z.array(z.record(z.string(), z.unknown()));

/**
 * The sections of a person's export, in order: the screen's label and the sentence the export's
 * header gives the person about each (the export is for them to read).
 */
export const PRIVACY_SUBJECT_SECTIONS = [
  { key: 'subscribers', label: 'Tips subscriber records', about: 'Your record as a subscriber to our tips.' },
  { key: 'clients', label: 'Bet4Me client records', about: 'Your record as a Bet4Me client (we place bets for you).' },
  { key: 'platform_accounts', label: 'Betting platform accounts (passwords sealed)', about: 'The betting sites we hold a password of yours for; the password itself is sealed and never shown.' },
  { key: 'subscriptions', label: 'Subscriptions', about: 'The tips or Bet4Me plans you subscribed to, with their dates and price.' },
  { key: 'payments', label: 'M-Pesa payments', about: 'M-Pesa payments we received from you or for you.' },
  { key: 'payment_requests', label: 'M-Pesa payment requests', about: 'Requests we sent to your phone asking you to pay by M-Pesa (the PIN prompt).' },
  { key: 'sms_sent', label: 'SMS sent to them', about: 'Text messages we sent you. Sign-in codes and passwords are not shown: only that one was sent.' },
  { key: 'sms_received', label: 'SMS received from them', about: 'Text messages you sent us.' },
  { key: 'portal_sign_ins', label: 'Portal sign-ins', about: 'Each time you signed in to our website with your phone: when, until when, from which address and browser.' },
  { key: 'portal_codes', label: 'Portal sign-in codes asked for', about: 'Each sign-in code asked for with your phone: when, whether it was used, and wrong tries (the code itself is not kept).' },
  { key: 'bets', label: 'Bets', about: 'The bets we placed for you as a Bet4Me client: stake, what was bet, profit and status.' },
  { key: 'bonuses', label: 'Bonuses', about: 'Bonuses you earned on winning bets, and how much of each was paid.' },
  { key: 'bonus_payments', label: 'Bonus payments', about: 'Bonus payments made to you.' },
  { key: 'ledger', label: 'Ledger entries', about: 'Every movement of money on your account with us (payments in, purchases, bonuses paid).' },
  { key: 'opt_outs', label: 'Opt-outs', about: 'Each time you stopped or restarted our messages.' },
  { key: 'consents', label: 'Marketing consents', about: 'Each time you agreed to or refused our offers, with the exact wording you were shown.' },
  { key: 'age_declaration', label: '18+ declaration', about: 'When and how you declared that you are 18 or older, before your first purchase.' },
  {
    key: 'exclusions',
    label: 'Self-exclusions and under-18 marks',
    about: 'Each time you excluded yourself from gambling with us (when, until when, how you asked), and whether staff marked you as under 18. An erased person keeps these as a fingerprint of the number only.',
  },
  { key: 'requests', label: 'Their requests', about: 'The requests you made to us about your data, and what we did.' },
  { key: 'audit', label: 'Audit rows about them', about: 'Changes our staff made to your records: what changed and when.' },
] as const;
export type PrivacySubjectSection = (typeof PRIVACY_SUBJECT_SECTIONS)[number]['key'];

/** What the export says first: what it is and how its money reads. */
export const PRIVACY_SUBJECT_INTRO =
  'Everything Betdesk holds about this phone number, section by section. Times are UTC (Nairobi is 3 hours ahead). ' +
  'Money is stored in cents (amount_cents: 150000) and shown beside in Kenya shillings with two decimals (amount_kes: "1500.00").';

export const PrivacySubject = z.object({
  phone: z.string(),
  generated_at: z.string(),
  erased: z.boolean(),
  /** The export's header: what it is, then one sentence per section. */
  about: z.object({ export: z.string(), sections: z.record(z.string(), z.string()) }),
  subscribers: Rows,
  clients: Rows,
  platform_accounts: Rows,
  subscriptions: Rows,
  payments: Rows,
  payment_requests: Rows,
  sms_sent: Rows,
  sms_received: Rows,
  portal_sign_ins: Rows,
  portal_codes: Rows,
  bets: Rows,
  bonuses: Rows,
  bonus_payments: Rows,
  ledger: Rows,
  opt_outs: Rows,
  consents: Rows,
  age_declaration: Rows,
  exclusions: Rows,
  requests: Rows,
  audit: Rows,
});
export type PrivacySubject = z.infer<typeof PrivacySubject>;

export const privacySubject = endpoint({
  method: 'GET',
  path: '/api/privacy/subject',
  tag: 'privacy',
  summary:
    "Everything Betdesk holds about one phone (a person's access request); the request is audited as sensitive. download=1 answers it as a JSON file",
  access: 'manage:privacy',
  query: z.object({ phone: KenyanPhone, download: z.enum(['0', '1']).optional() }),
  response: PrivacySubject,
});

export const ErasePerson = z.object({
  phone: KenyanPhone,
  reason: Text('reason', 500),
});

export const privacyErase = endpoint({
  method: 'POST',
  path: '/api/privacy/erase',
  tag: 'privacy',
  summary:
    'Erases a person: names, phones, emails, message texts and platform passwords removed; money records kept pseudonymised so every total stays to the cent. Cannot be undone',
  access: 'manage:privacy',
  body: ErasePerson,
  response: Notice.extend({
    erased: z.object({
      subscribers: z.number(),
      clients: z.number(),
      payments: z.number(),
      messages: z.number(),
      received_messages: z.number(),
      payment_requests: z.number(),
    }),
  }),
});

export const PRIVACY_REQUEST_KIND_LABELS = {
  access: 'See their data',
  rectification: 'Correct their data',
  erasure: 'Erase their data',
  objection: 'Object to processing',
} as const;
export const PrivacyRequestKind = z.enum(['access', 'rectification', 'erasure', 'objection'], { message: 'Choose what the person asks for' });

export const PrivacyRequest = z.object({
  id: z.number(),
  kind: PrivacyRequestKind,
  phone: z.string(),
  note: z.string().nullable(),
  received_at: z.string(),
  due_at: z.string(),
  done_at: z.string().nullable(),
  outcome: z.string().nullable(),
  overdue: z.boolean(),
  recorded_by: z.string().nullable(),
});
export type PrivacyRequest = z.infer<typeof PrivacyRequest>;

export const privacyRequests = endpoint({
  method: 'GET',
  path: '/api/privacy/requests',
  tag: 'privacy',
  summary: "People's requests about their data, open ones first (oldest deadline first)",
  access: 'manage:privacy',
  query: PageQuery.extend({ open: z.enum(['0', '1']).optional() }),
  response: z.object({ total_records: z.number(), requests: z.array(PrivacyRequest) }),
});

export const addPrivacyRequest = endpoint({
  method: 'POST',
  path: '/api/privacy/requests/store',
  tag: 'privacy',
  summary: "Records a person's request; its deadline is the privacy_request_days setting (7 days) from now",
  access: 'manage:privacy',
  body: z.object({ kind: PrivacyRequestKind, phone: KenyanPhone, note: Text('note', 500).optional() }),
  response: Notice.extend({ request: PrivacyRequest }),
});

export const completePrivacyRequest = endpoint({
  method: 'POST',
  path: '/api/privacy/requests/done',
  tag: 'privacy',
  summary: 'Marks a request done with what was done',
  access: 'manage:privacy',
  body: z.object({ id: Id, outcome: Text('outcome', 500) }),
  response: Notice.extend({ request: PrivacyRequest }),
});

export const ConsentState = z.object({
  phone: z.string(),
  given: z.boolean(),
  since: z.string().nullable(),
  channel: z.string().nullable(),
  wording: z.string().nullable(),
  history: z.array(
    z.object({
      given: z.boolean(),
      channel: z.string(),
      wording: z.string(),
      note: z.string().nullable(),
      by: z.string().nullable(),
      at: z.string(),
    }),
  ),
});
export type ConsentState = z.infer<typeof ConsentState>;

export const marketingConsent = endpoint({
  method: 'GET',
  path: '/api/privacy/consent',
  tag: 'privacy',
  summary: "A phone's marketing consent: given or not, since when, through which channel, to what wording, and its history",
  access: 'manage:tips-subscribers',
  query: z.object({ phone: KenyanPhone }),
  response: ConsentState,
});

export const recordMarketingConsent = endpoint({
  method: 'POST',
  path: '/api/privacy/consent',
  tag: 'privacy',
  summary:
    'Staff record a consent the person gave or withdrew (by phone or in person), with a note saying how; the wording is the marketing_consent_wording setting',
  access: 'manage:tips-subscribers',
  body: z.object({
    phone: KenyanPhone,
    given: z.boolean({ message: 'Say whether consent is given or withdrawn' }),
    note: Text('note', 500),
  }),
  response: Notice.extend({ consent: ConsentState }),
});

export const DataBreach = z.object({
  id: z.number(),
  discovered_at: z.string(),
  description: z.string(),
  people_affected: z.number(),
  data_concerned: z.string(),
  measures: z.string().nullable(),
  notified_at: z.string().nullable(),
  notification_ref: z.string().nullable(),
  /** 72 hours after discovery. */
  notify_by: z.string(),
  recorded_by: z.string().nullable(),
});
export type DataBreach = z.infer<typeof DataBreach>;

export const dataBreaches = endpoint({
  method: 'GET',
  path: '/api/privacy/breaches',
  tag: 'privacy',
  summary: 'The breach register, newest discovery first',
  access: 'manage:privacy',
  query: PageQuery,
  response: z.object({ total_records: z.number(), breaches: z.array(DataBreach) }),
});

const PastTime = z.coerce
  .date({ message: 'Enter a date and time' })
  .refine((d) => d.getTime() <= Date.now() + 60_000, 'This is in the future');

export const recordDataBreach = endpoint({
  method: 'POST',
  path: '/api/privacy/breaches/store',
  tag: 'privacy',
  summary: 'Records a personal data breach; the dashboard counts down the 72 hours to notify the Data Commissioner',
  access: 'manage:privacy',
  body: z.object({
    discovered_at: PastTime,
    description: Text('description', 2000),
    people_affected: z.coerce.number({ message: 'Enter a number' }).int('Enter a whole number').min(0, 'Enter 0 or more').max(100_000_000),
    data_concerned: Text('data concerned', 500),
    measures: Text('measures', 2000).optional(),
  }),
  response: Notice.extend({ breach: DataBreach }),
});

export const notifyDataBreach = endpoint({
  method: 'POST',
  path: '/api/privacy/breaches/notified',
  tag: 'privacy',
  summary: 'Marks a breach as notified to the Data Commissioner (when, and their reference)',
  access: 'manage:privacy',
  body: z.object({ id: Id, notified_at: PastTime, notification_ref: Text('reference', 200) }),
  response: Notice.extend({ breach: DataBreach }),
});
