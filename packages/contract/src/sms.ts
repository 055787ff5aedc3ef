import { z } from 'zod';
import { csvExport, endpoint } from './endpoint.ts';
import { providerBody, providerFields } from './text.ts';
import { Id, Kes, Notice, PageQuery } from './common.ts';
import { ListCounts, listQuery } from './lists.ts';

/**
 * The SMS log (beyond the spec): every message of the outbox and its fate, for admins; and each
 * client's and tips subscriber's messages for their pages.
 */
export const SMS_STATUSES = ['queued', 'sending', 'sent', 'delivered', 'failed', 'unconfirmed'] as const;
export const SmsStatus = z.enum(SMS_STATUSES, { message: `The status must be one of ${SMS_STATUSES.join(', ')}` });
export type SmsStatus = z.infer<typeof SmsStatus>;

/** What each status means to staff reading the log. */
export const smsStatusTexts: Record<SmsStatus, string> = {
  queued: 'Waiting to be sent',
  sending: 'Being handed to the SMS gateway',
  sent: 'Accepted by the SMS gateway',
  delivered: "Delivered to the phone",
  failed: 'Not delivered',
  unconfirmed: 'The gateway may have sent it but did not confirm; check before resending',
};

/** One message as the lists show it. `name`, `client_id`, `subscriber_id` when the phone is known. */
export const SmsMessage = z.object({
  id: z.number(),
  phone: z.string(),
  name: z.string().nullable(),
  client_id: z.number().nullable(),
  subscriber_id: z.number().nullable(),
  intent: z.string(),
  message: z.string(),
  /** Real SMS parts (GSM-7 160/153, UCS-2 70/67), the gateway's count once sent. */
  parts: z.number(),
  status: SmsStatus,
  attempts: z.number(),
  cost: Kes.nullable(),
  failure_reason: z.string().nullable(),
  /** The gateway's one-word cause of the last failure (InvalidSenderId, AbsentSubscriber ...), also while retried. */
  failure_cause: z.string().nullable(),
  queued_on: z.string(),
  sent_on: z.string().nullable(),
  delivered_on: z.string().nullable(),
  /** transactional, service (paid tips) or promotional (reminders, broadcasts). */
  sms_class: z.enum(['transactional', 'service', 'promotional']),
  /** A promotional message waiting for the promotional window: when it will go. */
  held_until: z.string().nullable(),
  /** The SMS provider it was handed to (africastalking, advanta ...), null before (decision 062). */
  provider: z.string().nullable(),
});
export type SmsMessage = z.infer<typeof SmsMessage>;

/** Everything known about one message, for the detail view. */
export const SmsMessageDetail = SmsMessage.extend({
  provider_message_id: z.string().nullable(),
  provider_status: z.string().nullable(),
  network_code: z.string().nullable(),
  last_error: z.string().nullable(),
  /** When a queued message will be tried again. */
  next_attempt_on: z.string().nullable(),
  created_by: z.string().nullable(),
  updated_on: z.string(),
  /** The failed or unconfirmed message this one sends again, when an admin resent it. */
  resent_from_id: z.number().nullable(),
  /** The messages sending this one again, oldest first. */
  resent_as_ids: z.array(z.number()),
});
export type SmsMessageDetail = z.infer<typeof SmsMessageDetail>;

/** Phone search: digits as staff type them (07.., 2547.., +2547.., or any part of the number). */
export const SmsPhoneSearch = z
  .string()
  .trim()
  .max(20, 'Search by phone number: at most 20 characters')
  .regex(/^[+\d\s-]*$/, 'Search by phone number: digits only')
  .default('');

export const SmsLogQuery = listQuery('smsLog').and(
  z.object({
    status: z.preprocess((v) => (v === '' ? undefined : v), SmsStatus.optional()),
    search: SmsPhoneSearch,
    provider: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z.string().regex(/^[a-z][a-z0-9-]{0,39}$/, 'Choose a provider from the list').optional(),
    ),
  }),
);
export type SmsLogQuery = z.input<typeof SmsLogQuery>;

export const SmsStatusCounts = z.object(
  Object.fromEntries(SMS_STATUSES.map((s) => [s, z.number()])) as Record<SmsStatus, z.ZodNumber>,
);

export const smsLog = endpoint({
  method: 'GET',
  path: '/api/sms/log',
  tag: 'sms',
  summary: 'Every SMS, newest first, filtered by status and phone, paged; with counts per status',
  access: 'view:sms-log',
  query: SmsLogQuery,
  response: ListCounts.extend({ status_counts: SmsStatusCounts, messages: z.array(SmsMessage) }),
});

