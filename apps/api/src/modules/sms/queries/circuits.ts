import { sql } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.ts';
import { rows } from '../../../db/rows.ts';
import type { SmsCircuitState } from '../../../db/schema/index.ts';

export interface CircuitRow {
  provider: string;
  state: SmsCircuitState;
  reason: string | null;
  consecutive_failures: number;
  opened_at: string | null;
  probe_at: string | null;
  balance_cents: number | null;
  balance_at: string | null;
  sends_total: number;
  failures_total: number;
  changed_at: string;
}

/** Each named provider's circuit, created closed the first time it is asked for. */
export async function circuits(db: Queryable, providers: readonly string[]): Promise<CircuitRow[]> {
  if (providers.length === 0) return [];
  await db.execute(
    sql`insert into sms_provider_circuits (provider)
        values ${sql.join(providers.map((p) => sql`(${p})`), sql`, `)}
        on conflict (provider) do nothing`,
  );
  const found = await rows<CircuitRow>(db, sql`select * from sms_provider_circuits order by provider`);
  return found
    .filter((r) => providers.includes(r.provider))
    .map((r) => ({
      ...r,
      consecutive_failures: Number(r.consecutive_failures),
      balance_cents: r.balance_cents == null ? null : Number(r.balance_cents),
      sends_total: Number(r.sends_total),
      failures_total: Number(r.failures_total),
    }));
}

/** Every circuit known (the metrics and the SMS screen). */
export async function allCircuits(db: Queryable): Promise<CircuitRow[]> {
  const found = await rows<CircuitRow>(db, sql`select * from sms_provider_circuits order by provider`);
  return found.map((r) => ({ ...r, sends_total: Number(r.sends_total), failures_total: Number(r.failures_total) }));
}

/** Takes the one probe of an open circuit whose wait is over: true for the dispatcher that got it. */
export async function takeProbe(db: Queryable, provider: string, now: Date, staleMs: number): Promise<boolean> {
  const found = await rows<{ provider: string }>(
    db,
    sql`update sms_provider_circuits
           set state = 'half-open', probe_at = ${new Date(now.getTime() + staleMs).toISOString()}::timestamptz, changed_at = now()
         where provider = ${provider} and state in ('open', 'half-open') and probe_at <= ${now.toISOString()}::timestamptz
        returning provider`,
  );
  return found.length > 0;
}

export async function openCircuit(db: Queryable, provider: string, reason: string, probeAt: Date): Promise<boolean> {
  const found = await rows<{ was: string }>(
    db,
    sql`update sms_provider_circuits c
           set state = 'open', reason = ${reason}, probe_at = ${probeAt.toISOString()}::timestamptz,
               opened_at = case when c.state = 'closed' then now() else c.opened_at end, changed_at = now()
          from (select state as was from sms_provider_circuits where provider = ${provider} for update) old
         where c.provider = ${provider}
        returning old.was`,
  );
  return found[0]?.was === 'closed';
}

export async function closeCircuit(db: Queryable, provider: string): Promise<boolean> {
  const found = await rows<{ provider: string }>(
    db,
    sql`update sms_provider_circuits
           set state = 'closed', reason = null, consecutive_failures = 0, probe_at = null, opened_at = null, changed_at = now()
         where provider = ${provider} and state <> 'closed'
        returning provider`,
  );
  return found.length > 0;
}

/** Counts a batch's sends and failures; a refused batch adds one consecutive failure, a taken one clears them. Answers the count. */
export async function countBatch(db: Queryable, provider: string, sent: number, failed: number, refused: boolean): Promise<number> {
  const [found] = await rows<{ consecutive_failures: number }>(
    db,
    sql`update sms_provider_circuits
           set sends_total = sends_total + ${sent}, failures_total = failures_total + ${failed},
               consecutive_failures = case when ${refused} then consecutive_failures + 1 else 0 end
         where provider = ${provider}
        returning consecutive_failures`,
  );
  return Number(found?.consecutive_failures ?? 0);
}

export async function storeBalance(db: Queryable, provider: string, balanceCents: number | null): Promise<void> {
  await db.execute(
    sql`update sms_provider_circuits set balance_cents = coalesce(${balanceCents}::bigint, balance_cents), balance_at = now()
         where provider = ${provider}`,
  );
}

/** Delivered and failed delivery reports of the provider's messages settled in the last 15 minutes. */
export async function recentReports(db: Queryable, provider: string): Promise<{ delivered: number; failed: number }> {
  const [found] = await rows<{ delivered: number; failed: number }>(
    db,
    sql`select count(*) filter (where status = 'delivered')::int as delivered,
               count(*) filter (where status = 'failed')::int as failed
          from sms_messages
         where provider = ${provider} and sent_at is not null and status in ('delivered', 'failed')
           and updated_at > now() - interval '15 minutes' and created_at > now() - interval '3 days'`,
  );
  return { delivered: Number(found?.delivered ?? 0), failed: Number(found?.failed ?? 0) };
}
