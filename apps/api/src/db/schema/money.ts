import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users.ts';
import { bet4mePlans, clients } from './clients.ts';
import { betCategories, pricePackages, tipsSubscribers, TIPS_MEDIA } from './tips-core.ts';

export const PAYMENT_STATUSES = ['unclaimed', 'claimed', 'rejected'] as const;
export const MSISDN_KINDS = ['plain', 'hashed', 'masked', 'unknown'] as const;
export const PAYMENT_MATCHES = ['account', 'msisdn', 'manual', 'stk'] as const;
/** How a payment reached Betdesk: C2B confirmation, STK callback, Pull Transactions, or a portal statement import. */
export const PAYMENT_SOURCES = ['c2b', 'stk', 'pull', 'statement'] as const;

/**
 * Every M-Pesa payment received, once per TransID (C2B and STK alike), with its raw payload.
 * A confirmation that cannot be parsed is kept as `rejected` with the reason.
 */
export const mpesaPayments = pgTable(
  'mpesa_payments',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** M-Pesa receipt (TransID / MpesaReceiptNumber); null only on a rejected payload without one. */
    transId: text('trans_id').unique(),
    source: text('source', { enum: PAYMENT_SOURCES }).notNull(),
    transactionType: text('transaction_type'),
    amountCents: bigint('amount_cents', { mode: 'number' }),
    billRefNumber: text('bill_ref_number'),
    /** As received: a phone, a SHA-256 hex or a masked number. */
    msisdn: text('msisdn'),
    msisdnKind: text('msisdn_kind', { enum: MSISDN_KINDS }).notNull().default('unknown'),
    /** E.164 digits, only when the MSISDN was a plain phone (or STK named it). */
    senderPhone: text('sender_phone'),
    senderName: text('sender_name'),
    transTime: timestamp('trans_time', { withTimezone: true }),
    businessShortCode: text('business_short_code'),
    raw: jsonb('raw').notNull(),
    status: text('status', { enum: PAYMENT_STATUSES }).notNull(),
    rejectReason: text('reject_reason'),
    /**
     * Money M-Pesa says it received that needs a person's eye before it is claimed (e.g. paid to a
     * shortcode that is neither the store number nor the till): stored unclaimed, counted, shown.
     */
    warning: text('warning'),
    clientId: integer('client_id').references(() => clients.id),
    subscriberId: integer('subscriber_id').references(() => tipsSubscribers.id),
    matchedBy: text('matched_by', { enum: PAYMENT_MATCHES }),
    claimedBy: integer('claimed_by').references(() => users.id),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * When the payer paid: M-Pesa's TransTime, else when Betdesk received it. Stored so that the
     * lists' order and the day summaries read one indexed column instead of a `coalesce`.
     */
    paidAt: timestamp('paid_at', { withTimezone: true })
      .notNull()
      .generatedAlwaysAs(sql`coalesce(trans_time, received_at)`),
    /** The staff member of the client it is claimed to, kept by trigger: the scope's owner column. */
    assignedUserId: integer('assigned_user_id'),
    /** What refunds returned of it (done ones only), kept by the refunds module in their transaction. */
    refundedCents: bigint('refunded_cents', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    index('mpesa_payments_owner_paid_idx').on(t.assignedUserId, t.paidAt, t.id).where(sql`${t.assignedUserId} is not null`),
    index('mpesa_payments_owner_amount_idx').on(t.assignedUserId, t.amountCents, t.id).where(sql`${t.assignedUserId} is not null`),
    index('mpesa_payments_status_idx').on(t.status, t.receivedAt),
    // Every payment list pages off one of these (newest first or by amount), filtered by status.
    index('mpesa_payments_paid_idx').on(t.paidAt, t.id),
    index('mpesa_payments_status_paid_idx').on(t.status, t.paidAt, t.id),
    index('mpesa_payments_amount_idx').on(t.amountCents, t.id),
    index('mpesa_payments_status_amount_idx').on(t.status, t.amountCents, t.id),
    index('mpesa_payments_received_idx').on(t.receivedAt),
    index('mpesa_payments_client_idx').on(t.clientId),
    index('mpesa_payments_subscriber_idx').on(t.subscriberId),
    index('mpesa_payments_sender_name_trgm_idx').using('gin', sql`${t.senderName} gin_trgm_ops`),
    index('mpesa_payments_sender_phone_idx').on(t.senderPhone),
    // A phone typed in the search also finds payments whose MSISDN is its SHA-256 (hashed by M-Pesa).
    index('mpesa_payments_msisdn_idx').on(t.msisdn),
    index('mpesa_payments_trans_id_trgm_idx').using('gin', sql`${t.transId} gin_trgm_ops`),
    /** The search's receipt prefix (decision 067, migration 0059). */
    index('mpesa_payments_trans_id_prefix_idx').using('btree', sql`${t.transId} text_pattern_ops`),
    // The tips deposits list finds account numbers starting with a bet category code, normalised
    // as the matching rules read them (case-insensitive, spaces and dashes ignored); the list uses
    // exactly this expression (`normalisedAccountSql`) so that this index serves it.
    // The tips deposits waiting to be claimed (unclaimed, to nobody, account naming a category): few among
    // millions, so that counting them reads this small index instead of every payment of each prefix.
    // The account and the day are in it as well, so that the count is an index-only scan: with 5 % of
    // 2,000,000 payments unclaimed, visiting each one's heap page cost 12,000 pages (decision 045, migration 0039).
    index('mpesa_payments_waiting_account_idx')
      .using('btree', sql`upper(regexp_replace(coalesce(${t.billRefNumber}, ''), '[\\s-]+', '', 'g')) text_pattern_ops`, t.billRefNumber, t.paidAt)
      .where(sql`${t.status} = 'unclaimed' and ${t.clientId} is null and ${t.subscriberId} is null`),
    index('mpesa_payments_account_prefix_idx').using(
      'btree',
      sql`upper(regexp_replace(coalesce(${t.billRefNumber}, ''), '[\\s-]+', '', 'g')) text_pattern_ops`,
    ),
  ],
);