export const smsMessage = endpoint({
  method: 'GET',
  path: '/api/sms/log/show',
  tag: 'sms',
  summary: 'One SMS with its gateway details and attempts',
  access: 'view:sms-log',
  query: z.object({ id: Id }),
  response: z.object({ message: SmsMessageDetail }),
});

/** Statuses an admin may send again by hand: the gateway refused it, or its fate is unknown. */
export const SMS_RESENDABLE_STATUSES = ['failed', 'unconfirmed'] as const satisfies readonly SmsStatus[];

/**
 * Messages carrying a secret, with what staff read instead of their text: a temporary password and
 * a portal sign-in code (with it, whoever reads it could sign in as the subscriber). Every place
 * staff read messages (SMS log, a person's messages, the subject export) shows only that one was
 * sent; the text leaves the database once the gateway had it.
 */
export const SECRET_SMS_TEXTS: Readonly<Record<string, string>> = {
  'user.temporary-password': '[temporary password hidden]',
  'portal.sign-in-code': '[portal sign-in code sent; the code is hidden]',
  // The link opens the buyer's invoice without signing in (decision 087): for the buyer only.
  'tax.invoice-link': '[invoice link sent; the link is hidden]',
};

/** What staff read of a message: its text, or for a secret one, only that it was sent. */
export const smsTextForStaff = (intent: string, body: string): string => SECRET_SMS_TEXTS[intent] ?? body;

/** Intents whose text is not kept once sent (the secret ones): never resent from the outbox. */
export const SMS_NOT_RESENDABLE_INTENTS: readonly string[] = Object.keys(SECRET_SMS_TEXTS);

export const smsResendTexts = {
  queued: 'SMS queued again',
  notResendable: 'Only a failed or unconfirmed message can be sent again.',
  alreadyResent: 'This message was already sent again; see the newer message.',
  temporaryPassword:
    'A temporary password cannot be sent again: its text is not kept. Issue a new password instead.',
  signInCode:
    'A sign-in code cannot be sent again: its text is not kept. The subscriber asks for a new code on the portal.',
  invoiceLink: 'An invoice link cannot be sent again: its text is not kept. Send a new link from the invoice.',
} as const;

/** Why a secret message is not sent again, in words that fit its kind (a password, a sign-in code). */
const SECRET_RESEND_REFUSALS: Readonly<Record<string, string>> = {
  'portal.sign-in-code': smsResendTexts.signInCode,
  'tax.invoice-link': smsResendTexts.invoiceLink,
};
export const secretResendRefusal = (intent: string): string => SECRET_RESEND_REFUSALS[intent] ?? smsResendTexts.temporaryPassword;

/** Whether the log offers "Resend" for this message (the server decides again). */
export const canResendSms = (m: Pick<SmsMessage, 'status' | 'intent'>): boolean =>
  (SMS_RESENDABLE_STATUSES as readonly string[]).includes(m.status) && !SMS_NOT_RESENDABLE_INTENTS.includes(m.intent);

export const resendSms = endpoint({
  method: 'POST',
  path: '/api/sms/resend',
  tag: 'sms',
  summary:
    'Queue a failed or unconfirmed message again as a new message linked to it (409 for any other status, a temporary password, or while an earlier resend is pending or sent)',
  access: 'resend:sms',
  body: z.object({ id: Id }),
  response: Notice.extend({ sms: SmsMessageDetail }),
});

const PersonMessages = z.object({ total_records: z.number(), messages: z.array(SmsMessage) });

export const clientSmsMessages = endpoint({
  method: 'GET',
  path: '/api/sms/client-messages',
  tag: 'sms',
  summary: "Messages to a client's phone, newest first, paged (staff: their own clients)",
  access: 'manage:clients',
  query: PageQuery.extend({ client_id: Id }),
  response: PersonMessages,
});

export const subscriberSmsMessages = endpoint({
  method: 'GET',
  path: '/api/sms/subscriber-messages',
  tag: 'sms',
  summary: "Messages to a tips subscriber's phone, newest first, paged",
  access: 'manage:tips-subscribers',
  query: PageQuery.extend({ subscriber_id: Id }),
  response: PersonMessages,
});

