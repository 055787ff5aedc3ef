import {
  bonusTexts,
  centsToKes,
  formatCents,
  kesToCents,
  type Bonus,
  type BonusPayment,
  type BonusPaymentForm,
  type SortOf,
} from '@betdesk/contract';
import type { BONUS_PAYMENT_SOURCES } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import { audit } from '../audit/service.ts';
import { postLedgerEntry } from '../ledger/service.ts';
import { creditReversedBonusPayments, queueBonusInvoice } from '../tax/service.ts';
import type { AppDeps } from '../../deps.ts';
import type { Actor, StaffFormAction } from '../../http/actor.ts';
import { csvDateTime, csvPhone, queryBatches, type CsvTable } from '../../http/csv.ts';
import { countCapOf, dayRangeOf, pageOf, rowsAndCount, type ListCount, type ListRequest, type Page } from '../../db/list.ts';
import type { DayRange } from '../../db/summaries.ts';
import { fieldError } from '../../http/errors.ts';
import { clientRowsWhere, scopeOf, scopedWhere, type ScopedWhere } from '../../db/scope.ts';
import { requireClientFacts } from '../clients/service.ts';
import * as bonusQueries from './queries.ts';

export interface BonusSettlement {
  clientId: number;
  /** The most that may be paid; less is paid when less is pending. */
  amountCents: number;
  source: (typeof BONUS_PAYMENT_SOURCES)[number];
  description: string;
  /** The M-Pesa payment it came from (source mpesa). */
  paymentId?: number | null;
  actorUserId: number | null;
  requestId?: string | null;
}

/** Pending (unpaid) bonus of a client in cents (the definition: db/money.ts). */
export function pendingBonusCents(db: Queryable, clientId: number): Promise<number> {
  return bonusQueries.pendingBonusOfClient(db, clientId);
}

/**
 * Pays a client's pending bonuses oldest first, up to `amountCents`, in one bonus payment with an
 * allocation per bonus it touches. Money that came through the client's account (`mpesa`,
 * `balance`) is debited from their ledger. Returns what was paid (0 when nothing was pending).
 */
export async function payPendingBonuses(
  tx: Queryable,
  s: BonusSettlement,
): Promise<{ paidCents: number; bonusPaymentId: number | null }> {
  const open = await bonusQueries.lockBonusesOldestFirst(tx, s.clientId);
  let left = s.amountCents;
  const allocations: { bonusId: number; amountCents: number }[] = [];
  for (const bonus of open) {
    const remaining = Number(bonus.remaining);
    if (left <= 0) break;
    if (remaining <= 0) continue;
    const take = Math.min(left, remaining);
    allocations.push({ bonusId: Number(bonus.id), amountCents: take });
    left -= take;
  }
  const paidCents = s.amountCents - left;
  if (paidCents === 0) return { paidCents: 0, bonusPaymentId: null };

  const bonusPaymentId = await bonusQueries.insertBonusPayment(tx, {
    clientId: s.clientId,
    amountCents: paidCents,
    description: s.description,
    source: s.source,
    paymentId: s.paymentId ?? null,
    recordedBy: s.actorUserId,
  });
  await bonusQueries.insertAllocations(tx, bonusPaymentId, allocations);
  // Income when the accountant says so (setting tax_invoice_bonus_payments): invoiced like a sale.
  await queueBonusInvoice(tx, { bonusPaymentId, paymentId: s.paymentId ?? null, amountCents: paidCents, createdBy: s.actorUserId });
  if (s.source !== 'manual') {
    await postLedgerEntry(tx, {
      holder: { clientId: s.clientId },
      amountCents: -paidCents,
      kind: 'bonus_payment',
      bonusPaymentId,
      paymentId: s.paymentId ?? null,
      createdBy: s.actorUserId,
    });
  }
  await audit(tx, 'bonus.pay', s.clientId, s, { after: { bonus_payment_id: bonusPaymentId, amount_cents: paidCents, source: s.source, allocations } });
  return { paidCents, bonusPaymentId };
}

/**
 * Undoes what an M-Pesa payment paid towards bonuses (its claim was wrong): one reversing bonus
 * payment with negative allocations, so the bonuses are pending again, and a compensating ledger
 * credit. Nothing is deleted. Returns the amount reversed.
 */