export const SUBSCRIPTION_SOURCES = ['mpesa', 'stk', 'manual', 'balance', 'ratiba', 'trial'] as const;

/**
 * A subscription of a Bet4Me client (to a plan) or of a tips subscriber (to a price package).
 * Active (status 1) while expires_at is in the future.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    clientId: integer('client_id').references(() => clients.id),
    subscriberId: integer('subscriber_id').references(() => tipsSubscribers.id),
    planId: integer('plan_id').references(() => bet4mePlans.id),
    packageId: integer('package_id').references(() => pricePackages.id),
    betCategoryId: integer('bet_category_id').references(() => betCategories.id),
    medium: text('medium', { enum: TIPS_MEDIA }),
    durationDays: integer('duration_days').notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    source: text('source', { enum: SUBSCRIPTION_SOURCES }).notNull(),
    paymentId: bigint('payment_id', { mode: 'number' }).references(() => mpesaPayments.id),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set by the expiry job when the subscription lapses; the reminder job sets reminded_at. */
    lapsedAt: timestamp('lapsed_at', { withTimezone: true }),
    remindedAt: timestamp('reminded_at', { withTimezone: true }),
    /** Set when the payment that bought it is unclaimed: it is void and never counts as income. */
    reversedAt: timestamp('reversed_at', { withTimezone: true }),
    /** The client's staff member (null for tips subscribers), kept by trigger: the scope's owner column. */
    assignedUserId: integer('assigned_user_id'),
  },
  (t) => [
    check('subscriptions_one_subject', sql`(${t.clientId} is null) <> (${t.subscriberId} is null)`),
    // A payment buys at most one subscription, however often its confirmation arrives.
    uniqueIndex('subscriptions_payment_key').on(t.paymentId).where(sql`${t.paymentId} is not null`),
    index('subscriptions_client_idx').on(t.clientId, t.expiresAt),
    index('subscriptions_subscriber_idx').on(t.subscriberId, t.expiresAt),
    index('subscriptions_expires_idx').on(t.expiresAt),
    // The expiry job's batches (decision 064): only the subscriptions not yet marked lapsed.
    index('subscriptions_lapse_due_idx').on(t.expiresAt, t.id).where(sql`${t.lapsedAt} is null`),
    index('subscriptions_created_idx').on(t.createdAt),
    // The income-by-source report reads what staff recorded by hand: few rows among millions.
    index('subscriptions_manual_created_idx').on(t.createdAt).where(sql`${t.source} = 'manual'`),
    // The Bet4Me and tips subscription lists page newest first (or by amount/expiry) off these.
    index('subscriptions_client_created_idx').on(t.createdAt, t.id).where(sql`${t.clientId} is not null`),
    index('subscriptions_subscriber_created_idx').on(t.createdAt, t.id).where(sql`${t.subscriberId} is not null`),
    index('subscriptions_client_amount_idx').on(t.amountCents, t.id).where(sql`${t.clientId} is not null`),
    index('subscriptions_subscriber_expires_idx').on(t.expiresAt, t.id).where(sql`${t.subscriberId} is not null`),
    // Active clients: the running Bet4Me subscriptions, read without visiting the table.
    index('subscriptions_client_running_idx').on(t.expiresAt, t.clientId).where(sql`${t.clientId} is not null`),
    // A staff member's running Bet4Me subscriptions (the dashboard's active clients): a range of the
    // owner's, read off the index alone, however many have ended (decision 045).
    index('subscriptions_owner_running_idx').on(t.assignedUserId, t.expiresAt, t.createdAt, t.id, t.clientId).where(sql`${t.clientId} is not null`),
    index('subscriptions_owner_created_idx').on(t.assignedUserId, t.createdAt, t.id).where(sql`${t.assignedUserId} is not null`),
    index('subscriptions_owner_amount_idx').on(t.assignedUserId, t.amountCents, t.id).where(sql`${t.assignedUserId} is not null`),
    index('subscriptions_client_history_idx').on(t.clientId, t.createdAt, t.id).where(sql`${t.clientId} is not null`),
  ],
);

/** `refund`: money a refund returned to the payer, taken from the account the payment credited. */
export const LEDGER_KINDS = ['payment', 'subscription', 'bonus_payment', 'adjustment', 'refund'] as const;

/**
 * A client's or subscriber's account: credits (payments claimed to them) and debits (subscriptions
 * bought, bonuses paid from it). The balance is the sum; nothing is overwritten in place.
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    clientId: integer('client_id').references(() => clients.id),
    subscriberId: integer('subscriber_id').references(() => tipsSubscribers.id),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    kind: text('kind', { enum: LEDGER_KINDS }).notNull(),
    paymentId: bigint('payment_id', { mode: 'number' }).references(() => mpesaPayments.id),
    subscriptionId: bigint('subscription_id', { mode: 'number' }).references(() => subscriptions.id),
    bonusPaymentId: bigint('bonus_payment_id', { mode: 'number' }),
    note: text('note'),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('ledger_one_subject', sql`(${t.clientId} is null) <> (${t.subscriberId} is null)`),
    index('ledger_client_idx').on(t.clientId),
    index('ledger_subscriber_idx').on(t.subscriberId),
    index('ledger_payment_idx').on(t.paymentId),
  ],
);