/** Africa's Talking delivery report, form-encoded (INTEGRATIONS.md). */
export const SmsDeliveryReport = providerFields(
  z.object({
    id: z.string({ message: 'The message id is required' }).min(1, 'The message id is required').max(200),
    status: z.string({ message: 'The status is required' }).min(1, 'The status is required').max(100),
    phoneNumber: z.string().max(40).optional(),
    networkCode: z.string().max(20).optional(),
    failureReason: z.string().max(200).optional(),
    retryCount: z.string().max(20).optional(),
  }),
);

export const smsDeliveryReport = endpoint({
  method: 'POST',
  path: '/api/hooks/sms/delivery/:secret',
  tag: 'hooks',
  summary: "Africa's Talking delivery report: updates the message's status; unknown ids are acknowledged",
  access: 'public',
  // Read after the secret is checked, so a wrong secret is a 404 whatever the body.
  body: providerBody(),
  response: z.object({ message: z.string() }),
});

/** Causes of a whole refused call that only a person can fix: the admin banner names them. */
export const SMS_GATEWAY_REFUSALS = ['InvalidSenderId', 'InvalidCredentials'] as const;

export const smsGatewayRefusalTexts: Record<(typeof SMS_GATEWAY_REFUSALS)[number], string> = {
  InvalidSenderId:
    "Africa's Talking refuses the sender id (InvalidSenderId): SMS are failing. Fix AT_SENDER_ID (or have the sender id approved), then resend the failed messages by cause.",
  InvalidCredentials:
    "Africa's Talking refuses the username or API key: SMS are failing. Fix AT_USERNAME / AT_API_KEY, then resend the failed messages by cause.",
};

/** One gateway cause: failed messages not yet resent, and messages still being retried. */
export const SmsCauseCount = z.object({ cause: z.string(), failed: z.number(), retrying: z.number() });

/**
 * What waits or failed at the gateway, for the dashboard and the SMS log: messages being retried
 * (transient causes, for up to the `sms_retry_hours` window), counts per cause, and the refusal the
 * admin banner shows while no message has gone out since.
 */
export const SmsBacklog = z.object({
  retrying: z.number(),
  oldest_retrying_on: z.string().nullable(),
  causes: z.array(SmsCauseCount),
  refusal: z
    .object({ cause: z.enum(SMS_GATEWAY_REFUSALS), reason: z.string().nullable(), at: z.string() })
    .nullable(),
});
export type SmsBacklog = z.infer<typeof SmsBacklog>;

export const smsBacklog = endpoint({
  method: 'GET',
  path: '/api/sms/backlog',
  tag: 'sms',
  summary: 'Messages being retried and failed messages per gateway cause; the sender id or credentials refusal, if current',
  access: 'view:sms-log',
  response: SmsBacklog,
});

export const ResendByCause = z.object({
  cause: z.string({ message: 'Choose a cause' }).trim().min(1, 'Choose a cause').max(60, 'The cause is at most 60 characters'),
});

export const smsResendByCauseTexts = {
  queued: (n: number) => (n === 1 ? '1 failed message queued again' : `${n} failed messages queued again`),
  none: 'No failed message with this cause is waiting to be resent.',
} as const;

export const resendSmsByCause = endpoint({
  method: 'POST',
  path: '/api/sms/resend-by-cause',
  tag: 'sms',
  summary:
    'Queue again every failed message of one gateway cause that was not resent yet (each once, as a new linked message; temporary passwords never), audited',
  access: 'resend:sms',
  body: ResendByCause,
  response: Notice.extend({ queued: z.number() }),
});

/** The longest text a staff composer takes (an SMS tip, SMS_TIP_MAX); the estimate refuses longer ones. */
export const SMS_ESTIMATE_TEXT_MAX = 1600;
/** More people than any segment of the business holds: a larger count is a mistake, not a broadcast. */
export const SMS_ESTIMATE_RECIPIENTS_MAX = 10_000_000;

export const SmsEstimateRequest = z.object({
  text: z
    .string({ message: 'The text is required' })
    .min(1, 'The text is required')
    .max(SMS_ESTIMATE_TEXT_MAX, `The text may not be longer than ${SMS_ESTIMATE_TEXT_MAX} characters`),
  recipients: z
    .number({ message: 'The number of recipients must be a whole number' })
    .int('The number of recipients must be a whole number')
    .min(1, 'At least 1 recipient')
    .max(SMS_ESTIMATE_RECIPIENTS_MAX, `At most ${SMS_ESTIMATE_RECIPIENTS_MAX.toLocaleString('en-KE')} recipients`)
    .default(1),
});
export type SmsEstimateRequest = z.input<typeof SmsEstimateRequest>;

