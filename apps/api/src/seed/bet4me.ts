import { and, eq, isNull } from 'drizzle-orm';
import { ADMIN_CATEGORY_ID, AGENT_CATEGORY_ID } from '@betdesk/contract';
import {
  bet4mePlans,
  bets,
  bonusAllocations,
  bonusPayments,
  bonuses,
  clientAssignments,
  clientPlatformPasswords,
  clients,
  ledgerEntries,
  subscriptions,
  users,
} from '../db/schema/index.ts';
import type { Queryable } from '../db/client.ts';
import { encryptSecret, sha256Hex } from '../lib/crypto.ts';
import { activateSubscription } from '../modules/subscriptions/service.ts';

const DAY = 86_400_000;
const CLIENTS = 2_500;
const BONUS_RATE_PERCENT = 30;

const firstNames = [
  'Brian', 'Kevin', 'Dennis', 'Collins', 'Victor', 'Peter', 'John', 'James', 'Samuel', 'David', 'Joseph', 'Daniel',
  'Stephen', 'Francis', 'Moses', 'Emmanuel', 'Felix', 'Kelvin', 'Ian', 'Eric', 'Mary', 'Faith', 'Grace', 'Mercy',
  'Esther', 'Ann', 'Jane', 'Lucy', 'Caroline', 'Sharon', 'Joy', 'Cynthia', 'Purity', 'Winnie', 'Diana', 'Naomi',
];
const lastNames = [
  'Mwangi', 'Otieno', 'Kamau', 'Wanjiru', 'Ochieng', 'Njoroge', 'Kiprotich', 'Wafula', 'Mutua', 'Kariuki', 'Odhiambo',
  'Chebet', 'Kiplagat', 'Mwende', 'Achieng', 'Onyango', 'Njeri', 'Kimani', 'Musyoka', 'Barasa', 'Cheruiyot', 'Nyambura',
  'Omondi', 'Wambui', 'Korir', 'Macharia', 'Auma', 'Kipchumba', 'Gitau', 'Ndungu',
];
const platforms = ['SportPesa', 'Betika', 'Odibets', 'Mozzartbet', 'Betway'];
const matches = [
  'Gor Mahia v AFC Leopards, home win', 'Arsenal v Chelsea, over 2.5 goals', 'Man United v Liverpool, both teams score',
  'Tusker v KCB, draw', 'Real Madrid v Barcelona, home win', 'Bandari v Ulinzi Stars, under 2.5 goals',
  'Bayern v Dortmund, over 3.5 goals', 'PSG v Marseille, home win and over 1.5', 'Inter v Milan, both teams score',
  'Weekend multibet, 5 legs', 'Kenya Police v Shabana, away win', 'Juventus v Napoli, draw no bet',
];

/** A small deterministic generator so every demo database looks the same. */
function generator(seed: number) {
  let a = seed;
  const next = (): number => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!,
  };
}

