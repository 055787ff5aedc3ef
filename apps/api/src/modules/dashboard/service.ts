import { centsToKes, RECENT_PAYMENTS_SHOWN, smsGatewayRefusalTexts, type AdminAlerts } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { countUnpaidBonuses } from '../bonuses/service.ts';
import { countOpenBets } from '../bets/service.ts';
import { health as backupHealth } from '../backups/service.ts';
import { complianceCalendar } from '../compliance/service.ts';
import { privacyAlerts } from '../privacy/service.ts';
import { latestMoneyCheck } from '../reconciliation/service.ts';
import { taxStatus, transmissions } from '../tax/service.ts';
import { adminGrantsOverview } from '../users/service.ts';
import { scopeOf, scopedWhere } from '../../db/scope.ts';
import { countActiveClients } from '../clients/service.ts';
import { incomeTotals, recentPayments } from '../mpesa/service.ts';
import { INCOME_KEYS } from '../../db/money.ts';
import { currentSmsBalance, providerStates, smsBacklog, smsProvidersOf } from '../sms/service.ts';
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

/**
 * Every alert of the admin's dashboard in one answer (decision 078): the same facts the Backups, Tax,
 * SMS, Privacy, Users, Compliance and reconciliation screens read, gathered through their modules'
 * doors side by side. A fact that fails to read is reported to `failed` and left null: its alert is
 * not shown, the others are (as when each was a request of its own).
 */
export async function adminAlerts(deps: AppDeps, failed: (part: string, error: unknown) => void): Promise<AdminAlerts> {
  const { db } = deps;
  const part = async <T, R>(name: string, read: () => Promise<T>, shape: (value: T) => R): Promise<R | null> => {
    try {
      return shape(await read());
    } catch (error) {
      failed(name, error);
      return null;
    }
  };
  const [money_check, backup, tax, tax_transmissions, sms, sms_providers, privacy, admin_grants, compliance] = await Promise.all([
    part('money_check', () => latestMoneyCheck(db), (c) => c && { ok: c.ok, failures: c.failures.map((f) => ({ check: f.check })) }),
    part('backup', () => backupHealth(db), (h) => ({ alert: h.alert })),
    part('tax', () => taxStatus(deps), (t) => ({ invoicing_on: t.invoicing_on, alert: t.alert })),
    part('tax_transmissions', () => transmissions(deps, { page: 1, perPage: 1 }), (t) => ({
      rejected: t.counts.rejected,
      older_than_alert: t.older_than_alert,
      alert_hours: t.alert_hours,
    })),
    part('sms', () => smsBacklog(db), (b) => ({
      retrying: b.retrying,
      oldest_retrying_on: b.oldest_retrying_on,
      causes: b.causes.map((c) => ({ cause: c.cause, retrying: c.retrying })),
      refusal: b.refusal && { text: smsGatewayRefusalTexts[b.refusal.cause], reason: b.refusal.reason, at: b.refusal.at },
    })),
    part('sms_providers', () => providerStates(db, smsProvidersOf(deps)), (p) =>
      p.providers.map((s) => ({ provider: s.provider, state: s.state, reason: s.reason, since: s.since })),
    ),
    part('privacy', () => privacyAlerts(db), (a) => ({
      overdue_requests: a.overdue_requests,
      breaches: a.breaches.map((b) => ({ id: b.id, description: b.description, notify_by: b.notify_by })),
    })),
    part('admin_grants', () => adminGrantsOverview(db), (g) => ({
      pending: g.pending.map((x) => ({ id: x.id, user_name: x.user_name, requested_by: x.requested_by, requested_at: x.requested_at })),
      given: g.recent
        .filter((x) => x.status === 'approved')
        .map((x) => ({ id: x.id, user_name: x.user_name, requested_by: x.requested_by, decided_by: x.decided_by, decided_at: x.decided_at })),
    })),
    part('compliance', () => complianceCalendar(deps), (c) => ({ items: c.items })),
  ]);
  return { money_check, backup, tax, tax_transmissions, sms, sms_providers, privacy, admin_grants, compliance };
}
