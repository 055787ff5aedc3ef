import { centsToKes, type SmsCostReport, type SmsProviderState } from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import type { CsvTable } from '../../http/csv.ts';
import { getSetting } from '../settings/service.ts';
import { providersOf, type SmsProviders } from './circuit.ts';
import * as circuitQ from './queries/circuits.ts';
import * as q from './queries/messages.ts';

/** The price of one part at a provider (settings, decision 062): the primary's, or the second aggregator's. */
export async function pricePerPartCents(db: Queryable, providers: SmsProviders, provider: string): Promise<number> {
  return providers.secondary?.name === provider && providers.primary.name !== provider
    ? getSetting(db, 'sms_failover_cost_per_part_cents')
    : getSetting(db, 'sms_cost_per_part_cents');
}

/** The provider a text would go through now: the primary unless its circuit is open and a second one is set. */
export async function currentProvider(db: Queryable, providers: SmsProviders): Promise<string> {
  if (!providers.secondary) return providers.primary.name;
  const [primary] = await circuitQ.circuits(db, [providers.primary.name]);
  return primary && primary.state !== 'closed' ? providers.secondary.name : providers.primary.name;
}

/** Each provider's circuit, balance, sends and failures and price, primary first. */
export async function providerStates(db: Queryable, providers: SmsProviders): Promise<{ providers: SmsProviderState[] }> {
  const gateways = providersOf(providers);
  const rows = new Map((await circuitQ.circuits(db, gateways.map((g) => g.name))).map((r) => [r.provider, r]));
  const states: SmsProviderState[] = [];
  for (const gateway of gateways) {
    const r = rows.get(gateway.name)!;
    const iso = (v: string | null) => (v ? new Date(v).toISOString() : null);
    states.push({
      provider: gateway.name,
      role: gateway === providers.primary ? 'primary' : 'secondary',
      state: r.state,
      reason: r.reason,
      since: r.state === 'closed' ? null : iso(r.opened_at),
      probe_on: r.state === 'closed' ? null : iso(r.probe_at),
      balance: r.balance_cents == null ? null : centsToKes(r.balance_cents),
      balance_on: iso(r.balance_at),
      sends: r.sends_total,
      failures: r.failures_total,
      price_per_part: centsToKes(await pricePerPartCents(db, providers, gateway.name)),
    });
  }
  return { providers: states };
}

/** This month in Africa/Nairobi, YYYY-MM. */
const thisMonth = () => new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 7);

/**
 * A month's SMS cost per provider and kind of text: what each provider charged where it said so,
 * else the parts times its price per part (settings).
 */
export async function smsCostReport(db: Queryable, providers: SmsProviders, month = thisMonth()): Promise<SmsCostReport> {
  const lines = await q.costByProvider(db, month);
  const rows = [];
  let messages = 0;
  let parts = 0;
  let cents = 0;
  for (const l of lines) {
    const price = await pricePerPartCents(db, providers, l.provider);
    const cost = l.known_cents + l.unpriced_parts * price;
    rows.push({ provider: l.provider, sms_class: l.sms_class as SmsCostReport['rows'][number]['sms_class'], messages: l.messages, parts: l.parts, cost: centsToKes(cost) });
    messages += l.messages;
    parts += l.parts;
    cents += cost;
  }
  return { month, rows, total: { messages, parts, cost: centsToKes(cents) } };
}

export async function smsCostCsv(db: Queryable, providers: SmsProviders, month?: string): Promise<CsvTable<SmsCostReport['rows'][number]>> {
  const report = await smsCostReport(db, providers, month);
  return {
    filename: `sms-cost-${report.month}`,
    columns: [
      { header: 'Month', value: () => report.month },
      { header: 'Provider', value: (r) => r.provider },
      { header: 'Kind of text', value: (r) => r.sms_class },
      { header: 'Messages', value: (r) => r.messages },
      { header: 'Parts', value: (r) => r.parts },
      { header: 'Cost (KES)', value: (r) => r.cost.toFixed(2) },
    ],
    rows: [report.rows],
  };
}
