import { z } from 'zod';
import { CustomerLanguage } from './tips-subscribers.ts';
import { Notice } from './common.ts';
import { endpoint } from './endpoint.ts';
import { KenyanPhone } from './phone.ts';
import { Id } from './common.ts';
import { RECORD_BLOCK_PERIODS } from './tips-winnings.ts';
import { Selection, TICKET_STATUSES, TrackRecord } from './tips-record.ts';
import { INVOICE_DOCUMENT_SIZES, InvoiceRef, TaxIdentity, TaxIdentityForm } from './tax.ts';
import { AUTO_RENEW_FREQUENCIES, StandingOrder } from './auto-renew.ts';

/*
 * The subscriber portal (decision 021): punters sign in with their phone and an SMS code, read the web
 * tips they paid for and buy packages by STK push. Its endpoints answer a portal session (its own
 * cookie), never a staff token; a staff session never opens them and a portal cookie opens nothing
 * of the back office.
 */

/** The cookie holding a portal session; the server keeps only its SHA-256. */
export const PORTAL_COOKIE = 'betdesk_portal';

export const portalTexts = {
  codeSent: 'If this number can receive SMS, a 6-digit code is on its way. It works for 10 minutes.',
  wrongCode: 'This code is wrong or has expired. Check the SMS or ask for a new code.',
  triesSpent: 'Too many wrong codes. Ask for a new code.',
  tooManyCodes: 'Too many codes asked for. Wait a while and try again.',
  signedIn: 'You are signed in',
  signedOut: 'You are signed out',
  signInNeeded: 'Sign in with your phone number to continue.',
  notYours: 'Subscribe to read this tip.',
  noPackage: 'Choose one of the listed packages',
  ageRequired: 'Tick that you are 18 or older to buy.',
  /** A daily package's days (decision 095). */
  dailyDays: 'Choose from 1 to 30 days.',
  paymentRequested: 'Check your phone and enter your M-Pesa PIN',
  smsStopped: 'You will receive no more tips or offers by SMS.',
  smsRestarted: 'You will receive our tips and offers by SMS again.',
  /** A link to an invoice sent by SMS (decision 087) that was altered, or whose invoice is gone. */
  invoiceLinkInvalid: 'This invoice link is not valid. Check that the whole link was opened.',
  /** Its days are over: My subscriptions keeps every invoice, or staff send a new link. */
  invoiceLinkExpired: 'This invoice link has expired. Sign in to My account to download your invoices, or ask us for a new link.',
} as const;

/** A code is 6 digits; spaces typed between them are forgiven. */
const Code = z
  .string({ message: 'Enter the 6-digit code' })
  .transform((v) => v.replace(/\s/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'Enter the 6-digit code from the SMS'));

export const PortalPhone = z.object({ phone: KenyanPhone });
export const PortalVerify = z.object({ phone: KenyanPhone, code: Code });

/** A portal page: page from 1, up to 50 posts. */
export const PortalPageQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  perPage: z.coerce.number().int().min(1, 'perPage must be 1 to 50').max(50, 'perPage must be 1 to 50').default(10),
});
export type PortalPageQuery = z.infer<typeof PortalPageQuery>;

export const PortalSubscription = z.object({
  bet_category: z.string(),
  bet_category_code: z.string(),
  medium: z.enum(['sms', 'web']),
  expires_at: z.string(),
  active: z.boolean(),
  days_left: z.number(),
  /** The KRA tax invoice of the latest purchase of this category and medium (none for a staff grant). */
  invoice: InvoiceRef.nullable(),
  /** The latest subscription of this category and medium (what automatic renewal is turned on for). */
  subscription_id: z.number(),
  /**
   * Automatic renewal by M-Pesa Ratiba: its standing order, or the offer to turn it on; null when
   * Ratiba is off or the package's length has no Ratiba frequency (daily, weekly, monthly).
   */
  auto_renew: z
    .union([
      z.object({ standing_order: StandingOrder }),
      z.object({
        offer: z.object({
          amount: z.number(),
          frequency: z.enum(AUTO_RENEW_FREQUENCIES),
          start_date: z.string(),
          /** The last payment's day if it is turned on now (a year after the start). */
          end_date: z.string(),
          /** The Nairobi day the subscriber's last standing order for it was declined, or null: the portal says so beside the offer. */
          declined_on: z.string().nullable(),
        }),
      }),
    ])
    .nullable(),
  /**
   * A pause (decision 090) of the running subscription of this category and medium: the offer to
   * pause it (its id and the most days) or its pause, running or over; null when it may not be
   * paused (a daily package, pausing off, a self-excluded person, none running).
   */
  pause: z
    .union([
      z.object({ offer: z.object({ subscription_id: z.number(), max_days: z.number() }) }),
      z.object({ paused: z.object({ subscription_id: z.number(), starts_at: z.string(), ends_at: z.string() }) }),
    ])
    .nullable(),
});
export type PortalSubscription = z.infer<typeof PortalSubscription>;

