import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { inArray, sql } from 'drizzle-orm';
import {
  betCategories,
  postCategories,
  pricePackages,
  subscriptions,
  tipsPostBets,
  tipsPosts,
  tipsSubscribers,
  winningsContent,
} from '../db/schema/index.ts';
import type { Queryable } from '../db/client.ts';
import { sha256Hex } from '../lib/crypto.ts';
import { declareAdult } from '../modules/compliance/service.ts';
import { activateSubscription } from '../modules/subscriptions/service.ts';
import { addBundledImageType } from '../modules/tips-posts/service.ts';
import { publishSmsTip } from '../modules/tips-sms/service.ts';

const coversDir = new URL('../../assets/covers/', import.meta.url);

/** The bet categories sold; the code is what a buyer types as the M-Pesa account number. */
export const demoBetCategories = [
  { name: 'Daily 2 Odds', code: 'D2' },
  { name: 'Daily 5 Odds', code: 'D5' },
  { name: 'Over 1.5 Goals', code: 'O15' },
  { name: 'Both Teams To Score', code: 'GG' },
  { name: 'Weekend Jackpot', code: 'JP' },
] as const;

const demoPostCategories = ['Football', 'Basketball', 'Jackpot', 'Tennis'];

const bundledCovers = [
  { title: 'Football pitch', file: 'football-pitch.svg' },
  { title: 'Stadium lights', file: 'stadium-lights.svg' },
  { title: 'Jackpot ticket', file: 'jackpot-ticket.svg' },
  { title: 'Basketball', file: 'basketball-court.svg' },
];

/** KES per package: [7 days, 30 days] per medium. */
const demoPrices: Record<string, { sms: [number, number]; web: [number, number] }> = {
  D2: { sms: [500, 1500], web: [400, 1200] },
  D5: { sms: [700, 2000], web: [600, 1800] },
  O15: { sms: [300, 1000], web: [250, 800] },
  GG: { sms: [300, 1000], web: [250, 800] },
  JP: { sms: [1000, 3000], web: [800, 2500] },
};

const firstNames = ['Brian', 'Mary', 'Kevin', 'Faith', 'Dennis', 'Grace', 'Collins', 'Mercy', 'Victor', 'Esther',
  'Samuel', 'Joy', 'Felix', 'Caroline', 'Hillary', 'Purity', 'Kelvin', 'Sharon', 'Evans', 'Lilian'];
const lastNames = ['Mwangi', 'Otieno', 'Kamau', 'Wanjiru', 'Kiprop', 'Achieng', 'Mutua', 'Njoroge', 'Chebet',
  'Omondi', 'Wekesa', 'Kariuki', 'Nyambura', 'Barasa', 'Korir', 'Wambui', 'Ouma', 'Muthoni'];
const fixtures = ['Arsenal v Chelsea', 'Gor Mahia v AFC Leopards', 'Real Madrid v Sevilla', 'Inter v Napoli',
  'Liverpool v Everton', 'Bayern v Dortmund', 'Tusker v Ulinzi Stars', 'PSG v Lyon', 'Man City v Spurs',
  'Juventus v Roma', 'Lakers v Celtics', 'Kenya Police v Bandari'];
const picks = ['Home win', 'Both teams to score', 'Over 1.5 goals', 'Double chance 1X', 'Over 2.5 goals', 'Away win or draw'];

