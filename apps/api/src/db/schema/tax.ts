import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users.ts';
import { mpesaPayments, subscriptions } from './money.ts';
import { bonusPayments, clients } from './clients.ts';
import { tipsSubscribers } from './tips-core.ts';
import { sealedText } from './sealed.ts';

/** KRA's tax types (eTIMS code list): A exempt, B 16 %, C 0 %, D non-VAT, E 8 %. */
export const TAX_TYPES = ['A', 'B', 'C', 'D', 'E'] as const;
export const TAX_INVOICE_KINDS = ['invoice', 'credit_note'] as const;
/**
 * awaiting: invoicing is off (not configured); queued: waiting for (another) transmission;
 * sent: KRA holds it; rejected: KRA refused it (the reason is kept, an admin resends after a fix).
 */
/** Why a credit note was issued: the sale's subscription was reversed, or money was refunded. */
/** reversal: the sale was undone; refund: money returned, the sale kept as sold; shortened: money
 * returned and the sale's price lowered by it (a refund that shortens the subscription). */
export const CREDIT_NOTE_CAUSES = ['reversal', 'refund', 'shortened', 'reissue'] as const;
export const TAX_INVOICE_STATUSES = ['awaiting', 'queued', 'sent', 'rejected'] as const;

/**
 * The business's eTIMS device (one row). Invoicing is on once the device is initialised: the
 * communication key KRA returned is held sealed, as the other secrets are.
 */
export const taxDevice = pgTable(
  'tax_device',
  {
    id: smallint('id').primaryKey().default(1),
    tin: text('tin'),
    branchId: text('branch_id').notNull().default('00'),
    deviceSerial: text('device_serial'),
    vatRegistered: boolean('vat_registered').notNull().default(false),
    /** null: ETIMS_BASE_URL (KRA's sandbox unless set). */
    baseUrl: text('base_url'),
    cmcKeySealed: sealedText('cmc_key_sealed'),
    sdcId: text('sdc_id'),
    mrcNo: text('mrc_no'),
    initialisedAt: timestamp('initialised_at', { withTimezone: true }),
    updatedBy: integer('updated_by').references(() => users.id),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('tax_device_one_row', sql`${t.id} = 1`)],
);

/** The last invoice number given per branch: taken under the row's lock, so numbers have no gaps. */
export const taxInvoiceCounters = pgTable('tax_invoice_counters', {
  branchId: text('branch_id').primaryKey(),
  lastNumber: integer('last_number').notNull().default(0),
});

/**
 * The eTIMS items registered with saveItem: what was last registered, so that a change of name,
 * price or tax type is registered again before the next invoice naming it.
 */