export const PortalMe = z.object({
  phone: z.string(),
  /** Null until the phone has bought something (it is then a tips subscriber). */
  name: z.string().nullable(),
  receives_sms: z.boolean(),
  /** Marketing consent: offers and broadcasts by SMS (Data Protection Act, decision 025). */
  offers_consent: z.boolean(),
  /** The words the subscriber agrees to when they tick the box, in their language. */
  offers_wording: z.string(),
  /** The language the phone reads its SMS, USSD screens and portal in. */
  language: CustomerLanguage,
  subscriptions: z.array(PortalSubscription),
  /** The KRA PIN and registered name the phone's tax invoices carry (decision 074), once it is a subscriber. */
  tax_identity: TaxIdentity.nullable(),
  /** The subscriber's own referral code (decision 088), null until the phone is a subscriber. */
  referral_code: z.string().nullable(),
});
export type PortalMe = z.infer<typeof PortalMe>;

/** What anyone may see of a post: no content. */
export const PortalTeaser = z.object({
  id: z.number(),
  title: z.string(),
  post_category: z.string(),
  bet_categories: z.array(z.string()),
  match_date: z.string(),
});
export type PortalTeaser = z.infer<typeof PortalTeaser>;

export const PortalPost = PortalTeaser.extend({ content: z.string(), image_url: z.string().nullable() });
export type PortalPost = z.infer<typeof PortalPost>;

export const PortalPackage = z.object({
  id: z.number(),
  name: z.string(),
  bet_category: z.string(),
  bet_category_code: z.string(),
  medium: z.enum(['sms', 'web']),
  duration_days: z.number(),
  /** A daily package's (decision 095) is one day's: a purchase buys 1 to 30 days at it. */
  price: z.number(),
  billing: z.enum(['period', 'daily']),
});
export type PortalPackage = z.infer<typeof PortalPackage>;

export const PortalPurchase = z.object({
  id: z.number(),
  package: z.string(),
  amount: z.number(),
  status: z.enum(['pending', 'paid', 'cancelled', 'failed']),
  /** Why it failed or was cancelled, as M-Pesa said it. */
  reason: z.string().nullable(),
  receipt: z.string().nullable(),
  /** The subscription's new expiry once paid. */
  expires_at: z.string().nullable(),
  requested_at: z.string(),
  /** The sale's KRA tax invoice once paid (its QR content once KRA has it). */
  invoice: InvoiceRef.nullable(),
});
export type PortalPurchase = z.infer<typeof PortalPurchase>;

export const portalRequestCode = endpoint({
  method: 'POST',
  path: '/api/portal/auth/request-code',
  tag: 'portal',
  summary: 'Send a 6-digit sign-in code by SMS (same answer for every valid number; rate-limited per phone and IP)',
  access: 'public',
  body: PortalPhone,
  response: Notice,
});

export const portalVerify = endpoint({
  method: 'POST',
  path: '/api/portal/auth/verify',
  tag: 'portal',
  summary: 'Check the code; sets the portal session cookie',
  access: 'public',
  body: PortalVerify,
  response: Notice.extend({ phone: z.string() }),
});

export const portalLogout = endpoint({
  method: 'POST',
  path: '/api/portal/auth/logout',
  tag: 'portal',
  summary: 'End the portal session and clear its cookie',
  access: 'public',
  response: Notice,
});

export const portalMe = endpoint({
  method: 'GET',
  path: '/api/portal/me',
  tag: 'portal',
  summary: 'The signed-in phone, its name and its subscriptions',
  access: 'portal',
  response: PortalMe,
});

export const portalTips = endpoint({
  method: 'GET',
  path: '/api/portal/tips',
  tag: 'portal',
  summary: "The web posts of the subscriber's active web subscriptions, newest match first",
  access: 'portal',
  query: PortalPageQuery,
  response: z.object({ posts: z.array(PortalPost), total_records: z.number() }),
});

export const portalPost = endpoint({
  method: 'GET',
  path: '/api/portal/posts/:id',
  tag: 'portal',
  summary: 'One post with its content when readable (public category or active web subscription), else 403 with the teaser',
  access: 'public',
  response: z.object({ post: PortalPost }),
});

/** The public record's page: one category (absent: all), a period, and a page of its tickets. */
export const PortalRecordQuery = PortalPageQuery.extend({
  bet_category_id: Id.optional(),
  period: z.enum(RECORD_BLOCK_PERIODS, { message: `period must be one of ${RECORD_BLOCK_PERIODS.join(', ')}` }).default('all'),
});
export type PortalRecordQuery = z.infer<typeof PortalRecordQuery>;

