import { centsToKes, RECENT_PAYMENTS_SHOWN } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { countUnpaidBonuses } from '../bonuses/service.ts';
import { countOpenBets } from '../bets/service.ts';
import { scopeOf, scopedWhere } from '../../db/scope.ts';
import { countActiveClients } from '../clients/service.ts';
import { incomeTotals, recentPayments } from '../mpesa/service.ts';
import { INCOME_KEYS } from '../../db/money.ts';
import { currentSmsBalance } from '../sms/service.ts';
import * as q from './queries.ts';

/**
 * The dashboard (spec section 3). Admins: every figure. Staff: counts, payments and active
 * clients of their own clients; income and the SMS balance are left out.
 */
export async function dashboard(deps: AppDeps, actor: Actor) {
  const { db } = deps;
  const isAdmin = actor.role === 'admin';
  const scope = scopeOf(actor);
  const [activeCount, openBets, unpaidBonuses, payments, active] = await Promise.all([
    countActiveClients(db, actor),
    countOpenBets(db, actor),
    countUnpaidBonuses(db, actor),
    recentPayments(db, { limit: RECENT_PAYMENTS_SHOWN, scope }),
    q.findActiveClientsWithOpenBets(db, scopedWhere(scope, 's')),
  ]);
  const common = {
    total_active_clients: activeCount,
    total_open_bets: openBets,
    total_pending_bonus: unpaidBonuses,
    recent_payments: payments.map((p) => ({
      name: p.name,
      phone: p.phone,
      sender_msisdn: p.maskedMsisdn,
      transaction_reference: p.transactionReference,
      time: p.time.toISOString(),
      amount: centsToKes(p.amountCents),
    })),
    active_clients: active,
  };
  if (!isAdmin) return common;
  const [income, balance] = await Promise.all([incomeTotals(db), currentSmsBalance(deps)]);
  return {
    total_income_today: centsToKes(income.todayCents),
    total_income: centsToKes(income.totalCents),
    sms_balance: balance ? balance.amount : null,
    ...common,
  };
}

export async function incomeChart(deps: AppDeps) {
  const days = await q.incomeByDay(deps.db, INCOME_KEYS);
  return { days: days.map((d) => ({ day: d.day, amount: centsToKes(d.cents) })) };
}