async function insertInChunks<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>, size = 500): Promise<void> {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

/** The same, gathering the rows each chunk's insert returns, in order. */
async function insertReturningInChunks<T, R>(rows: T[], insert: (chunk: T[]) => Promise<R[]>): Promise<R[]> {
  const stored: R[] = [];
  await insertInChunks(rows, async (chunk) => {
    stored.push(...(await insert(chunk)));
  });
  return stored;
}

/**
 * Bet4Me demo data: plans, 2,500 clients (Kenyan names and numbers) spread over the last year, most
 * assigned to the demo staff, subscriptions running and lapsed across recent months, open and closed
 * bets with wins and losses, bonuses pending and paid, a few account credits. Bulk inserts, so it
 * takes a few seconds. Call it inside the demo seed's transaction after the demo staff exist.
 */
export async function seedBet4meDemo(tx: Queryable, secretsKey: Buffer): Promise<void> {
  const rand = generator(20_24);
  const now = Date.now();

  const plans = await tx
    .insert(bet4mePlans)
    .values([
      { name: 'Weekly', durationDays: 7, priceCents: 100_000 },
      { name: 'Monthly', durationDays: 30, priceCents: 350_000 },
    ])
    .returning({ id: bet4mePlans.id, durationDays: bet4mePlans.durationDays, priceCents: bet4mePlans.priceCents });

  const staff = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.categoryId, AGENT_CATEGORY_ID), isNull(users.deletedAt)))
    .orderBy(users.id);
  const [admin] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.categoryId, ADMIN_CATEGORY_ID), isNull(users.deletedAt)))
    .orderBy(users.id)
    .limit(1);

  const clientRows = Array.from({ length: CLIENTS }, (_, i) => {
    const first = rand.pick(firstNames);
    const last = rand.pick(lastNames);
    const phone = `2547${String(10_000_000 + i * 7_919).padStart(8, '0')}`;
    const joined = new Date(now - rand.int(1, 365) * DAY - rand.int(0, DAY));
    return {
      name: `${first} ${last}`,
      phone,
      phoneHash: sha256Hex(phone),
      email: rand.next() < 0.4 ? `${first}.${last}${i}@gmail.com`.toLowerCase() : null,
      maximumStakeCents: rand.next() < 0.6 ? rand.pick([2_000, 5_000, 10_000, 20_000]) * 100 : null,
      lastLogin: rand.next() < 0.5 ? new Date(now - rand.int(0, 30) * DAY - rand.int(0, DAY)) : null,
      createdAt: joined,
      updatedAt: joined,
    };
  });
  const created = await insertReturningInChunks(clientRows, (chunk) =>
    tx.insert(clients).values(chunk).returning({ id: clients.id, createdAt: clients.createdAt }),
  );

  // Three in five clients are looked after by a demo staff user; the rest wait for assignment.
  const staffOf = new Map<number, number>();
  if (staff.length > 0) {
    const assignments = created
      .filter(() => rand.next() < 0.6)
      .map((c, i) => ({ clientId: c.id, userId: staff[i % staff.length]!.id, assignedAt: c.createdAt }));
    await insertInChunks(assignments, (chunk) => tx.insert(clientAssignments).values(chunk));
    for (const a of assignments) staffOf.set(a.clientId, a.userId);
  }

  // Platform passwords for a few hundred clients (sealed like real ones).
  const passwordRows = created
    .filter(() => rand.next() < 0.15)
    .flatMap((c) =>
      [...new Set([rand.pick(platforms), rand.pick(platforms)])].map((platform) => ({
        clientId: c.id,
        platform,
        passwordSealed: encryptSecret(secretsKey, `${platform.slice(0, 4).toLowerCase()}${rand.int(1000, 9999)}`),
      })),
    );
  await insertInChunks(passwordRows, (chunk) => tx.insert(clientPlatformPasswords).values(chunk));

  // Subscription history: back-to-back periods from joining; about 40 % still running today.
  const subscriptionRows: (typeof subscriptions.$inferInsert)[] = [];
  const activeClients: number[] = [];
  const renewToday: number[] = [];
  for (const c of created) {
    const stillActive = rand.next() < 0.4;
    let start = Math.max(c.createdAt.getTime(), now - 180 * DAY);
    const lastEnd = stillActive ? now + rand.int(1, 29) * DAY : now - rand.int(3, 90) * DAY;
    while (start < lastEnd) {
      const plan = rand.next() < 0.7 ? plans[0]! : plans[1]!;
      const expires = start + plan.durationDays * DAY;
      if (!stillActive && expires > now) break;
      subscriptionRows.push({
        clientId: c.id,
        planId: plan.id,
        durationDays: plan.durationDays,
        amountCents: plan.priceCents,
        startsAt: new Date(start),
        expiresAt: new Date(expires),
        source: 'manual',
        createdAt: new Date(start),
        lapsedAt: expires < now ? new Date(expires) : null,
      });
      if (expires > now) break;
      // A pause before renewing, but never one that would date the renewal in the future.
      const resumed = expires + (rand.next() < 0.3 ? rand.int(1, 10) * DAY : 0);
      start = resumed > now ? expires : resumed;
    }
    if (stillActive) activeClients.push(c.id);
    else if (rand.next() < 0.015) renewToday.push(c.id);
  }
  await insertInChunks(subscriptionRows, (chunk) => tx.insert(subscriptions).values(chunk));
  // A few lapsed clients renewed today, through the same path a real renewal takes.
  for (const clientId of renewToday) {
    const plan = plans[0]!;
    await activateSubscription(tx, { what: { clientId, planId: plan.id }, durationDays: plan.durationDays, amountCents: plan.priceCents, source: 'manual' });
    activeClients.push(clientId);
  }

  // Bets of active clients over the last 60 days: closed ones won or lost, the last few still open.
  const betRows: (typeof bets.$inferInsert)[] = [];
  for (const clientId of activeClients) {
    const count = rand.int(0, 6);
    for (let i = 0; i < count; i++) {
      const opened = now - rand.int(0, 60) * DAY - rand.int(0, DAY);
      const stakeCents = rand.pick([200, 500, 1_000, 1_500, 2_000, 3_000, 5_000]) * 100;
      const open = opened > now - 2 * DAY && rand.next() < 0.7;
      const won = rand.next() < 0.45;
      const profitCents = won ? Math.round(stakeCents * (rand.int(50, 250) / 100)) : -stakeCents;
      // Opened and closed by the client's staff member (an admin for an unassigned client), so the
      // per-staff report and the bonus lists have someone to name.
      const by = staffOf.get(clientId) ?? admin?.id ?? null;
      betRows.push({
        clientId,
        openedBy: by,
        closedBy: open ? null : by,
        stakeCents,
        description: rand.pick(matches),
        profitCents: open ? null : profitCents,
        status: open ? 'open' : 'closed',
        openedAt: new Date(opened),
        closedAt: open ? null : new Date(Math.min(opened + rand.int(2, 30) * 3_600_000, now)),
      });
    }
  }
  const storedBets = await insertReturningInChunks(betRows, (chunk) =>
    tx.insert(bets).values(chunk).returning({ id: bets.id, clientId: bets.clientId, profitCents: bets.profitCents, closedAt: bets.closedAt }),
  );

  const bonusRows = storedBets
    .filter((b) => (b.profitCents ?? 0) > 0)
    .map((b) => ({
      betId: b.id,
      clientId: b.clientId,
      amountCents: Math.round((b.profitCents! * BONUS_RATE_PERCENT) / 100),
      ratePercent: BONUS_RATE_PERCENT,
      earnedAt: b.closedAt!,
    }));
  const storedBonuses = await insertReturningInChunks(bonusRows, (chunk) =>
    tx
      .insert(bonuses)
      .values(chunk)
      .returning({ id: bonuses.id, clientId: bonuses.clientId, amountCents: bonuses.amountCents, earnedAt: bonuses.earnedAt }),
  );

  // Most bonuses older than a week are paid (a few only in part); recent ones are pending.
  const paid = storedBonuses
    .filter((b) => b.earnedAt.getTime() < now - 7 * DAY && rand.next() < 0.75)
    .map((b) => ({
      bonus: b,
      amountCents: rand.next() < 0.1 ? Math.round(b.amountCents / 2) : b.amountCents,
      paidAt: new Date(Math.min(b.earnedAt.getTime() + rand.int(1, 6) * DAY, now)),
    }));
  const storedPayments = await insertReturningInChunks(paid, (chunk) =>
    tx
      .insert(bonusPayments)
      .values(
        chunk.map((p) => ({
          clientId: p.bonus.clientId,
          amountCents: p.amountCents,
          description: rand.next() < 0.5 ? 'Paid by M-Pesa to the till' : 'Cash at the office',
          source: 'manual' as const,
          paidAt: p.paidAt,
        })),
      )
      .returning({ id: bonusPayments.id }),
  );
  await insertInChunks(
    paid.map((p, i) => ({ bonusPaymentId: storedPayments[i]!.id, bonusId: p.bonus.id, amountCents: p.amountCents })),
    (chunk) => tx.insert(bonusAllocations).values(chunk),
  );

  // Some clients keep a little credit on their account.
  const credits = activeClients
    .filter(() => rand.next() < 0.1)
    .map((clientId) => ({ clientId, amountCents: rand.pick([100, 250, 500, 1_200]) * 100, kind: 'adjustment' as const, note: 'Opening balance' }));
  await insertInChunks(credits, (chunk) => tx.insert(ledgerEntries).values(chunk));
}
