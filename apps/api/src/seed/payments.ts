import { asc, eq, isNull, sql } from 'drizzle-orm';
import { kesFixed } from '@betdesk/contract';
import type { Queryable } from '../db/client.ts';
import { bet4mePlans, betCategories, clients, mpesaPayments, pricePackages, subscriptions, tipsSubscribers } from '../db/schema/index.ts';
import { darajaTimestamp } from '../integrations/mpesa/daraja.ts';
import { sha256Hex } from '../lib/crypto.ts';
import { storeC2bConfirmation } from '../modules/mpesa/service.ts';

const DAY = 86_400_000;
const senders = ['JOHN KAMAU', 'MARY WANJIRU', 'PETER OTIENO', 'GRACE AKINYI', 'JAMES MWANGI', 'FAITH CHEBET', 'BRIAN KIPROTICH', 'LUCY NJERI'];

/**
 * Demo M-Pesa payments over the last six weeks, sent through the same ingestion as Daraja's
 * confirmations (so matching, subscriptions and ledgers agree): tips packages bought by account
 * number and hashed MSISDN, Bet4Me plans, odd amounts left as credit, and unclaimed payments with
 * masked numbers waiting for an admin. Runs inside the demo seed's transaction.
 */
export async function seedDemoPayments(tx: Queryable, shortCode: string | undefined): Promise<number> {
  let seed = 7;
  const random = () => {
    seed = (seed * 16_807) % 2_147_483_647;
    return (seed - 1) / 2_147_483_646;
  };
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

  const packages = await tx
    .select({ code: betCategories.code, priceCents: pricePackages.priceCents, medium: pricePackages.medium })
    .from(pricePackages)
    .innerJoin(betCategories, eq(betCategories.id, pricePackages.betCategoryId))
    .orderBy(asc(pricePackages.id));
  const subscribers = await tx.select({ phone: tipsSubscribers.phone, name: tipsSubscribers.name }).from(tipsSubscribers).limit(40);
  const bet4me = await tx.select({ id: clients.id, phone: clients.phone, name: clients.name }).from(clients).where(isNull(clients.deletedAt)).limit(20);
  const plans = await tx.select({ priceCents: bet4mePlans.priceCents }).from(bet4mePlans).where(eq(bet4mePlans.active, true));

  type Payment = { account: string; amountCents: number; msisdn: string; name: string };
  const payments: Payment[] = [];
  const smsPackages = packages.filter((p) => p.medium === 'sms');
  for (const subscriber of subscribers.slice(0, 18)) {
    const pkg = pick(smsPackages.length > 0 ? smsPackages : packages);
    if (!pkg) break;
    payments.push({ account: pkg.code, amountCents: pkg.priceCents, msisdn: sha256Hex(subscriber.phone), name: subscriber.name.toUpperCase() });
  }
  for (const subscriber of subscribers.slice(18, 22)) {
    const pkg = pick(packages);
    if (!pkg) break;
    payments.push({ account: pkg.code, amountCents: 5_000, msisdn: sha256Hex(subscriber.phone), name: subscriber.name.toUpperCase() });
  }
  for (const client of bet4me.slice(0, 8)) {
    const plan = pick(plans);
    if (!plan) break;
    payments.push({ account: `B4M${client.id}`, amountCents: plan.priceCents, msisdn: sha256Hex(client.phone), name: client.name.toUpperCase() });
  }
  for (let i = 0; i < 9; i += 1) {
    payments.push({
      account: pick(['', 'TIPS', 'BETS', 'ACCOUNT', 'PAY']),
      amountCents: pick([5_000, 20_000, 25_000, 70_000, 150_000]),
      msisdn: `2547 ***** ${String(100 + Math.floor(random() * 900))}`,
      name: pick(senders),
    });
  }

  let stored = 0;
  for (const [i, p] of payments.entries()) {
    const ageMs = Math.floor(random() * 42 * DAY) + (i % 5) * 3_600_000;
    const at = new Date(Date.now() - ageMs);
    const [first, ...last] = p.name.split(' ');
    const result = await storeC2bConfirmation(
      tx,
      shortCode,
      {
        TransactionType: 'Pay Bill',
        TransID: `SD${String(at.getTime()).slice(-6)}${String(i).padStart(2, '0')}`.slice(0, 10),
        TransTime: darajaTimestamp(at),
        TransAmount: kesFixed(p.amountCents),
        BusinessShortCode: shortCode ?? '600984',
        BillRefNumber: p.account,
        InvoiceNumber: '',
        OrgAccountBalance: '',
        ThirdPartyTransID: '',
        MSISDN: p.msisdn,
        FirstName: first ?? '',
        MiddleName: '',
        LastName: last.join(' '),
      },
      null,
    );
    if (!result.paymentId) continue;
    stored += 1;
    // Received when it was paid; what it bought then, too.
    await tx.update(mpesaPayments).set({ receivedAt: at }).where(eq(mpesaPayments.id, result.paymentId));
    await tx
      .update(subscriptions)
      .set({
        startsAt: sql`${subscriptions.startsAt} - ${`${ageMs} milliseconds`}::interval`,
        expiresAt: sql`${subscriptions.expiresAt} - ${`${ageMs} milliseconds`}::interval`,
        createdAt: at,
      })
      .where(eq(subscriptions.paymentId, result.paymentId));
  }
  return stored;
}
