import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { providerBody, providerFields } from './text.ts';
import { Id, Kes, Notice, PageQuery } from './common.ts';
import { SmsPhoneSearch } from './sms.ts';
import { BannedClaimFound } from './advert-rules.ts';

/**
 * Self-service tips (decision 011): texts people send us (Africa's Talking incoming messages), opt-outs
 * and promotional broadcasts.
 */

/** Africa's Talking incoming message, form-encoded. */
export const InboundSms = providerFields(
  z.object({
    from: z.string({ message: 'The sender is required' }).trim().min(1, 'The sender is required').max(40),
    to: z.string().max(40).optional(),
    text: z.string().default(''),
    date: z.string().max(60).optional(),
    id: z.string({ message: 'The message id is required' }).trim().min(1, 'The message id is required').max(200),
    linkId: z.string().max(200).optional(),
    networkCode: z.string().max(20).optional(),
  }),
);

export const inboundSmsHook = endpoint({
  method: 'POST',
  path: '/api/hooks/sms/inbound/:secret',
  tag: 'hooks',
  summary: "Africa's Talking incoming message: stored once by id, its keyword answered (STOP, STOP <code>, START, a code, HELP)",
  access: 'public',
  body: providerBody(),
  response: z.object({ message: z.string() }),
});

/** Africa's Talking bulk SMS opt-out notification, form-encoded. */
export const SmsOptOutNotice = providerFields(
  z.object({
    senderId: z.string().max(100).optional(),
    phoneNumber: z.string({ message: 'The phone number is required' }).trim().min(1, 'The phone number is required').max(40),
  }),
);

export const smsOptOutHook = endpoint({
  method: 'POST',
  path: '/api/hooks/sms/optout/:secret',
  tag: 'hooks',
  summary: "Africa's Talking opt-out notification: the phone receives no service or promotional SMS any more",
  access: 'public',
  body: providerBody(),
  response: z.object({ message: z.string() }),
});

export const SmsInboundMessage = z.object({
  id: z.number(),
  phone: z.string(),
  name: z.string().nullable(),
  client_id: z.number().nullable(),
  subscriber_id: z.number().nullable(),
  text: z.string(),
  keyword: z.string(),
  action: z.string(),
  received_on: z.string(),
});
export type SmsInboundMessage = z.infer<typeof SmsInboundMessage>;

export const smsInbox = endpoint({
  method: 'GET',
  path: '/api/sms/inbox',
  tag: 'sms',
  summary: 'Texts people sent us, newest first, with the keyword understood and what was done; search by phone',
  access: 'view:sms-inbox',
  query: PageQuery.extend({ search: SmsPhoneSearch }),
  response: z.object({ total_records: z.number(), messages: z.array(SmsInboundMessage) }),
});

export const OPT_OUT_SOURCE_LABELS = {
  keyword: 'Texted STOP',
  provider: "Africa's Talking opt-out",
  blacklist: 'Network blacklist (406 UserInBlacklist)',
  dnd: 'Do Not Disturb on the network (409 DoNotDisturbRejection)',
  admin: 'An admin',
  ussd: 'USSD menu',
  portal: 'The subscriber, on the portal',
} as const;

export const OptOutState = z.object({
  phone: z.string(),
  /** Opted out of everything but transactional messages. */
  opted_out: z.boolean(),
  /** Gets no promotional messages (the network's Do Not Disturb refused one); paid tips still go. */
  offers_stopped: z.boolean(),
  /** Bet category codes whose tips the phone stopped (STOP <code>). */
  categories: z.array(z.string()),
  since: z.string().nullable(),
  history: z.array(
    z.object({
      action: z.enum(['opt-out', 'opt-in']),
      scope: z.string(),
      source: z.enum(['keyword', 'provider', 'blacklist', 'dnd', 'admin', 'ussd', 'portal']),
      reason: z.string().nullable(),
      by: z.string().nullable(),
      at: z.string(),
    }),
  ),
});
export type OptOutState = z.infer<typeof OptOutState>;

const PersonQuery = z
  .object({ client_id: Id.optional(), subscriber_id: Id.optional() })
  .refine((q) => (q.client_id === undefined) !== (q.subscriber_id === undefined), {
    message: 'Give a client_id or a subscriber_id',
    path: ['client_id'],
  });

