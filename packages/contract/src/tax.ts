import { z } from 'zod';
import { Notice, PageQuery } from './common.ts';
import { csvExport, endpoint } from './endpoint.ts';
import { BusinessDay } from './lists.ts';
import { BooksClosed } from './books.ts';
import { dateRangeFields, endsAfterStart, rangeOrderError } from './date-range.ts';

/** KRA's tax types (eTIMS): A exempt, B 16 %, C 0 %, D non-VAT, E 8 %. */
export const TAX_TYPE_CODES = ['A', 'B', 'C', 'D', 'E'] as const;
export const TAX_INVOICE_STATUS_NAMES = ['awaiting', 'queued', 'sent', 'rejected'] as const;
export const TAX_INVOICE_KIND_NAMES = ['invoice', 'credit_note'] as const;

export const TaxSettings = z.object({
  tin: z.string().trim().regex(/^[AP]\d{9}[A-Z]$/, 'Enter the KRA PIN, e.g. P051234567X'),
  branch_id: z.string().trim().regex(/^\d{2}$/, 'Enter the two-digit branch id (00 for the head office)').default('00'),
  device_serial: z.string().trim().min(1, 'Enter the device serial number KRA registered').max(100),
  vat_registered: z.boolean(),
  base_url: z.url('Enter the OSCU address, e.g. https://etims-api-sbx.kra.go.ke/etims-api').nullable().optional(),
});
export type TaxSettings = z.infer<typeof TaxSettings>;

export const TaxSettingsView = z.object({
  tin: z.string().nullable(),
  branch_id: z.string(),
  device_serial: z.string().nullable(),
  vat_registered: z.boolean(),
  base_url: z.string(),
  /** The device was initialised: KRA's communication key is held (never shown). */
  initialised: z.boolean(),
  invoicing_on: z.boolean(),
});

export const taxSettings = endpoint({
  method: 'GET',
  path: '/api/tax/settings',
  tag: 'tax',
  summary: 'The eTIMS device settings and whether invoicing is on',
  access: 'manage:tax',
  response: TaxSettingsView,
});

export const saveTaxSettings = endpoint({
  method: 'POST',
  path: '/api/tax/settings',
  tag: 'tax',
  summary: 'Save the eTIMS device settings (a changed PIN, branch or serial needs a new initialisation)',
  access: 'manage:tax',
  body: TaxSettings,
  response: Notice.extend({ settings: TaxSettingsView }),
});

export const initialiseTaxDevice = endpoint({
  method: 'POST',
  path: '/api/tax/initialise',
  tag: 'tax',
  summary: "Run KRA's device initialisation (selectInitOsdcInfo); invoicing starts and waiting sales are queued",
  access: 'manage:tax',
  response: Notice.extend({ settings: TaxSettingsView, queued: z.number() }),
});

export const TaxInvoice = z.object({
  id: z.number(),
  kind: z.enum(TAX_INVOICE_KIND_NAMES),
  number: z.number(),
  original_number: z.number().nullable(),
  payment_id: z.number().nullable(),
  trans_id: z.string().nullable(),
  time: z.string(),
  buyer_phone: z.string().nullable(),
  item: z.string(),
  amount: z.number(),
  tax_type: z.enum(TAX_TYPE_CODES),
  tax: z.number(),
  status: z.enum(TAX_INVOICE_STATUS_NAMES),
  kra_receipt_number: z.number().nullable(),
  sent_at: z.string().nullable(),
  reason: z.string().nullable(),
});
export type TaxInvoice = z.infer<typeof TaxInvoice>;

export const TaxInvoiceFilters = z
  .object({
    ...dateRangeFields,
    status: z.enum(TAX_INVOICE_STATUS_NAMES).optional(),
    kind: z.enum(TAX_INVOICE_KIND_NAMES).optional(),
  })
  .refine(endsAfterStart, rangeOrderError);