export async function reverseBonusPaymentsOfPayment(
  tx: Queryable,
  r: { paymentId: number; actorUserId: number | null; requestId?: string | null; description: string },
): Promise<number> {
  const paid = await bonusQueries.bonusesStillPaidByPayment(tx, r.paymentId);
  if (paid.length === 0) return 0;
  const clientId = paid[0]!.clientId;
  const total = paid.reduce((sum, p) => sum + p.amountCents, 0);
  const reversalId = await bonusQueries.insertBonusPayment(tx, {
    clientId,
    amountCents: -total,
    description: r.description,
    source: 'mpesa',
    paymentId: r.paymentId,
    recordedBy: r.actorUserId,
  });
  await bonusQueries.insertAllocations(
    tx,
    reversalId,
    paid.map((p) => ({ bonusId: p.bonusId, amountCents: -p.amountCents })),
  );
  await creditReversedBonusPayments(tx, { paymentId: r.paymentId, reason: r.description, createdBy: r.actorUserId });
  await postLedgerEntry(tx, {
    holder: { clientId },
    amountCents: total,
    kind: 'adjustment',
    bonusPaymentId: reversalId,
    paymentId: r.paymentId,
    note: r.description,
    createdBy: r.actorUserId,
  });
  await audit(tx, 'bonus.reverse', clientId, r, { after: { bonus_payment_id: reversalId, amount_cents: -total, payment_id: r.paymentId } });
  return total;
}

// ---- Bonus History screens ------------------------------------------------------------------

type BonusQuery = ListRequest<SortOf<'bonuses'>>;
type BonusFilter = Omit<BonusQuery, 'page' | 'perPage'>;
type PaymentQuery = ListRequest<SortOf<'paidBonuses'>>;
type PaymentFilter = Omit<PaymentQuery, 'page' | 'perPage'>;

const bonusWhere = (actor: Actor, f: BonusFilter & { unpaidOnly?: boolean }): ScopedWhere =>
  bonusQueries.bonusesListWhere(scopeOf(actor), f);

const paymentWhere = (actor: Actor, f: PaymentFilter): ScopedWhere => bonusQueries.bonusPaymentsListWhere(scopeOf(actor), f);

const unsearchedAdmin = (actor: Actor, f: { search?: string | undefined }) => actor.role === 'admin' && !f.search?.trim();

/** Totals boxes: admins only, over the bonuses earned in the list's days. */
async function adminTotals(db: Queryable, actor: Actor, earnedIn: DayRange = {}) {
  if (actor.role !== 'admin') return {};
  const t = await bonusQueries.bonusTotals(db, earnedIn);
  return { total_bonus: centsToKes(t.totalCents), paid_bonus: centsToKes(t.paidCents), pending_bonus: centsToKes(t.pendingCents) };
}

/**
 * Totals boxes of the bonus payments screen. With days chosen they follow them as the rows do:
 * paid is what was paid in those days (the rows' sum when nothing is searched), total and unpaid
 * are over the bonuses earned in those days. Without days, all time.
 */
async function paymentScreenTotals(db: Queryable, actor: Actor, range: DayRange) {
  if (!range.from && !range.to) return adminTotals(db, actor);
  if (actor.role !== 'admin') return {};
  const [earned, paid] = await Promise.all([bonusQueries.bonusTotals(db, range), bonusQueries.bonusPaymentTotals(db, range)]);
  return { total_bonus: centsToKes(earned.totalCents), paid_bonus: centsToKes(paid.amount_cents), pending_bonus: centsToKes(earned.pendingCents) };
}

/** One page of the bonuses or bonus payments screen: its rows, its count and its totals boxes. */
async function screenPage<Row, Totals extends object>(rows: Promise<Row[]>, counted: Promise<ListCount>, totals: Promise<Totals>) {
  const [list, count, boxes] = await Promise.all([rows, counted, totals]);
  return { ...boxes, ...count, bonuses: list };
}

export async function bonusesPage(deps: AppDeps, actor: Actor, which: 'all' | 'unpaid', query: BonusQuery) {
  const where = bonusWhere(actor, { ...query, unpaidOnly: which === 'unpaid' });
  const order = bonusQueries.bonusesOrder(query);
  const range = dayRangeOf(query);
  const counted: Promise<ListCount> = unsearchedAdmin(actor, query)
    ? bonusQueries.bonusTotals(deps.db, range).then((t) => ({ total_records: which === 'unpaid' ? t.unpaid : t.bonuses }))
    : bonusQueries.countBonuses(deps.db, where, countCapOf(query));
  return screenPage(bonusQueries.findBonuses(deps.db, where, order, pageOf(query)), counted, adminTotals(deps.db, actor, range));
}

export async function bonusPaymentsPage(deps: AppDeps, actor: Actor, query: PaymentQuery) {
  const where = paymentWhere(actor, query);
  const order = bonusQueries.bonusPaymentsOrder(query);
  const range = dayRangeOf(query);
  const counted: Promise<ListCount> = unsearchedAdmin(actor, query)
    ? bonusQueries.bonusPaymentTotals(deps.db, range).then((t) => ({ total_records: t.n }))
    : bonusQueries.countBonusPayments(deps.db, where, countCapOf(query));
  return screenPage(bonusQueries.findBonusPayments(deps.db, where, order, pageOf(query)), counted, paymentScreenTotals(deps.db, actor, range));
}

