import { centsToKes, nairobiDayStart, nairobiRange, SALE_LEVER_LABELS, SALE_LEVERS, type LeverSales, type SaleLever } from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import { leverHistory } from './queries.ts';
import { cohortGrid, retentionFigures, type CohortRow, type HistoryRow } from './retention-formulas.ts';
import type { ResolvedRange } from './periods.ts';
import { historyRow } from './retention-summary-store.ts';

/**
 * The retention figures split by lever (decision 091). A subscriber's figures (renewal, churn,
 * ARPU, lifetime value, cohorts) go to the lever of their first sale, the one that won them, as
 * the channel split goes by the first purchase's channel: the groups add up to the whole. Beside
 * them, each lever's own sales in the range: how many, their income, the discount given and the
 * commission owed. Read from the stored sales through the formulas (no summary keeps levers).
 */

interface LeverSale extends HistoryRow {
  lever: SaleLever;
  discountCents: number;
  commissionCents: number;
}

async function leverSales(db: Queryable, since: string, to: string): Promise<LeverSale[]> {
  const found = await leverHistory(db, nairobiDayStart(since), nairobiRange({ from: to, to }).end!);
  return found.map((r) => ({
    ...historyRow(r),
    lever: r.lever as SaleLever,
    discountCents: Number(r.discount_cents),
    commissionCents: Number(r.commission_cents),
  }));
}

const byBought = (a: HistoryRow, b: HistoryRow) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id;

/** Each lever's subscribers' sales: a subscriber is under the lever of their first sale. */
function bySubscribersLever(sales: readonly LeverSale[]): Map<SaleLever, LeverSale[]> {
  const first = new Map<number, SaleLever>();
  for (const s of [...sales].sort(byBought)) if (!first.has(s.subscriberId)) first.set(s.subscriberId, s.lever);
  const out = new Map<SaleLever, LeverSale[]>();
  for (const s of sales) {
    const lever = first.get(s.subscriberId)!;
    const list = out.get(lever);
    if (list) list.push(s);
    else out.set(lever, [s]);
  }
  return out;
}

/** What a lever's own sales bought in the range brought and cost; refunded sales count for nothing. */
function ownSales(sales: readonly LeverSale[], lever: SaleLever, range: { from: string; to: string }): LeverSales {
  const { start, end } = nairobiRange(range);
  const mine = sales.filter(
    (s) => s.lever === lever && s.reversedAt === null && s.createdAt.getTime() >= start!.getTime() && s.createdAt.getTime() < end!.getTime(),
  );
  const total = (k: 'amountCents' | 'discountCents' | 'commissionCents') => mine.reduce((sum, s) => sum + s[k], 0);
  return { sales: mine.length, income: centsToKes(total('amountCents')), discount: centsToKes(total('discountCents')), commission: centsToKes(total('commissionCents')) };
}

/** The levers that made a sale in the history, in precedence order, with their labels. */
function leversFound(sales: readonly LeverSale[]): SaleLever[] {
  const present = new Set(sales.map((s) => s.lever));
  return SALE_LEVERS.filter((l) => present.has(l));
}

/** `since`: the first day the figures need (lifetime value reads six months back). */
export async function leverFigures(db: Queryable, range: ResolvedRange, since: string, graceDays: number, now: Date) {
  const sales = await leverSales(db, since, range.to);
  const groups = bySubscribersLever(sales);
  return leversFound(sales).map((lever) => ({
    key: lever,
    label: SALE_LEVER_LABELS[lever],
    ...retentionFigures(groups.get(lever) ?? [], range, graceDays, now),
    lever_sales: ownSales(sales, lever, range),
  }));
}

export async function leverCohorts(db: Queryable, range: { from: string; to: string }, since: string): Promise<{ key: string; label: string; cohorts: CohortRow[] }[]> {
  const sales = await leverSales(db, since, range.to);
  const groups = bySubscribersLever(sales);
  return leversFound(sales).map((lever) => ({ key: lever, label: SALE_LEVER_LABELS[lever], cohorts: cohortGrid(groups.get(lever) ?? [], range) }));
}