export const SmsEstimate = z.object({
  /** GSM-7, or UCS-2 ("Unicode") when one character is outside GSM-7. */
  encoding: z.enum(['GSM-7', 'UCS-2']),
  parts: z.number(),
  per_part: z.number(),
  characters_left: z.number(),
  unicode_characters: z.array(z.string()),
  recipients: z.number(),
  /** The price of a part at the provider carrying SMS now (`sms_cost_per_part_cents`, or the second provider's), in KES. */
  price_per_part: Kes,
  /** The provider SMS go through now (decision 062). */
  provider: z.string().optional(),
  /** recipients × parts × price per part, in KES. */
  cost: Kes,
});
export type SmsEstimate = z.infer<typeof SmsEstimate>;

export const smsEstimate = endpoint({
  method: 'POST',
  path: '/api/sms/estimate',
  tag: 'sms',
  summary:
    "An SMS text's encoding, parts (GSM-7 160/153, UCS-2 70/67), characters left in the part, the characters forcing Unicode, and its cost to the recipients (recipients × parts × price per part)",
  access: 'write:sms',
  body: SmsEstimateRequest,
  response: SmsEstimate,
});

// ---- SMS providers and failover (decision 062) ------------------------------------------------

export const SmsProviderState = z.object({
  provider: z.string(),
  /** Primary (SMS_PROVIDER) or the second aggregator (SMS_FAILOVER_PROVIDER). */
  role: z.enum(['primary', 'secondary']),
  /** closed: in use; open: not used (reason says why) until its probe; half-open: one probe batch goes. */
  state: z.enum(['closed', 'open', 'half-open']),
  reason: z.string().nullable(),
  since: z.string().nullable(),
  probe_on: z.string().nullable(),
  balance: Kes.nullable(),
  balance_on: z.string().nullable(),
  sends: z.number(),
  failures: z.number(),
  /** The price of one part at this provider (settings), KES. */
  price_per_part: Kes,
});
export type SmsProviderState = z.infer<typeof SmsProviderState>;

export const smsProviders = endpoint({
  method: 'GET',
  path: '/api/sms/providers',
  tag: 'sms',
  summary: "Each SMS provider's circuit (closed, open, half-open) and why, its balance, sends and failures",
  access: 'view:sms-log',
  response: z.object({ providers: z.array(SmsProviderState) }),
});

/** Advanta's delivery report as it posts it to the callback URL. */
export const AdvantaDeliveryReport = z.object({
  messageid: z.union([z.string(), z.number()]).transform(String).pipe(z.string().min(1, 'The messageid is required').max(100)),
  description: z.string({ message: 'The description is required' }).min(1, 'The description is required').max(100),
  timeTaken: z.string().max(40).optional(),
  timestamp: z.string().max(40).optional(),
});

export const smsAdvantaDeliveryReport = endpoint({
  method: 'POST',
  path: '/api/hooks/sms/advanta/delivery/:secret',
  tag: 'hooks',
  summary: 'Advanta (second SMS provider) delivery report: settles the message it carried; unknown ids are acknowledged',
  access: 'public',
  body: providerBody(),
  response: z.object({ message: z.string() }),
});

export const SmsCostQuery = z.object({
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'The month is YYYY-MM, e.g. 2026-11')
    .optional(),
});

export const SmsCostLine = z.object({
  provider: z.string(),
  sms_class: z.enum(['transactional', 'service', 'promotional']),
  messages: z.number(),
  parts: z.number(),
  /** What the provider charged where it said, else parts × its price per part (settings), KES. */
  cost: Kes,
});
export type SmsCostLine = z.infer<typeof SmsCostLine>;

export const SmsCostReport = z.object({
  month: z.string(),
  rows: z.array(SmsCostLine),
  total: z.object({ messages: z.number(), parts: z.number(), cost: Kes }),
});
export type SmsCostReport = z.infer<typeof SmsCostReport>;

export const smsCostReport = endpoint({
  method: 'GET',
  path: '/api/sms/cost-report',
  tag: 'sms',
  summary: "A month's SMS cost per provider and kind of text (transactional, service, promotional): messages handed over, parts, cost",
  access: 'view:sms-log',
  query: SmsCostQuery,
  response: SmsCostReport,
});

export const exportSmsCostReport = csvExport({
  path: '/api/sms/cost-report/export',
  tag: 'sms',
  summary: 'CSV of the monthly SMS cost per provider and kind of text',
  access: 'view:sms-log',
  query: SmsCostQuery,
});