export const taxInvoices = endpoint({
  method: 'GET',
  path: '/api/tax/invoices',
  tag: 'tax',
  summary: 'Tax invoices and credit notes by day range, status and kind, with their totals',
  access: 'manage:tax',
  query: PageQuery.extend({
    ...dateRangeFields,
    status: z.enum(TAX_INVOICE_STATUS_NAMES).optional(),
    kind: z.enum(TAX_INVOICE_KIND_NAMES).optional(),
  }).refine(endsAfterStart, rangeOrderError),
  response: z.object({
    invoices: z.array(TaxInvoice),
    total_records: z.number(),
    total_amount: z.number(),
    total_tax: z.number(),
  }),
});

export const exportTaxInvoices = csvExport({
  path: '/api/tax/invoices/export',
  tag: 'tax',
  summary: 'CSV of the tax invoices and credit notes the list shows',
  access: 'manage:tax',
  query: TaxInvoiceFilters,
});

export const TaxInvoiceDetail = TaxInvoice.extend({
  kra: z
    .object({
      receipt_number: z.number().nullable(),
      total_receipt_number: z.number().nullable(),
      internal_data: z.string().nullable(),
      signature: z.string().nullable(),
      sdc_id: z.string().nullable(),
      sdc_time: z.string().nullable(),
    })
    .nullable(),
  /** What the invoice's QR code carries: KRA's verification link (null until KRA signed it). */
  qr: z.string().nullable(),
});

export const showTaxInvoice = endpoint({
  method: 'GET',
  path: '/api/tax/invoices/:id',
  tag: 'tax',
  summary: "One invoice or credit note with KRA's answer and its QR content",
  access: 'manage:tax',
  response: TaxInvoiceDetail,
});

export const resendTaxInvoice = endpoint({
  method: 'POST',
  path: '/api/tax/invoices/:id/resend',
  tag: 'tax',
  summary: 'Queue a rejected invoice again (after its setting or item was corrected)',
  access: 'manage:tax',
  response: Notice.extend({ invoice: TaxInvoice }),
});

export const TaxSummaryRow = z.object({
  tax_type: z.enum(TAX_TYPE_CODES),
  sales: z.number(),
  tax: z.number(),
  credit_notes: z.number(),
  credit_notes_tax: z.number(),
  net: z.number(),
  net_tax: z.number(),
});

const Month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Choose a month as YYYY-MM');

export const taxSummary = endpoint({
  method: 'GET',
  path: '/api/tax/summary',
  tag: 'tax',
  summary: 'A month of invoices per tax type: sales, tax, credit notes and net (what the accountant files)',
  access: 'manage:tax',
  query: z.object({ month: Month }),
  response: z.object({ month: z.string(), closed: BooksClosed.nullable(), rows: z.array(TaxSummaryRow) }),
});

export const TaxCheckRow = z.object({
  problem: z.enum(['sale_without_invoice', 'invoice_rejected', 'invoice_without_sale', 'amount_differs', 'credit_note_without_reversal']),
  payment_id: z.number().nullable(),
  subscription_id: z.number().nullable(),
  invoice_id: z.number().nullable(),
  amount: z.number(),
  link: z.string(),
});

export const taxCheck = endpoint({
  method: 'GET',
  path: '/api/tax/check',
  tag: 'tax',
  summary: "A day's sales against its invoices (count and amount to the cent) and every credit note against its reversal",
  access: 'manage:tax',
  query: z.object({ date: BusinessDay }),
  response: z.object({
    sales: z.object({ count: z.number(), amount: z.number() }),
    invoices: z.object({ count: z.number(), amount: z.number() }),
    difference: z.object({ count: z.number(), amount: z.number() }),
    rows: z.array(TaxCheckRow),
  }),
});

export const taxStatus = endpoint({
  method: 'GET',
  path: '/api/tax/status',
  tag: 'tax',
  summary: "The dashboard's tax banner: whether invoicing is on, and invoices KRA has not accepted within the allowed delay",
  access: 'manage:tax',
  response: z.object({
    invoicing_on: z.boolean(),
    late_invoices: z.number(),
    alert: z.string().nullable(),
    /** Documents KRA rejected, or not accepted within tax_transmission_alert_hours (the admin alerts' Tax line). */
    transmission_alert: z.string().nullable(),
  }),
});