/** A ticket as the public record lists it: settled, every leg kicked off. */
export const PublicTicket = z.object({
  id: z.number(),
  bet_category: z.string(),
  code: z.string(),
  match_date: z.string(),
  combined_odds: z.number(),
  status: z.enum(TICKET_STATUSES.filter((s) => s !== 'pending') as ['won', 'lost', 'void']),
  profit_units: z.number(),
  selections: z.array(Selection.omit({ id: true })),
  /**
   * The ticket's last link of the proof chain (decision 071): `hash` = SHA-256 (hex) of
   * `previous_hash`, a newline and `content` (the ticket as published); null: published before the chain.
   */
  proof: z.object({ hash: z.string(), previous_hash: z.string(), content: z.string() }).nullable(),
});
export type PublicTicket = z.infer<typeof PublicTicket>;

export const portalRecord = endpoint({
  method: 'GET',
  path: '/api/portal/record',
  tag: 'portal',
  summary:
    "The public track record of a bet category (or of all): its totals over the period and its settled tickets newest first, paged; a ticket is listed only once every leg has kicked off and has a result",
  access: 'public',
  query: PortalRecordQuery,
  response: z.object({
    totals: TrackRecord.extend({ bet_category: z.string(), code: z.string().nullable() }),
    tickets: z.array(PublicTicket),
    total_records: z.number(),
    /** The proof chain's last hash (decision 071): keep it, and no earlier publication can be rewritten unseen. */
    chain_head: z.string().nullable(),
  }),
});

export const portalPackages = endpoint({
  method: 'GET',
  path: '/api/portal/packages',
  tag: 'portal',
  summary: 'The packages on sale with their prices',
  access: 'public',
  response: z.object({ packages: z.array(PortalPackage) }),
});

export const portalPurchase = endpoint({
  method: 'POST',
  path: '/api/portal/purchase',
  tag: 'portal',
  summary: "Buy or renew a package: an STK push to the signed-in phone (503 with the paybill instructions when M-Pesa's API is not configured)",
  access: 'portal',
  body: z.object({
    package_id: z.coerce.number({ message: portalTexts.noPackage }).int().min(1, portalTexts.noPackage).max(2_147_483_647),
    /** The 18+ declaration's tick (decision 060): asked before a phone's first purchase while the age gate is on. */
    adult: z.union([z.boolean(), z.enum(['1', 'on', 'true'])]).optional(),
    /** A promo code (decision 077): the push asks its discounted price; a code that cannot be used is 422 on `code`. */
    code: z.string({ message: 'Enter the promo code' }).trim().max(40, 'Enter the promo code').optional(),
  }),
  response: Notice.extend({ payment_request_id: z.number() }),
});

export const portalPurchaseStatus = endpoint({
  method: 'GET',
  path: '/api/portal/purchase/:id',
  tag: 'portal',
  summary: "A purchase's status (waiting for the PIN, paid with the new expiry, failed or cancelled with the reason)",
  access: 'portal',
  response: z.object({ purchase: PortalPurchase }),
});

export const portalLanguage = endpoint({
  method: 'POST',
  path: '/api/portal/language',
  tag: 'portal',
  summary: "Choose the language of the signed-in phone's SMS, USSD screens and portal (en or sw)",
  access: 'portal',
  body: z.object({ language: CustomerLanguage }),
  response: Notice.extend({ language: CustomerLanguage }),
});

export const portalSms = endpoint({
  method: 'POST',
  path: '/api/portal/sms',
  tag: 'portal',
  summary: 'Stop or restart tips and offers by SMS (the opt-out rules of the outbox; audited as the subscriber)',
  access: 'portal',
  body: z.object({ receive: z.boolean({ message: 'Say whether to receive SMS (true or false)' }) }),
  response: Notice.extend({ receives_sms: z.boolean() }),
});

export const portalTaxIdentity = endpoint({
  method: 'POST',
  path: '/api/portal/tax-identity',
  tag: 'portal',
  summary: "Add the signed-in phone's KRA PIN and registered name for its tax invoices (an empty PIN removes it)",
  access: 'portal',
  body: TaxIdentityForm,
  response: Notice.extend({ identity: TaxIdentity.nullable() }),
});

export const portalInvoiceDocument = endpoint({
  method: 'GET',
  path: '/api/portal/invoices/:id/document',
  tag: 'portal',
  summary: "One of the signed-in phone's own tax invoices as a printable PDF (A4 or 80 mm receipt)",
  access: 'portal',
  query: z.object({ size: z.enum(INVOICE_DOCUMENT_SIZES).default('a4'), lang: z.enum(['en', 'sw']).optional() }),
  response: z.unknown(),
});
