import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, boolean } from 'drizzle-orm/pg-core';
import { users } from './users.ts';
import { sealedText } from './sealed.ts';

/** Bet4Me clients: people who pay for staff to place bets on their own betting accounts. */
export const clients = pgTable(
  'clients',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    /** E.164 digits, e.g. 254712345678. */
    phone: text('phone').notNull(),
    phoneHash: text('phone_hash').notNull(),
    email: text('email'),
    photo: text('photo'),
    /** Null: no limit. */
    maximumStakeCents: bigint('maximum_stake_cents', { mode: 'number' }),
    /** Last sign-in of the client on the business's website, when known. */
    lastLogin: timestamp('last_login', { withTimezone: true }),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** The staff member looking after the client (client_assignments), kept by trigger: the scope's owner column. */
    assignedUserId: integer('assigned_user_id'),
    /** When the client's latest Bet4Me subscription expires (active while in the future), kept by trigger. */
    runningUntil: timestamp('running_until', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('clients_phone_live_key').on(t.phone).where(sql`${t.deletedAt} is null`),
    index('clients_phone_hash_idx').on(t.phoneHash),
    index('clients_name_trgm_idx').using('gin', sql`${t.name} gin_trgm_ops`),
    index('clients_phone_trgm_idx').using('gin', sql`${t.phone} gin_trgm_ops`),
    // A staff member's search by name or phone: the owner and the trigrams meet inside the index
    // (btree_gin), so the other staff members' matches are never read (decision 045).
    index('clients_owner_name_phone_trgm_idx').using('gin', t.assignedUserId, sql`${t.name} gin_trgm_ops`, sql`${t.phone} gin_trgm_ops`),
    index('clients_created_at_idx').on(t.createdAt),
    index('clients_live_created_idx').on(t.createdAt, t.id).where(sql`${t.deletedAt} is null`),
    index('clients_live_name_idx').on(t.name, t.id).where(sql`${t.deletedAt} is null`),
    // The few trashed clients, so that counting active clients can leave them out without a scan.
    index('clients_deleted_idx').on(t.id).where(sql`${t.deletedAt} is not null`),
    // Active clients by name, and counted, read off the index (running_until is tested in it).
    index('clients_live_name_running_idx').on(t.name, t.id, t.runningUntil).where(sql`${t.deletedAt} is null`),
    index('clients_live_running_idx').on(t.runningUntil).where(sql`${t.deletedAt} is null`),
    // A staff member's clients, walked in each list's order off the owner's part of the index.
    index('clients_owner_created_idx').on(t.assignedUserId, t.createdAt, t.id).where(sql`${t.deletedAt} is null`),
    index('clients_owner_name_idx').on(t.assignedUserId, t.name, t.id, t.runningUntil).where(sql`${t.deletedAt} is null`),
    index('clients_owner_running_idx').on(t.assignedUserId, t.runningUntil).where(sql`${t.deletedAt} is null`),
  ],
);

