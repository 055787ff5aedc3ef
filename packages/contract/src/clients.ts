import { z } from 'zod';
import { csvExport, endpoint } from './endpoint.ts';
import { Id, Kes, Notice, PageQuery } from './common.ts';
import { KenyanPhone } from './phone.ts';
import { InvoiceRef } from './tax.ts';
import { ListCounts, listFilterQuery, listQuery } from './lists.ts';
import { CustomerLanguage } from './tips-subscribers.ts';

/** The most a single amount typed by staff may be (KES): far above any real stake or payment. */
export const MAX_KES_AMOUNT = 10_000_000;

/**
 * A KES amount typed into a form: a number (or numeric text) with at most two decimals, no larger
 * than MAX_KES_AMOUNT. `what` names it in the messages ("The stake ...").
 */
export function kesInput(what: string) {
  return z.preprocess(
    // Blank text is "not given", never 0: an empty profit must not close a bet.
    (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : Number(v.trim())) : v),
    z
      .number({
        error: (issue) => (issue.input == null ? `${what} is required` : `${what} must be a number`),
      })
      .refine((n) => Math.abs(n) <= MAX_KES_AMOUNT, `${what} may not be more than KES ${MAX_KES_AMOUNT.toLocaleString('en-KE')}`)
      .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, `${what} may have at most two decimals`),
  );
}

/** A Bet4Me client as the spec's screens read it (section 3, Client). Money in KES. */
export const Client = z.object({
  id: z.number(),
  name: z.string(),
  phone: z.string(),
  email: z.string().nullable(),
  photo: z.string().nullable(),
  joined_on: z.string(),
  maximum_stake: Kes.nullable(),
  total_subscriptions: z.number(),
  total_bets: z.number(),
  total_bonuses: z.number(),
  /** 1 while a Bet4Me subscription runs, else 0. */
  status: z.number(),
  pending_bonus: Kes,
  paid_bonus: Kes,
  total_bonus: Kes,
  account_balance: Kes,
  last_login: z.string().nullable(),
});
export type Client = z.infer<typeof Client>;

/** A client's betting-platform password (revealed: every read is audited). */
export const PlatformPassword = z.object({ id: z.number(), platform: z.string(), password: z.string() });
export type PlatformPassword = z.infer<typeof PlatformPassword>;

/** A Bet4Me subscription row (section 3, Subscription): status_id 1 green (running), 0 red. */
export const Bet4meSubscription = z.object({
  id: z.number(),
  amount: Kes,
  /** Days bought. */
  duration: z.number(),
  done_on: z.string(),
  expiry_date: z.string(),
  /** Section 3 names it both `status` and `status_id`: the same 1 (green) or 0 (red). */
  status: z.union([z.literal(1), z.literal(0)]),
  status_id: z.number(),
  status_name: z.string(),
  client_id: z.number(),
  name: z.string(),
  phone: z.string(),
  /** The sale's KRA tax invoice (lists only; none for a staff grant or before invoicing was on). */
  invoice: InvoiceRef.nullable().optional(),
});
export type Bet4meSubscription = z.infer<typeof Bet4meSubscription>;

/** A bet (section 3, Bet), with what was bet on. */
export const Bet = z.object({
  bet_id: z.number(),
  stake: Kes,
  profit: Kes.nullable(),
  bonus: Kes.nullable(),
  description: z.string(),
  opened_on: z.string(),
  /** When the profit was entered; null while open. */
  closed_on: z.string().nullable(),
  status: z.enum(['open', 'closed']),
  client_id: z.number(),
  name: z.string(),
  phone: z.string(),
  photo: z.string().nullable(),
});
export type Bet = z.infer<typeof Bet>;

/** A bonus earned on a winning bet (section 3, Bonus) and whose it is. */
export const Bonus = z.object({
  bonus_id: z.number(),
  bet_id: z.number(),
  stake: Kes,
  profit: Kes,
  bonus: Kes,
  earned_on: z.string(),
  pending_bonus: Kes,
  client_id: z.number(),
  name: z.string(),
  phone: z.string(),
});
export type Bonus = z.infer<typeof Bonus>;

/** Money received against a client's bonuses (section 3, Bonus payment). */
export const BonusPayment = z.object({
  id: z.number(),
  amount: Kes,
  paid_on: z.string(),
  description: z.string(),
  client_id: z.number(),
  name: z.string(),
  phone: z.string(),
});
export type BonusPayment = z.infer<typeof BonusPayment>;

export const ClientQuery = z.object({ client_id: Id });
export const ClientPageQuery = PageQuery.extend({ client_id: Id });

export const activeClients = endpoint({
  method: 'GET',
  path: '/api/clients/active',
  tag: 'clients',
  summary: 'Clients with a running Bet4Me subscription (staff: their own), by name, paged and searchable, with totals',
  access: 'manage:clients',
  query: listQuery('activeClients'),
  response: ListCounts.extend({ total_active_clients: z.number(), total_clients: z.number(), active_clients: z.array(Client) }),
});

const ClientPage = ListCounts.extend({ total_active_clients: z.number(), clients: z.array(Client) });

export const listClients = endpoint({
  method: 'GET',
  path: '/api/clients',
  tag: 'clients',
  summary: 'All clients (staff: their own), newest first, paged',
  access: 'manage:clients',
  query: listQuery('clients'),
  response: ClientPage,
});

export const searchClients = endpoint({
  method: 'GET',
  path: '/api/clients/search',
  tag: 'clients',
  summary: 'Clients whose name or phone contains the search text, paged',
  access: 'manage:clients',
  query: listQuery('clients'),
  response: ClientPage,
});