export const subscriberOptOut = endpoint({
  method: 'GET',
  path: '/api/sms/opt-out/subscriber',
  tag: 'sms',
  summary: "A subscriber's SMS opt-out state and its history",
  access: 'manage:tips-subscribers',
  query: z.object({ subscriber_id: Id }),
  response: z.object({ opt_out: OptOutState }),
});

export const clientOptOut = endpoint({
  method: 'GET',
  path: '/api/sms/opt-out/client',
  tag: 'sms',
  summary: "A client's SMS opt-out state and its history (staff: their own clients)",
  access: 'manage:clients',
  query: z.object({ client_id: Id }),
  response: z.object({ opt_out: OptOutState }),
});

export const optOutPerson = endpoint({
  method: 'POST',
  path: '/api/sms/opt-out',
  tag: 'sms',
  summary: 'An admin opts a client or subscriber out of service and promotional SMS (audited)',
  access: 'manage:opt-outs',
  body: z.intersection(PersonQuery, z.object({ reason: z.string().trim().max(300).default('') })),
  response: Notice.extend({ opt_out: OptOutState }),
});

export const clearOptOut = endpoint({
  method: 'POST',
  path: '/api/sms/opt-out/clear',
  tag: 'sms',
  summary: "An admin clears a client's or subscriber's opt-out; a reason is required (audited)",
  access: 'manage:opt-outs',
  body: z.intersection(
    PersonQuery,
    z.object({
      reason: z
        .string({ message: 'Say why the opt-out is cleared' })
        .trim()
        .min(3, 'Say why the opt-out is cleared')
        .max(300, 'At most 300 characters'),
    }),
  ),
  response: Notice.extend({ opt_out: OptOutState }),
});

export const BROADCAST_SEGMENT_LABELS = {
  'category-active': 'Active subscribers of a category',
  'category-lapsed': 'Lapsed subscribers of a category',
  'clients-all': 'All clients',
  'clients-active': 'All active clients',
} as const;
export type BroadcastSegment = keyof typeof BROADCAST_SEGMENT_LABELS;

export const BroadcastAudience = z
  .object({
    segment: z.enum(Object.keys(BROADCAST_SEGMENT_LABELS) as [BroadcastSegment, ...BroadcastSegment[]], {
      message: 'Choose who receives it',
    }),
    bet_category_id: z.preprocess((v) => (v === '' || v === null ? undefined : v), Id.optional()),
    lapsed_days: z.preprocess(
      (v) => (v === '' || v === null ? undefined : v),
      z.coerce.number({ message: 'Days must be a number' }).int('Whole days').min(1, 'At least 1 day').max(3650, 'At most 3650 days').optional(),
    ),
    message: z.string({ message: 'The message is required' }).trim().min(1, 'The message is required').max(918, 'At most 918 characters (6 SMS)'),
    /** The message's language: its responsible-gambling lines are written in it (decision 061); the business's default when absent. */
    language: z.enum(['en', 'sw'], { message: 'The language must be en or sw' }).optional(),
  })
  .superRefine((b, ctx) => {
    if (b.segment.startsWith('category') && b.bet_category_id === undefined) {
      ctx.addIssue({ code: 'custom', path: ['bet_category_id'], message: 'Choose a bet category' });
    }
    if (b.segment === 'category-lapsed' && b.lapsed_days === undefined) {
      ctx.addIssue({ code: 'custom', path: ['lapsed_days'], message: 'Say within how many days they lapsed' });
    }
  });
export type BroadcastAudience = z.input<typeof BroadcastAudience>;