/** How many bonuses still have something unpaid, among the clients the actor sees (dashboard). */
export async function countUnpaidBonuses(db: Queryable, actor: Actor): Promise<number> {
  if (actor.role === 'admin') return (await bonusQueries.bonusTotals(db)).unpaid;
  return bonusQueries.countUnpaidBonusesOf(db, scopedWhere(scopeOf(actor), 'bo'));
}

/** A client's bonuses and bonus payments (the client page's sub-lists); scope checked by the caller. */
export async function bonusesOfClient(db: Queryable, actor: Actor, clientId: number, page: Page | null) {
  const where = clientRowsWhere('bo', clientId);
  return rowsAndCount(page, bonusQueries.findBonuses(db, where, bonusQueries.newestBonusesFirst, page), () => bonusQueries.countBonusesExactly(db, where));
}

export async function bonusPaymentsOfClient(db: Queryable, actor: Actor, clientId: number, page: Page | null) {
  const where = clientRowsWhere('p', clientId);
  return rowsAndCount(page, bonusQueries.findBonusPayments(db, where, bonusQueries.newestPaymentsFirst, page), () => bonusQueries.countBonusPaymentsExactly(db, where));
}

/**
 * An admin records a bonus payment (cash, bank ...): it settles the client's pending bonuses oldest
 * first; more than is pending is refused on `amount`.
 */
export const recordBonusPayment: StaffFormAction<typeof BonusPaymentForm> = async (deps, actor, input, requestId) => {
  await deps.db.transaction(async (tx) => {
    await requireClientFacts(tx, actor, input.client_id);
    const amountCents = kesToCents(input.amount);
    const pending = await pendingBonusCents(tx, input.client_id);
    if (pending === 0) throw fieldError('amount', bonusTexts.nothingPending);
    if (amountCents > pending) throw fieldError('amount', bonusTexts.abovePending(formatCents(pending)));
    await payPendingBonuses(tx, {
      clientId: input.client_id,
      amountCents,
      source: 'manual',
      description: input.description,
      actorUserId: actor.userId,
      requestId,
    });
  });
  return { info: bonusTexts.paymentRecorded };
};


const bonusColumns: CsvTable<Bonus>['columns'] = [
  { header: 'Name', value: (b) => b.name },
  { header: 'Phone', value: (b) => csvPhone(b.phone) },
  { header: 'Stake (KES)', value: (b) => b.stake },
  { header: 'Profit (KES)', value: (b) => b.profit },
  { header: 'Bonus (KES)', value: (b) => b.bonus },
  { header: 'Pending Bonus (KES)', value: (b) => b.pending_bonus },
  { header: 'Earned On', value: (b) => csvDateTime(b.earned_on) },
];

const paymentColumns: CsvTable<BonusPayment>['columns'] = [
  { header: 'Name', value: (p) => p.name },
  { header: 'Phone', value: (p) => csvPhone(p.phone) },
  { header: 'Amount (KES)', value: (p) => p.amount },
  { header: 'Paid On', value: (p) => csvDateTime(p.paid_on) },
  { header: 'Description', value: (p) => p.description },
];

export function bonusesCsv(
  deps: AppDeps,
  actor: Actor,
  filter: ({ which: 'all' | 'unpaid' } & BonusFilter) | { clientId: number },
): CsvTable<Bonus> {
  const where =
    'clientId' in filter
      ? clientRowsWhere('bo', filter.clientId)
      : bonusWhere(actor, { ...filter, unpaidOnly: filter.which === 'unpaid' });
  const order = 'which' in filter ? bonusQueries.bonusesOrder(filter) : bonusQueries.newestBonusesFirst;
  return {
    filename: 'clientId' in filter ? 'client-bonuses' : filter.which === 'all' ? 'bonuses' : 'unpaid-bonuses',
    columns: bonusColumns,
    rows: queryBatches(deps.database, bonusQueries.bonusesExportQuery(where, order), bonusQueries.toBonus),
  };
}

export function bonusPaymentsCsv(deps: AppDeps, actor: Actor, filter: PaymentFilter & { clientId?: number }): CsvTable<BonusPayment> {
  const where = filter.clientId === undefined ? paymentWhere(actor, filter) : clientRowsWhere('p', filter.clientId);
  const order = filter.clientId === undefined ? bonusQueries.bonusPaymentsOrder(filter) : bonusQueries.newestPaymentsFirst;
  return {
    filename: filter.clientId === undefined ? 'bonus-payments' : 'client-bonus-payments',
    columns: paymentColumns,
    rows: queryBatches(deps.database, bonusQueries.bonusPaymentsExportQuery(where, order), bonusQueries.toBonusPayment),
  };
}