export const showClient = endpoint({
  method: 'GET',
  path: '/api/clients/show',
  tag: 'clients',
  summary: "A client's profile and betting-platform passwords (each reveal is audited)",
  access: 'manage:clients',
  query: ClientQuery,
  /** `language`: what every message to the client's phone is written in (its choice, else the business default). */
  response: z.object({ client: Client.extend({ language: CustomerLanguage }), passwords: z.array(PlatformPassword) }),
});

export const ClientLanguageForm = z.object({ client_id: Id, language: CustomerLanguage });
export type ClientLanguageForm = z.input<typeof ClientLanguageForm>;

export const setClientLanguage = endpoint({
  method: 'POST',
  path: '/api/clients/language',
  tag: 'clients',
  summary: "Set the language of a client's phone (what the client asked for by phone or in person); audited (staff: their own clients)",
  access: 'manage:clients',
  body: ClientLanguageForm,
  response: Notice,
});

export const clientSubscriptions = endpoint({
  method: 'GET',
  path: '/api/clients/subscriptions',
  tag: 'clients',
  summary: "A client's Bet4Me subscriptions, newest first, paged",
  access: 'manage:clients',
  query: ClientPageQuery,
  response: z.object({ total_records: z.number(), list: z.array(Bet4meSubscription), client: Client }),
});

export const clientBets = endpoint({
  method: 'GET',
  path: '/api/clients/bets',
  tag: 'clients',
  summary: "A client's bets, newest first, paged; `status=open` for the ones still waiting for their profit",
  access: 'manage:clients',
  query: ClientPageQuery.extend({ status: z.enum(['open', 'closed'], { message: 'The status must be open or closed' }).optional() }),
  response: z.object({ total_records: z.number(), list: z.array(Bet), client: Client }),
});

export const clientBonuses = endpoint({
  method: 'GET',
  path: '/api/clients/bonuses',
  tag: 'clients',
  summary: "A client's bonuses, newest first, paged",
  access: 'manage:clients',
  query: ClientPageQuery,
  response: z.object({ total_records: z.number(), list: z.array(Bonus), client: Client }),
});

export const clientPaidBonuses = endpoint({
  method: 'GET',
  path: '/api/clients/paid-bonuses',
  tag: 'clients',
  summary: "A client's bonus payments, newest first, paged",
  access: 'manage:clients',
  query: ClientPageQuery,
  response: z.object({ total_records: z.number(), list: z.array(BonusPayment), client: Client }),
});

export const PLATFORM_NAME_MAX = 60;

/** The admin's "New client" / "Edit client" form (beyond the spec: the only way clients get in). */
export const ClientForm = z.object({
  /** Absent or null: a new client. */
  client_id: Id.nullable().optional(),
  name: z.string({ message: 'The name is required' }).trim().min(2, 'The name is required').max(120, 'The name may not be longer than 120 characters'),
  phone: KenyanPhone,
  email: z
    .union([z.literal(''), z.null(), z.email('Enter a valid email address').max(254)])
    .optional()
    .transform((e) => (e ? e.toLowerCase() : null)),
  /** Empty or null: no limit. */
  maximum_stake: z
    .union([z.literal(''), z.null(), kesInput('The maximum stake').refine((n) => n > 0, 'The maximum stake must be more than 0')])
    .optional()
    .transform((v) => (v === '' || v === undefined ? null : v)),
  /** The full list: platforms left out are removed. */
  passwords: z
    .array(
      z.object({
        platform: z.string({ message: 'The platform is required' }).trim().min(1, 'The platform is required').max(PLATFORM_NAME_MAX),
        password: z.string({ message: 'The password is required' }).min(1, 'The password is required').max(200),
      }),
    )
    .max(20)
    .default([])
    .refine(
      (list) => new Set(list.map((p) => p.platform.toLowerCase())).size === list.length,
      'Each platform may appear once',
    ),
});
export type ClientForm = z.input<typeof ClientForm>;

export const storeClient = endpoint({
  method: 'POST',
  path: '/api/clients/store',
  tag: 'clients',
  summary: 'Create a client (no client_id) or update one, with their platform passwords (admin)',
  access: 'create:clients',
  body: ClientForm,
  response: Notice.extend({ client_id: z.number() }),
});

export const clientTexts = {
  created: 'Client created successfully',
  updated: 'Client updated successfully',
  phoneTaken: 'Another client already has this phone number',
} as const;

const SearchOnly = z.object({ search: z.string().trim().max(100).default('') });

export const exportClients = csvExport({
  path: '/api/clients/export',
  tag: 'clients',
  summary: 'CSV of all clients (staff: their own), filtered by the search text, in the list\'s order',
  access: 'manage:clients',
  query: listFilterQuery('clients'),
});

export const exportActiveClients = csvExport({
  path: '/api/clients/active/export',
  tag: 'clients',
  summary: 'CSV of the active clients, filtered by the search text',
  access: 'manage:clients',
  query: listFilterQuery('activeClients'),
});

export const exportClientSubscriptions = csvExport({
  path: '/api/clients/subscriptions/export',
  tag: 'clients',
  summary: "CSV of a client's subscriptions",
  access: 'manage:clients',
  query: ClientQuery,
});

export const exportClientBets = csvExport({
  path: '/api/clients/bets/export',
  tag: 'clients',
  summary: "CSV of a client's bets",
  access: 'manage:clients',
  query: ClientQuery,
});

export const exportClientBonuses = csvExport({
  path: '/api/clients/bonuses/export',
  tag: 'clients',
  summary: "CSV of a client's bonuses",
  access: 'manage:clients',
  query: ClientQuery,
});

export const exportClientPaidBonuses = csvExport({
  path: '/api/clients/paid-bonuses/export',
  tag: 'clients',
  summary: "CSV of a client's bonus payments",
  access: 'manage:clients',
  query: ClientQuery,
});

export { SearchOnly };