/** One rate's totals of the VAT return: the schedule's lines of that rate summed, to the cent. */
export const VatReturnSummaryRow = z.object({
  rate: z.enum(TAX_TYPE_CODES),
  count: z.number(),
  /** Without VAT; credit notes count negative. */
  taxable: z.number(),
  vat: z.number(),
  /** VAT-inclusive: taxable + vat. */
  total: z.number(),
});

/**
 * One line of the VAT return's sales schedule, in the column order of KRA's VAT3 sales section
 * (docs/INTEGRATIONS.md, "The VAT return"): a credit note is negative and names its original.
 */
export const VatReturnLine = z.object({
  rate: z.enum(TAX_TYPE_CODES),
  buyer_pin: z.string().nullable(),
  buyer_name: z.string().nullable(),
  /** The control unit's invoice number (`<sdcId>/<receipt number>`), once KRA holds the document. */
  cu_invoice_number: z.string().nullable(),
  /** The invoice's own date (Africa/Nairobi), YYYY-MM-DD. */
  invoice_date: z.string(),
  invoice_number: z.string(),
  description: z.string(),
  taxable: z.number(),
  vat: z.number(),
  relevant_invoice_number: z.string().nullable(),
  relevant_invoice_date: z.string().nullable(),
  kind: z.enum(TAX_INVOICE_KIND_NAMES),
  status: z.enum(TAX_INVOICE_STATUS_NAMES),
  /** The day whose month the line belongs to (decision 068: the payment's M-Pesa time, else the document's). */
  tax_point: z.string(),
  invoice_id: z.number(),
});
export type VatReturnLine = z.infer<typeof VatReturnLine>;

export const VAT_RETURN_FORMATS = ['json', 'csv', 'xlsx'] as const;

export const vatReturn = endpoint({
  method: 'GET',
  path: '/api/tax/returns/vat',
  tag: 'tax',
  summary: "A month's VAT return: the sales schedule in KRA's column order and its summary per rate (format=csv or xlsx: the file to upload)",
  access: 'manage:tax',
  query: PageQuery.extend({ month: Month, format: z.enum(VAT_RETURN_FORMATS).default('json') }),
  response: z.object({
    month: z.string(),
    /** Set when the month is closed (decision 075): its summary is the one kept at the close. */
    closed: BooksClosed.nullable(),
    summary: z.array(VatReturnSummaryRow),
    lines: z.array(VatReturnLine),
    total_lines: z.number(),
  }),
});

export const TRANSMISSION_STATUSES = ['queued', 'retrying', 'rejected'] as const;

/** A document KRA has not accepted yet: queued (never tried), retrying (KRA unreachable), rejected. */
export const Transmission = z.object({
  invoice_id: z.number(),
  kind: z.enum(TAX_INVOICE_KIND_NAMES),
  number: z.number(),
  status: z.enum(TRANSMISSION_STATUSES),
  amount: z.number(),
  time: z.string(),
  age_hours: z.number(),
  attempts: z.number(),
  /** KRA's code and message (rejected), or why the last send failed (retrying). */
  reason: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
});
export type Transmission = z.infer<typeof Transmission>;

export const taxTransmissions = endpoint({
  method: 'GET',
  path: '/api/tax/transmissions',
  tag: 'tax',
  summary: 'Invoices and credit notes KRA has not accepted yet, oldest first, with their age and KRA’s reason',
  access: 'manage:tax',
  query: PageQuery.extend({ status: z.enum(TRANSMISSION_STATUSES).optional() }),
  response: z.object({
    transmissions: z.array(Transmission),
    total_records: z.number(),
    counts: z.object({ queued: z.number(), retrying: z.number(), rejected: z.number() }),
    /** Older than the setting tax_transmission_alert_hours (the dashboard's alert). */
    older_than_alert: z.number(),
    alert_hours: z.number(),
  }),
});

export const retryTaxInvoice = endpoint({
  method: 'POST',
  path: '/api/tax/invoices/:id/retry',
  tag: 'tax',
  summary: 'Send a document KRA has not accepted again now (idempotent: a queued one is only brought forward, an accepted one is left alone)',
  access: 'manage:tax',
  response: Notice.extend({ invoice: TaxInvoice }),
});

