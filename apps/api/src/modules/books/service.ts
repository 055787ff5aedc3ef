import { booksTexts, nairobiDayOf, type BooksPeriod, type CloseBooksForm } from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import type { BooksSnapshot } from '../../db/schema/index.ts';
import type { AppDeps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { AppError, conflict, fieldError } from '../../http/errors.ts';
import { audit, byStaff } from '../audit/service.ts';
import { moneyBridge, moneyBridgeDays } from '../reports/service.ts';
import { acceptStepUpCode } from '../second-factor/service.ts';
import { vatReturnSummary } from '../tax/service.ts';
import { adminCoolingOffUntil, adminsTied, coolingOffEnd } from '../users/service.ts';
import * as q from './queries.ts';

/**
 * Closing a month of the books (decision 075). An admin asks to close an ended month after filing
 * its VAT return, with the return's reference; a different admin confirms with a fresh code from
 * their authenticator (the refunds' two-person step-up, second-factor's `acceptStepUpCode`). At the
 * confirmation the month's figures are kept (the return's summary, the money bridge's lines), and a
 * closed month is read from them. Reopening is asked and confirmed the same way. Every move audited.
 * Lives in: apps/api/src/modules/books/service.ts
 */

const iso = (v: Date | null) => (v ? v.toISOString() : null);

function shown(r: Awaited<ReturnType<typeof q.periodsWithNames>>[number]): BooksPeriod {
  return {
    month: r.month,
    state: r.state,
    return_reference: r.returnReference,
    asked_by: r.askedBy,
    asked_at: r.askedAt.toISOString(),
    closed_by: r.closedBy,
    confirmed_by: r.confirmedBy,
    closed_at: iso(r.closedAt),
  };
}

export async function listPeriods(deps: AppDeps): Promise<{ periods: BooksPeriod[] }> {
  return { periods: (await q.periodsWithNames(deps.db)).map(shown) };
}

async function shownPeriod(db: Queryable, month: string): Promise<BooksPeriod> {
  const found = (await q.periodsWithNames(db)).find((p) => p.month === month);
  return shown(found!);
}

/** Whether a month has ended in Nairobi (a month closes only after its last day). */
function hasEnded(month: string): boolean {
  return month < nairobiDayOf(new Date()).slice(0, 7);
}

export async function askToClose(deps: AppDeps, actor: Actor, month: string, form: CloseBooksForm, requestId: string) {
  if (!hasEnded(month)) throw fieldError('month', booksTexts.notEnded(month));
  const reference = form.return_reference;
  const repeated = await deps.db.transaction(async (tx) => {
    const period = await q.lockPeriod(tx, month);
    if (period?.state === 'closed' || period?.state === 'reopening') throw conflict(booksTexts.alreadyClosed(month), 'books_closed');
    if (period?.state === 'closing') {
      // The same ask again (a retried request) is answered as it was; another reference waits for the first to be decided.
      if (period.returnReference === reference) return true;
      throw conflict(booksTexts.alreadyClosing(month), 'books_closing');
    }
    await q.askClose(tx, month, reference, actor.userId);
    await audit(tx, 'books.close', month, byStaff(actor, requestId), { after: { state: 'closing', return_reference: reference } });
    return false;
  });
  return { info: repeated ? booksTexts.alreadyClosing(month) : booksTexts.closeAsked(month), period: await shownPeriod(deps.db, month) };
}

export async function askToReopen(deps: AppDeps, actor: Actor, month: string, requestId: string) {
  const repeated = await deps.db.transaction(async (tx) => {
    const period = await q.lockPeriod(tx, month);
    if (period?.state === 'reopening') return true;
    if (period?.state !== 'closed') throw conflict(booksTexts.notClosed(month), 'books_not_closed');
    await q.askReopen(tx, month, actor.userId);
    await audit(tx, 'books.reopen', month, byStaff(actor, requestId), { before: { state: 'closed' }, after: { state: 'reopening' } });
    return false;
  });
  return { info: repeated ? booksTexts.reopenAsked(month) : booksTexts.reopenAsked(month), period: await shownPeriod(deps.db, month) };
}

/** What a month reads at its close: the VAT return's summary, the money bridge's lines and each day's (decision 079). */
async function snapshotOf(db: Queryable, month: string): Promise<BooksSnapshot> {
  const summary = await vatReturnSummary(db, month);
  const bridge = await moneyBridge(db, { month });
  const days = await moneyBridgeDays(db, month);
  return { summary, bridge: bridge.lines, days };
}

/** A second admin confirms the close or the reopening asked, with a fresh code from their authenticator. */
export async function confirm(deps: AppDeps, actor: Actor, month: string, code: string, requestId: string) {
  const outcome = await deps.db.transaction(async (tx) => {
    const period = await q.lockPeriod(tx, month);
    if (!period || (period.state !== 'closing' && period.state !== 'reopening')) throw conflict(booksTexts.notAwaiting(month), 'books_not_awaiting');
    if (period.askedBy === actor.userId) throw new AppError(403, booksTexts.ownAsk, { code: 'own_ask' });
    if (await adminsTied(tx, actor.userId, period.askedBy)) throw new AppError(403, booksTexts.tiedAdmin, { code: 'tied_admin' });
    const coolingOff = await adminCoolingOffUntil(tx, actor.userId);
    if (coolingOff) throw new AppError(403, booksTexts.coolingOff(coolingOffEnd(coolingOff)), { code: 'admin_cooling_off' });
    const step = await acceptStepUpCode(deps, tx, actor.userId, code);
    if (step === 'none') throw fieldError('code', booksTexts.noSecondFactor);
    if (step === 'wrong') return 'wrong' as const;
    const by = byStaff(actor, requestId);
    if (period.state === 'closing') {
      const snapshot = await snapshotOf(tx, month);
      await q.markClosed(tx, period, actor.userId, snapshot);
      await audit(tx, 'books.confirm-close', month, by, { before: { state: 'closing' }, after: { state: 'closed', return_reference: period.returnReference, summary: snapshot.summary, bridge: snapshot.bridge } });
      return 'closed' as const;
    }
    await q.markOpen(tx, month, actor.userId);
    await audit(tx, 'books.confirm-reopen', month, by, { before: { state: 'reopening', snapshot: period.snapshot }, after: { state: 'open' } });
    return 'open' as const;
  });
  // Refused outside the transaction so that the code's time step stays taken only when it was right.
  if (outcome === 'wrong') throw fieldError('code', booksTexts.wrongCode);
  return { info: outcome === 'closed' ? booksTexts.closed(month) : booksTexts.reopened(month), period: await shownPeriod(deps.db, month) };
}