/** Which staff user looks after a client: one at most. */
export const clientAssignments = pgTable(
  'client_assignments',
  {
    clientId: integer('client_id')
      .primaryKey()
      .references(() => clients.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    assignedBy: integer('assigned_by').references(() => users.id),
    assignedAt: timestamp('assigned_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // (user, client): a staff member's clients read off the index alone (every staff list's scope).
  (t) => [index('client_assignments_user_idx').on(t.userId, t.clientId)],
);

/** A client's betting-platform password, sealed with SECRETS_KEY (AES-256-GCM). */
export const clientPlatformPasswords = pgTable(
  'client_platform_passwords',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    platform: text('platform').notNull(),
    passwordSealed: sealedText('password_sealed').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('client_platform_passwords_key').on(t.clientId, t.platform)],
);

/** Bet4Me plans: what a client's subscription buys (e.g. Weekly 7 days, Monthly 30 days). */
export const bet4mePlans = pgTable('bet4me_plans', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  durationDays: integer('duration_days').notNull(),
  priceCents: bigint('price_cents', { mode: 'number' }).notNull(),
  active: boolean('active').notNull().default(true),
});

export const BET_STATUSES = ['open', 'closed'] as const;

export const bets = pgTable(
  'bets',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    stakeCents: bigint('stake_cents', { mode: 'number' }).notNull(),
    description: text('description').notNull(),
    /** Entered once; closes the bet. Negative for a loss, down to -stake. */
    profitCents: bigint('profit_cents', { mode: 'number' }),
    status: text('status', { enum: BET_STATUSES }).notNull().default('open'),
    openedBy: integer('opened_by').references(() => users.id),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
    closedBy: integer('closed_by').references(() => users.id),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /** The client's staff member (clients.assigned_user_id), kept by trigger: the scope's owner column. */
    assignedUserId: integer('assigned_user_id'),
  },
  (t) => [
    index('bets_client_idx').on(t.clientId, t.openedAt),
    index('bets_status_opened_idx').on(t.status, t.openedAt),
    index('bets_status_closed_idx').on(t.status, t.closedAt),
    // The bets search looks inside what was bet on; a staff member's within their own bets, the owner
    // and the trigrams meeting inside the index (btree_gin; an admin's search uses the trigrams alone).
    index('bets_owner_description_trgm_idx').using('gin', t.assignedUserId, sql`${t.description} gin_trgm_ops`),
    // Open and closed bets page off these, by each sortable column, newest first by default.
    index('bets_open_opened_idx').on(t.openedAt, t.id).where(sql`${t.status} = 'open'`),
    index('bets_open_stake_idx').on(t.stakeCents, t.id).where(sql`${t.status} = 'open'`),
    index('bets_closed_closed_idx').on(t.closedAt, t.id).where(sql`${t.status} = 'closed'`),
    index('bets_closed_opened_idx').on(t.openedAt, t.id).where(sql`${t.status} = 'closed'`),
    index('bets_closed_stake_idx').on(t.stakeCents, t.id).where(sql`${t.status} = 'closed'`),
    index('bets_closed_profit_idx').on(t.profitCents, t.id).where(sql`${t.status} = 'closed'`),
    // A search counts the matching clients' closed bets client by client, off the index alone (the
    // owner in it for a staff member's: no visit of the table's pages).
    index('bets_closed_client_idx').on(t.clientId, t.closedAt, t.assignedUserId).where(sql`${t.status} = 'closed'`),
    // A staff member's open and closed bets, newest first, off the owner's part of the index.
    index('bets_owner_open_opened_idx').on(t.assignedUserId, t.openedAt, t.id).where(sql`${t.status} = 'open'`),
    index('bets_owner_closed_closed_idx').on(t.assignedUserId, t.closedAt, t.id).where(sql`${t.status} = 'closed'`),
    // ... and by each other sort of the lists (decision 031): an owner with few rows is never found
    // by walking the whole table's sort index.
    index('bets_owner_open_stake_idx').on(t.assignedUserId, t.stakeCents, t.id).where(sql`${t.status} = 'open'`),
    index('bets_owner_closed_opened_idx').on(t.assignedUserId, t.openedAt, t.id).where(sql`${t.status} = 'closed'`),
    index('bets_owner_closed_stake_idx').on(t.assignedUserId, t.stakeCents, t.id).where(sql`${t.status} = 'closed'`),
    index('bets_owner_closed_profit_idx').on(t.assignedUserId, t.profitCents, t.id).where(sql`${t.status} = 'closed'`),
  ],
);

/** What a client owes on a winning bet: round(max(profit, 0) x bonus_rate). Pending until allocated. */
export const bonuses = pgTable(
  'bonuses',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    betId: bigint('bet_id', { mode: 'number' })
      .notNull()
      .unique()
      .references(() => bets.id),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    ratePercent: integer('rate_percent').notNull(),
    earnedAt: timestamp('earned_at', { withTimezone: true }).notNull().defaultNow(),
    /** Sum of its allocations, kept by a trigger on bonus_allocations: unpaid is amount - paid. */
    paidCents: bigint('paid_cents', { mode: 'number' }).notNull().default(0),
    /** The client's staff member, kept by trigger: the scope's owner column. */
    assignedUserId: integer('assigned_user_id'),
  },
  (t) => [
    index('bonuses_client_idx').on(t.clientId, t.earnedAt),
    index('bonuses_earned_idx').on(t.earnedAt),
    index('bonuses_earned_id_idx').on(t.earnedAt, t.id),
    index('bonuses_amount_idx').on(t.amountCents, t.id),
    index('bonuses_unpaid_earned_idx').on(t.earnedAt, t.id).where(sql`${t.paidCents} < ${t.amountCents}`),
    index('bonuses_unpaid_amount_idx').on(t.amountCents, t.id).where(sql`${t.paidCents} < ${t.amountCents}`),
    // A staff member's unpaid bonuses counted client by client (the dashboard), off the index alone.
    index('bonuses_unpaid_client_idx').on(t.clientId).where(sql`${t.paidCents} < ${t.amountCents}`),
    index('bonuses_owner_earned_idx').on(t.assignedUserId, t.earnedAt, t.id),
    index('bonuses_owner_unpaid_earned_idx').on(t.assignedUserId, t.earnedAt, t.id).where(sql`${t.paidCents} < ${t.amountCents}`),
    index('bonuses_owner_amount_idx').on(t.assignedUserId, t.amountCents, t.id),
    index('bonuses_owner_unpaid_amount_idx').on(t.assignedUserId, t.amountCents, t.id).where(sql`${t.paidCents} < ${t.amountCents}`),
  ],
);

export const BONUS_PAYMENT_SOURCES = ['manual', 'mpesa', 'balance'] as const;

/** Money received against bonuses; spread over pending bonuses oldest first (allocations). */
export const bonusPayments = pgTable(
  'bonus_payments',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    description: text('description').notNull(),
    source: text('source', { enum: BONUS_PAYMENT_SOURCES }).notNull(),
    paymentId: bigint('payment_id', { mode: 'number' }),
    recordedBy: integer('recorded_by').references(() => users.id),
    paidAt: timestamp('paid_at', { withTimezone: true }).notNull().defaultNow(),
    /** The client's staff member, kept by trigger: the scope's owner column. */
    assignedUserId: integer('assigned_user_id'),
  },
  (t) => [
    index('bonus_payments_owner_paid_idx').on(t.assignedUserId, t.paidAt, t.id),
    index('bonus_payments_owner_amount_idx').on(t.assignedUserId, t.amountCents, t.id),
    index('bonus_payments_client_idx').on(t.clientId, t.paidAt),
    index('bonus_payments_paid_idx').on(t.paidAt),
    // The income-by-source report reads the bonus payments recorded by hand.
    index('bonus_payments_manual_paid_idx').on(t.paidAt).where(sql`${t.source} = 'manual'`),
    index('bonus_payments_paid_id_idx').on(t.paidAt, t.id),
    index('bonus_payments_amount_idx').on(t.amountCents, t.id),
  ],
);

export const bonusAllocations = pgTable(
  'bonus_allocations',
  {
    bonusPaymentId: bigint('bonus_payment_id', { mode: 'number' })
      .notNull()
      .references(() => bonusPayments.id),
    bonusId: bigint('bonus_id', { mode: 'number' })
      .notNull()
      .references(() => bonuses.id),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.bonusPaymentId, t.bonusId] }), index('bonus_allocations_bonus_idx').on(t.bonusId)],
);