/** What a payment or subscription read carries about its invoice. */
export const InvoiceRef = z.object({
  /** The document's id: its printable page is /api/tax/invoices/:id/document (staff) or the portal's own. */
  id: z.number(),
  number: z.number(),
  status: z.enum(TAX_INVOICE_STATUS_NAMES),
  kra_receipt_number: z.number().nullable(),
  qr: z.string().nullable(),
});
export type InvoiceRef = z.infer<typeof InvoiceRef>;

export const taxTexts = {
  saved: 'Tax settings saved',
  initialised: 'Device initialised: invoicing is on',
  resent: 'Invoice queued again',
  retried: 'Sending to KRA now',
  alreadyAccepted: 'KRA already holds this document',
  retryWhileOff: 'Invoicing is off: initialise the eTIMS device first',
  transmissionAlert: (rejected: number, old: number, hours: number) =>
    [rejected > 0 ? `${rejected} rejected by KRA` : null, old > 0 ? `${old} not accepted after ${hours} h` : null].filter(Boolean).join(', '),
  notRejected: 'Only a rejected invoice can be resent',
  notConfigured: 'Save the KRA PIN, branch and device serial first',
  invoicingOff: 'Tax invoicing is off: sales are recorded as awaiting invoice until the eTIMS device is initialised',
  lateInvoices: (n: number) => `${n} tax invoice${n === 1 ? '' : 's'} not accepted by KRA within the allowed delay`,
} as const;

// ---- A buyer's KRA PIN (decision 074) ---------------------------------------------------------

/** KRA's PIN: A (a person) or P (a company), nine digits, a check letter. */
export const KRA_PIN_PATTERN = /^[AP]\d{9}[A-Z]$/;

export const buyerPinTexts = {
  pinFormat: 'Enter the KRA PIN as A or P, nine digits and a letter, e.g. P051234567X',
  nameNeeded: 'Enter the name registered with KRA for this PIN',
  saved: 'Tax identity saved',
  cleared: 'Tax identity removed',
  reissued: 'Invoice reissued with the buyer’s PIN: a credit note and a new invoice',
  alreadyReissued: 'This invoice was already reissued',
  noPin: 'The buyer has no KRA PIN recorded: record it first',
  notReissuable: 'Only a sale’s invoice can be reissued',
  hasPin: 'This invoice already carries the buyer’s PIN',
  unknownToKra: 'KRA does not know this PIN: check it with the buyer',
  reissueReason: 'Reissued with the buyer’s KRA PIN',
} as const;

/** `{ pin, name }`: an empty PIN clears the identity; a PIN needs its registered name. */
export const TaxIdentityForm = z
  .object({
    pin: z
      .string()
      .trim()
      .transform((v) => v.toUpperCase())
      .refine((v) => v === '' || KRA_PIN_PATTERN.test(v), buyerPinTexts.pinFormat),
    name: z.string().trim().max(200).default(''),
  })
  .superRefine((v, ctx) => {
    if (v.pin !== '' && v.name === '') ctx.addIssue({ code: 'custom', path: ['name'], message: buyerPinTexts.nameNeeded });
  });
export type TaxIdentityForm = z.infer<typeof TaxIdentityForm>;

export const TaxIdentity = z.object({
  pin: z.string(),
  name: z.string(),
  /** verified: KRA's customer lookup (selectCustomer) knew the PIN; unverified: KRA could not be asked. */
  verification: z.enum(['verified', 'unverified']),
  verified_name: z.string().nullable(),
  updated_at: z.string(),
});
export type TaxIdentity = z.infer<typeof TaxIdentity>;

/** A buyer's invoice or credit note, with its printable document's address. */
export const BuyerInvoice = z.object({
  id: z.number(),
  kind: z.enum(TAX_INVOICE_KIND_NAMES),
  number: z.number(),
  time: z.string(),
  amount: z.number(),
  status: z.enum(TAX_INVOICE_STATUS_NAMES),
  buyer_pin: z.string().nullable(),
  /** Reissued with the PIN: the new invoice's id. */
  reissued_as: z.number().nullable(),
  document_url: z.string(),
});
export type BuyerInvoice = z.infer<typeof BuyerInvoice>;