/** A small deterministic generator, so every demo database looks the same. */
function generator(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

function postHtml(fixture: string, pick: string, odds: string): string {
  return [
    `<h2>${fixture}</h2>`,
    `<p>Our pick: <strong>${pick}</strong> at odds of <strong>${odds}</strong>.</p>`,
    '<table><tbody>',
    '<tr><th><p>Market</p></th><th><p>Pick</p></th><th><p>Odds</p></th></tr>',
    `<tr><td><p>Main</p></td><td><p>${pick}</p></td><td><p>${odds}</p></td></tr>`,
    '<tr><td><p>Safer</p></td><td><p>Double chance</p></td><td><p>1.30</p></td></tr>',
    '</tbody></table>',
    '<p>Stake responsibly. Tips are advice, not a guarantee.</p>',
  ].join('');
}

/**
 * Tips demo data: bet categories, post categories, bundled cover pictures, web and SMS price
 * packages, a few hundred subscribers with running and expired subscriptions, posts over the last
 * weeks, today's SMS tips (queued to SMS subscribers) and the winnings page. Run inside the demo
 * seed's transaction.
 */
export async function seedTipsDemo(tx: Queryable, createdBy: number | null): Promise<void> {
  const random = generator(20_250_301);
  const pickOf = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;

  await tx.insert(betCategories).values([...demoBetCategories]).onConflictDoNothing({ target: betCategories.code });
  const categories = await tx
    .select({ id: betCategories.id, code: betCategories.code, name: betCategories.name })
    .from(betCategories)
    .where(inArray(betCategories.code, demoBetCategories.map((c) => c.code)));

  await tx.insert(postCategories).values(demoPostCategories.map((name) => ({ name }))).onConflictDoNothing();
  const postCategoryIds = (await tx.select({ id: postCategories.id }).from(postCategories)).map((p) => p.id);

  const coverIds: number[] = [];
  for (const cover of bundledCovers) {
    const image = await addBundledImageType(tx, {
      title: cover.title,
      imageName: cover.file,
      contentType: 'image/svg+xml',
      data: readFileSync(fileURLToPath(new URL(cover.file, coversDir))),
    });
    coverIds.push(image.id);
  }

  const packages = await tx
    .insert(pricePackages)
    .values(
      categories.flatMap((c) =>
        (['sms', 'web'] as const).flatMap((medium) =>
          ([7, 30] as const).map((days, i) => ({
            betCategoryId: c.id,
            medium,
            name: `${c.name} ${medium === 'sms' ? 'SMS' : 'Web'} ${days === 7 ? 'weekly' : 'monthly'}`,
            durationDays: days,
            priceCents: (demoPrices[c.code]?.[medium][i] ?? 500) * 100,
          })),
        ),
      ),
    )
    .onConflictDoNothing()
    .returning({
      id: pricePackages.id,
      betCategoryId: pricePackages.betCategoryId,
      medium: pricePackages.medium,
      durationDays: pricePackages.durationDays,
      priceCents: pricePackages.priceCents,
    });

  const people = Array.from({ length: 320 }, (_, i) => {
    const phone = `2547${pickOf(['0', '1', '2', '9'])}${String(1_000_000 + i * 2_713).slice(-7)}`;
    return {
      name: `${pickOf(firstNames)} ${pickOf(lastNames)}`,
      phone,
      phoneHash: sha256Hex(phone),
      createdBy,
      joinedAt: new Date(Date.now() - Math.floor(random() * 120) * 86_400_000),
    };
  });
  const subscribers = await tx
    .insert(tipsSubscribers)
    .values(people)
    .onConflictDoNothing({ target: tipsSubscribers.phone })
    .returning({ id: tipsSubscribers.id });
  // Customers from before the age gate: counted as declared 18+, as migration 0058 counts them (decision 066).
  for (const person of people) await declareAdult(tx, person.phone, 'before_gate');

  // Each subscriber buys one or two packages by hand; about a third of them have lapsed since.
  const lapsed: number[] = [];
  for (const subscriber of subscribers) {
    const count = random() < 0.3 ? 2 : 1;
    for (let n = 0; n < count && packages.length > 0; n += 1) {
      const pkg = pickOf(packages);
      const { id } = await activateSubscription(tx, {
        what: { subscriberId: subscriber.id, packageId: pkg.id, betCategoryId: pkg.betCategoryId, medium: pkg.medium },
        durationDays: pkg.durationDays,
        amountCents: pkg.priceCents,
        source: 'manual',
        createdBy,
      });
      if (random() < 0.35) lapsed.push(id);
    }
  }
  if (lapsed.length > 0) {
    await tx.execute(sql`
      update ${subscriptions}
         set created_at = now() - (duration_days + 5) * interval '1 day',
             starts_at = now() - (duration_days + 5) * interval '1 day',
             expires_at = now() - interval '5 days'
       where id in ${lapsed}`);
  }

  const posts = await tx
    .insert(tipsPosts)
    .values(
      Array.from({ length: 42 }, (_, i) => {
        const fixture = pickOf(fixtures);
        const pick = pickOf(picks);
        const odds = (1.3 + random() * 1.5).toFixed(2);
        const day = new Date(Date.now() - (i - 3) * 86_400_000).toISOString().slice(0, 10);
        return {
          title: `${fixture}: ${pick}`,
          postCategoryId: pickOf(postCategoryIds),
          imageTypeId: i % 7 === 6 ? null : pickOf(coverIds),
          matchDate: day,
          content: postHtml(fixture, pick, odds),
          createdBy,
          updatedBy: createdBy,
        };
      }),
    )
    .returning({ id: tipsPosts.id });
  await tx.insert(tipsPostBets).values(
    posts.flatMap((post) => {
      const chosen = new Set([pickOf(categories).id, pickOf(categories).id]);
      return [...chosen].map((betCategoryId) => ({ postId: post.id, betCategoryId }));
    }),
  );

  for (const category of categories) {
    const content = `${category.code} ${new Date().toISOString().slice(0, 10)}: ${pickOf(fixtures)} - ${pickOf(picks)} @${(1.4 + random()).toFixed(2)}. Reply STOP to opt out.`;
    await publishSmsTip(tx, { betCategoryId: category.id, content, createdBy });
  }

  await tx
    .insert(winningsContent)
    .values({
      id: 1,
      content:
        '<h2>Last weekend</h2><p><strong>9 of 11</strong> premium tips won.</p><table><tbody><tr><th><p>Match</p></th><th><p>Tip</p></th><th><p>Result</p></th></tr><tr><td><p>Arsenal v Chelsea</p></td><td><p>GG</p></td><td><p>2-1 Won</p></td></tr><tr><td><p>Gor Mahia v AFC Leopards</p></td><td><p>Home win</p></td><td><p>1-0 Won</p></td></tr><tr><td><p>Inter v Napoli</p></td><td><p>Over 2.5</p></td><td><p>1-1 Lost</p></td></tr></tbody></table>',
      updatedBy: createdBy,
    })
    .onConflictDoNothing();
}