export const taxItems = pgTable(
  'tax_items',
  {
    itemCode: text('item_code').notNull(),
    branchId: text('branch_id').notNull(),
    name: text('name').notNull(),
    priceCents: bigint('price_cents', { mode: 'number' }).notNull(),
    taxType: text('tax_type', { enum: TAX_TYPES }).notNull(),
    registeredAt: timestamp('registered_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.branchId, t.itemCode] })],
);

/**
 * A tax invoice (a sale: a subscription bought by a payment) or a credit note against one. Amounts
 * are VAT-inclusive integer cents; the item, price and tax are fixed when the sale is made.
 */
export const taxInvoices = pgTable(
  'tax_invoices',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind', { enum: TAX_INVOICE_KINDS }).notNull(),
    branchId: text('branch_id').notNull(),
    number: integer('number').notNull(),
    originalId: bigint('original_id', { mode: 'number' }),
    cause: text('cause', { enum: CREDIT_NOTE_CAUSES }),
    paymentId: bigint('payment_id', { mode: 'number' }).references(() => mpesaPayments.id),
    subscriptionId: bigint('subscription_id', { mode: 'number' }).references(() => subscriptions.id),
    /** A bonus payment invoiced as income (setting `tax_invoice_bonus_payments`, decision 035). */
    bonusPaymentId: bigint('bonus_payment_id', { mode: 'number' }).references(() => bonusPayments.id),
    itemCode: text('item_code').notNull(),
    itemName: text('item_name').notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    /** The line's quantity: the days of a daily package's sale (decision 095), else 1. */
    quantity: integer('quantity').notNull().default(1),
    taxType: text('tax_type', { enum: TAX_TYPES }).notNull(),
    taxCents: bigint('tax_cents', { mode: 'number' }).notNull(),
    buyerPhone: text('buyer_phone'),
    /** The buyer's KRA PIN and registered name as sent to KRA (custTin/custNm), kept from the buyer's tax identity at issue. */
    buyerPin: text('buyer_pin'),
    buyerName: text('buyer_name'),
    /** An invoice issued again with the buyer's PIN: the original it replaces (credited in full by a 'reissue' credit note). */
    reissueOf: bigint('reissue_of', { mode: 'number' }),
    status: text('status', { enum: TAX_INVOICE_STATUSES }).notNull(),
    reason: text('reason'),
    /** A credit note's eTIMS reason code (rfdRsnCd): from the refund's reason, 06 Refund otherwise. */
    creditReasonCode: text('credit_reason_code'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    kraReceiptNumber: integer('kra_receipt_number'),
    kraTotalReceiptNumber: integer('kra_total_receipt_number'),
    kraInternalData: text('kra_internal_data'),
    kraSignature: text('kra_signature'),
    kraSdcId: text('kra_sdc_id'),
    kraSdcTime: text('kra_sdc_time'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('tax_invoices_branch_number_idx').on(t.branchId, t.number),
    check('tax_invoices_quantity', sql`${t.quantity} >= 1`),
    // A sale is invoiced once, whatever retries the payment's route makes.
    uniqueIndex('tax_invoices_sale_idx').on(t.subscriptionId).where(sql`${t.kind} = 'invoice' and ${t.reissueOf} is null`),
    // An invoice is reissued at most once (decision 074).
    uniqueIndex('tax_invoices_reissue_idx').on(t.reissueOf).where(sql`${t.reissueOf} is not null`),
    uniqueIndex('tax_invoices_bonus_idx').on(t.bonusPaymentId).where(sql`${t.kind} = 'invoice'`),
    index('tax_invoices_created_idx').on(t.createdAt.desc(), t.id.desc()),
    index('tax_invoices_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'queued'`),
    index('tax_invoices_payment_idx').on(t.paymentId),
    index('tax_invoices_original_idx').on(t.originalId),
    /** The search's invoice number (decision 067, migration 0059). */
    index('tax_invoices_number_idx').on(t.number),
    check('tax_invoices_credit_has_original', sql`(${t.kind} = 'invoice') = (${t.originalId} is null and ${t.cause} is null)`),
  ],
);

/** A books period's state: closing (asked, awaiting a second admin), closed, reopening (asked), open (reopened). */
export const BOOKS_PERIOD_STATES = ['closing', 'closed', 'reopening', 'open'] as const;

/**
 * A month of the books (decision 075), once an admin has asked to close it: the filed return's
 * reference, who asked and who confirmed, and the month's figures as they stood when it closed
 * (the VAT return's summary and the money bridge's lines), which a closed month is read from.
 */
export const booksPeriods = pgTable('books_periods', {
  month: text('month').primaryKey(),
  state: text('state', { enum: BOOKS_PERIOD_STATES }).notNull(),
  returnReference: text('return_reference').notNull(),
  askedBy: integer('asked_by')
    .notNull()
    .references(() => users.id),
  askedAt: timestamp('asked_at', { withTimezone: true }).notNull(),
  closedBy: integer('closed_by').references(() => users.id),
  closedAt: timestamp('closed_at', { withTimezone: true }),
  /** When the month first closed, kept through a reopening: a document written after it for the month posts in the month it is written. */
  firstClosedAt: timestamp('first_closed_at', { withTimezone: true }),
  confirmedBy: integer('confirmed_by').references(() => users.id),
  snapshot: jsonb('snapshot').$type<BooksSnapshot>(),
});

/** What a closed month read at its close: the return's summary per rate and the bridge's lines, as the API sent them. */
export interface BooksSnapshot {
  summary: { rate: string; count: number; taxable: number; vat: number; total: number }[];
  bridge: BooksSnapshotLine[];
  /** Each day's bridge lines (decision 079); absent on a month closed before they were kept. */
  days?: Record<string, BooksSnapshotLine[]>;
}
export interface BooksSnapshotLine {
  line: string;
  label: string;
  count: number;
  amount: number;
  link: string;
  closed_month?: string;
  closed_month_link?: string;
}
export const BUYER_PIN_VERIFICATIONS = ['verified', 'unverified'] as const;

/**
 * A buyer's KRA PIN and registered name (decision 074): of one Bet4Me client or one tips subscriber.
 * `verification`: KRA's customer lookup (selectCustomer) found the PIN, or it could not be asked.
 */
export const buyerTaxIdentities = pgTable(
  'buyer_tax_identities',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    clientId: integer('client_id').references(() => clients.id),
    subscriberId: integer('subscriber_id').references(() => tipsSubscribers.id),
    pin: text('pin').notNull(),
    name: text('name').notNull(),
    verification: text('verification', { enum: BUYER_PIN_VERIFICATIONS }).notNull(),
    /** The taxpayer's name as KRA's lookup gave it, when it answered. */
    verifiedName: text('verified_name'),
    updatedBy: integer('updated_by').references(() => users.id),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('buyer_tax_identities_one_subject', sql`(${t.clientId} is null) <> (${t.subscriberId} is null)`),
    check('buyer_tax_identities_pin_format', sql`${t.pin} ~ '^[AP][0-9]{9}[A-Z]$'`),
    uniqueIndex('buyer_tax_identities_client_key').on(t.clientId).where(sql`${t.clientId} is not null`),
    uniqueIndex('buyer_tax_identities_subscriber_key').on(t.subscriberId).where(sql`${t.subscriberId} is not null`),
  ],
);