export const BroadcastPreview = z.object({
  recipients: z.number(),
  /** Opted-out (or erased) phones left out of the segment. */
  opted_out: z.number(),
  /** People left out because they excluded themselves from gambling (decision 059). */
  self_excluded: z.number(),
  /** People left out because they have not given marketing consent (Data Protection Act). */
  no_consent: z.number(),
  /** The text as it leaves (with the responsible-gambling lines and the opt-out text) and its real parts per recipient. */
  message: z.string(),
  /**
   * The banned claims the text holds (decision 061): while any is listed, Send is refused (422 on
   * `message`). Empty with the setting `rg_promotion_rules` off.
   */
  blocked: z.array(BannedClaimFound),
  /** The responsible-gambling lines added at the end in the message's language ('' with `rg_promotion_rules` off). */
  appended: z.string(),
  parts: z.number(),
  estimated_parts: z.number(),
  estimated_cost: Kes,
  /** Whether it would go now or be held until the promotional window opens. */
  held_until: z.string().nullable(),
  /** The setting `broadcast_cost_confirm_kes`: above it, the send must confirm the cost. */
  cost_limit: Kes,
  /** The estimated cost is over the limit: Send must carry `confirmed_cost` of at least it. */
  needs_confirmation: z.boolean(),
});

export const previewBroadcast = endpoint({
  method: 'POST',
  path: '/api/broadcasts/preview',
  tag: 'broadcasts',
  summary: 'How many would receive a broadcast after opt-outs, and its estimated SMS parts and cost',
  access: 'send:broadcasts',
  body: BroadcastAudience,
  response: BroadcastPreview,
});

export const Broadcast = z.object({
  id: z.number(),
  segment: z.string(),
  bet_category: z.string().nullable(),
  lapsed_days: z.number().nullable(),
  message: z.string(),
  recipients: z.number(),
  created_by: z.string().nullable(),
  created_on: z.string(),
  /** The language of its responsible-gambling lines; null for a broadcast sent before them. */
  language: z.enum(['en', 'sw']).nullable(),
  /** The advert approval reference of its campaign (decision 061), as the sender typed it. */
  approval_reference: z.string().nullable(),
  counts: z.object({
    queued: z.number(),
    held: z.number(),
    sent: z.number(),
    delivered: z.number(),
    failed: z.number(),
  }),
});
export type Broadcast = z.infer<typeof Broadcast>;

export const sendBroadcast = endpoint({
  method: 'POST',
  path: '/api/broadcasts/send',
  tag: 'broadcasts',
  summary:
    'Queue a broadcast once: the same idempotency key (a double click, a retry) returns the first one; over the cost limit, 409 `broadcast-cost` with the figure unless `confirmed_cost` covers it; a text holding a banned claim is 422 on `message` naming the words',
  access: 'send:broadcasts',
  body: z.intersection(
    BroadcastAudience,
    z.object({
      idempotency_key: z.string({ message: 'Missing idempotency key' }).trim().min(8).max(100),
      /**
       * The cost in KES the sender saw and confirmed (a broadcast costing more than
       * `broadcast_cost_confirm_kes` is refused with 409 `broadcast-cost` unless this covers it).
       */
      confirmed_cost: z.number({ message: 'The confirmed cost must be a number of KES' }).min(0, 'The confirmed cost may not be negative').optional(),
      /** The advert approval reference of the campaign (decision 061), kept with the broadcast and shown in its record. */
      approval_reference: z.preprocess(
        (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
        z.string({ message: 'The approval reference must be text' }).trim().max(100, 'At most 100 characters').optional(),
      ),
    }),
  ),
  response: Notice.extend({ broadcast: Broadcast }),
});

export const broadcastList = endpoint({
  method: 'GET',
  path: '/api/broadcasts',
  tag: 'broadcasts',
  summary: 'Broadcasts sent, newest first, with their delivery counts',
  access: 'send:broadcasts',
  query: PageQuery,
  response: z.object({ total_records: z.number(), broadcasts: z.array(Broadcast) }),
});

export const smsSelfServiceTexts = {
  inboundReceived: 'Message received',
  optOutReceived: 'Opt-out received',
  optedOut: 'Opted out of tips and offers by SMS',
  optOutCleared: 'Opt-out cleared',
  broadcastQueued: 'Broadcast queued',
  broadcastAlreadyQueued: 'This broadcast was already queued',
  noRecipients: 'Nobody in this segment can receive it',
  /** The 409 of a broadcast over the cost limit that was not confirmed: the figure and how it is made. */
  costNotConfirmed: (cost: string, recipients: number, parts: number, limit: string) =>
    `This broadcast costs about ${cost} (${recipients} recipient${recipients === 1 ? '' : 's'} × ${parts} part${parts === 1 ? '' : 's'}), above the ${limit} that needs a confirmation. Confirm the cost to send it.`,
} as const;