export const TaxIdentityView = z.object({ identity: TaxIdentity.nullable(), invoices: z.array(BuyerInvoice) });
export type TaxIdentityView = z.infer<typeof TaxIdentityView>;

export const clientTaxIdentity = endpoint({
  method: 'GET',
  path: '/api/clients/:id/tax-identity',
  tag: 'tax',
  summary: "A Bet4Me client's KRA PIN and registered name, and the client's invoices with their documents",
  access: 'manage:clients',
  response: TaxIdentityView,
});

export const saveClientTaxIdentity = endpoint({
  method: 'PUT',
  path: '/api/clients/:id/tax-identity',
  tag: 'tax',
  summary: "Record a Bet4Me client's KRA PIN and registered name (checked with KRA where it answers; an empty PIN clears it)",
  access: 'manage:clients',
  body: TaxIdentityForm,
  response: Notice.extend(TaxIdentityView.shape),
});

export const subscriberTaxIdentity = endpoint({
  method: 'GET',
  path: '/api/tips/subscribers/:id/tax-identity',
  tag: 'tax',
  summary: "A tips subscriber's KRA PIN and registered name, and the subscriber's invoices with their documents",
  access: 'manage:tips-subscribers',
  response: TaxIdentityView,
});

export const saveSubscriberTaxIdentity = endpoint({
  method: 'PUT',
  path: '/api/tips/subscribers/:id/tax-identity',
  tag: 'tax',
  summary: "Record a tips subscriber's KRA PIN and registered name (checked with KRA where it answers; an empty PIN clears it)",
  access: 'manage:tips-subscribers',
  body: TaxIdentityForm,
  response: Notice.extend(TaxIdentityView.shape),
});

export const reissueTaxInvoice = endpoint({
  method: 'POST',
  path: '/api/tax/invoices/:id/reissue',
  tag: 'tax',
  summary: "Reissue an invoice sent without the buyer's PIN: a credit note of it and a new invoice with the PIN (once; again returns the same)",
  access: 'manage:tax',
  response: Notice.extend({ credit_note_id: z.number(), invoice_id: z.number() }),
});

export const INVOICE_DOCUMENT_SIZES = ['a4', 'receipt'] as const;
/** How many days a link to an invoice sent by SMS opens it (decision 087). */
export const INVOICE_LINK_DAYS = 30;

export const invoiceLinkTexts = {
  sentTo: (maskedPhone: string) => `Invoice link sent by SMS to ${maskedPhone}`,
  alreadySent: 'A link to this invoice was already sent by SMS today; the SMS log shows how it went',
  noPhone: 'This invoice has no buyer’s phone to send a link to',
  erased: 'This buyer’s phone was erased: no SMS can go to it',
} as const;

export const sendTaxInvoiceLink = endpoint({
  method: 'POST',
  path: '/api/tax/invoices/:id/send-link',
  tag: 'tax',
  summary: `Text the buyer a link to the invoice or credit note as a PDF, valid for ${INVOICE_LINK_DAYS} days (once a day per document)`,
  access: 'manage:clients',
  response: Notice.extend({
    /** The outbox message; null when one was already sent today. */
    sms_id: z.number().nullable(),
    /** The buyer's phone, masked as the PDF prints it. */
    to: z.string(),
    already_sent: z.boolean(),
  }),
});


export const taxInvoiceDocument = endpoint({
  method: 'GET',
  path: '/api/tax/invoices/:id/document',
  tag: 'tax',
  summary: 'An invoice or credit note as a printable PDF (A4 or 80 mm receipt), in English or Kiswahili',
  access: 'manage:clients',
  query: z.object({
    format: z.enum(['pdf']).default('pdf'),
    size: z.enum(INVOICE_DOCUMENT_SIZES).default('a4'),
    lang: z.enum(['en', 'sw']).optional(),
  }),
  response: z.unknown(),
});
