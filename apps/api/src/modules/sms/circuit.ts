import type { Queryable } from '../../db/client.ts';
import type { SendOutcome, SmsGateway } from '../../integrations/sms/gateway.ts';
import { announce } from '../events/service.ts';
import { getSetting } from '../settings/service.ts';
import * as q from './queries/circuits.ts';

/**
 * The SMS providers the outbox may use (decision 062): the primary (SMS_PROVIDER) and, when
 * SMS_FAILOVER_PROVIDER is set, the second aggregator.
 */
export interface SmsProviders {
  primary: SmsGateway;
  secondary: SmsGateway | null;
}

/** The providers of a running app: SMS_PROVIDER's gateway and SMS_FAILOVER_PROVIDER's. */
export const smsProvidersOf = (deps: { sms: SmsGateway; smsFailover?: SmsGateway | null }): SmsProviders => ({
  primary: deps.sms,
  secondary: deps.smsFailover ?? null,
});

export const providersOf = (p: SmsProviders): SmsGateway[] => (p.secondary ? [p.primary, p.secondary] : [p.primary]);

/** A provider a batch may be claimed for now; `probe`: its circuit is half-open and this batch is its one probe. */
export interface UsableProvider {
  gateway: SmsGateway;
  primary: boolean;
  probe: boolean;
}

const BALANCE_EVERY_MS = 60_000;

/**
 * The providers a batch may go to now, in the order to try: the primary while its circuit is closed,
 * else the second one. An open circuit whose probe delay is over gives one dispatcher a probe
 * batch (its balance asked first: still low, it stays open). With one provider only, it is used
 * whatever its circuit says (the outbox's retries decide, as before decision 062).
 */
export async function usableProviders(db: Queryable, providers: SmsProviders, now: Date, claimMs: number): Promise<UsableProvider[]> {
  const all = providersOf(providers);
  if (all.length === 1) return [{ gateway: providers.primary, primary: true, probe: false }];
  const rows = new Map((await q.circuits(db, all.map((g) => g.name))).map((r) => [r.provider, r]));
  const usable: UsableProvider[] = [];
  for (const gateway of all) {
    const row = rows.get(gateway.name)!;
    const primary = gateway === providers.primary;
    if (row.state === 'closed') {
      usable.push({ gateway, primary, probe: false });
      continue;
    }
    if (!row.probe_at || new Date(row.probe_at) > now) continue;
    if (!(await q.takeProbe(db, gateway.name, now, claimMs))) continue;
    const low = await lowBalance(db, gateway);
    if (low) {
      await openFor(db, gateway.name, low, now);
      continue;
    }
    usable.push({ gateway, primary, probe: true });
  }
  return usable;
}

/** Why the provider's balance is too low to send, or null (also when it cannot tell). */
async function lowBalance(db: Queryable, gateway: SmsGateway): Promise<string | null> {
  const balance = await gateway.balance().catch(() => null);
  await q.storeBalance(db, gateway.name, balance ? Math.round(balance.amount * 100) : null);
  if (!balance) return null;
  const threshold = await getSetting(db, 'sms_low_balance_kes');
  return balance.amount < threshold ? `Low balance: ${balance.currency} ${balance.amount.toFixed(2)} (below ${threshold})` : null;
}

async function openFor(db: Queryable, provider: string, reason: string, now: Date): Promise<void> {
  const probeAt = new Date(now.getTime() + (await getSetting(db, 'sms_circuit_probe_seconds')) * 1000);
  const opened = await q.openCircuit(db, provider, reason, probeAt);
  if (opened) await announce(db, { type: 'sms.provider', provider, state: 'open', reason });
}

/**
 * A batch's outcomes move its provider's circuit: anything taken closes it (a probe that worked);
 * a batch refused before acceptance counts a failure, and opens it at once for a cause a person
 * must fix (credentials, balance, sender id) or after `sms_circuit_failures` in a row.
 */
export async function recordProviderResult(db: Queryable, provider: string, outcomes: SendOutcome[], now: Date): Promise<void> {
  const sent = outcomes.filter((o) => o.status === 'sent').length;
  const refusals = outcomes.flatMap((o) => ((o.status === 'retry' || o.status === 'failed') && o.refused ? [o] : []));
  const refused = sent === 0 && refusals.length > 0;
  const failed = outcomes.length - sent;
  await q.circuits(db, [provider]);
  const consecutive = await q.countBatch(db, provider, sent, failed, refused);
  if (!refused) {
    if (sent > 0 && (await q.closeCircuit(db, provider))) await announce(db, { type: 'sms.provider', provider, state: 'closed', reason: null });
    return;
  }
  const first = refusals[0]!;
  const limit = await getSetting(db, 'sms_circuit_failures');
  if (first.refused!.opensCircuit) return openFor(db, provider, first.reason, now);
  if (consecutive >= limit) return openFor(db, provider, `${consecutive} failures in a row: ${first.reason}`, now);
}

/**
 * The health checks that do not wait for a send (at most once a minute per provider, or when
 * `force`): the polled balance opens a circuit before sends fail, and so does a delivered share of
 * the last 15 minutes' delivery reports below `sms_circuit_delivered_percent`.
 */
export async function checkProviderHealth(db: Queryable, providers: SmsProviders, now: Date, force = false): Promise<void> {
  const all = providersOf(providers);
  const rows = new Map((await q.circuits(db, all.map((g) => g.name))).map((r) => [r.provider, r]));
  for (const gateway of all) {
    const row = rows.get(gateway.name)!;
    if (!force && row.balance_at && now.getTime() - new Date(row.balance_at).getTime() < BALANCE_EVERY_MS) continue;
    const low = await lowBalance(db, gateway);
    if (row.state !== 'closed') continue;
    if (low) {
      await openFor(db, gateway.name, low, now);
      continue;
    }
    const reports = await q.recentReports(db, gateway.name);
    const total = reports.delivered + reports.failed;
    if (total < (await getSetting(db, 'sms_circuit_min_reports'))) continue;
    const share = (reports.delivered / total) * 100;
    const threshold = await getSetting(db, 'sms_circuit_delivered_percent');
    if (share < threshold) {
      await openFor(db, gateway.name, `Delivered ${share.toFixed(0)}% of the last 15 minutes' ${total} delivery reports (below ${threshold}%)`, now);
    }
  }
}

export const providerCircuits = (db: Queryable) => q.allCircuits(db);
