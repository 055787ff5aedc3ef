import { sql } from 'drizzle-orm';
import { betCategories, imageTypes, postCategories, pricePackages, tipsSubscribers } from '../../src/db/schema/index.ts';
import { sha256Hex } from '../../src/lib/crypto.ts';
import { activateSubscription } from '../../src/modules/subscriptions/service.ts';
import type { Db } from '../../src/db/client.ts';
import { ADMIN, createTestApp, type TestApp, type TestAppOptions } from '../helpers.ts';

export interface TipsReference {
  d2: number;
  o15: number;
  football: number;
  cover: number;
  d2SmsWeek: number;
  d2WebWeek: number;
}

/** Two bet categories with SMS and web packages, a post category and a cover picture. */
export async function tipsReference(db: Db): Promise<TipsReference> {
  const [d2, o15] = await db
    .insert(betCategories)
    .values([
      { name: 'Daily 2 Odds', code: 'D2' },
      { name: 'Over 1.5 Goals', code: 'O15' },
    ])
    .returning({ id: betCategories.id });
  const [football] = await db.insert(postCategories).values({ name: 'Football' }).returning({ id: postCategories.id });
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
  const [cover] = await db
    .insert(imageTypes)
    .values({ title: 'Stadium', imageName: 'stadium.png', contentType: 'image/png', data: png, byteSize: png.length })
    .returning({ id: imageTypes.id });
  const [d2SmsWeek, d2WebWeek] = await db
    .insert(pricePackages)
    .values([
      { betCategoryId: d2!.id, medium: 'sms', name: 'D2 SMS weekly', durationDays: 7, priceCents: 50_000 },
      { betCategoryId: d2!.id, medium: 'web', name: 'D2 Web weekly', durationDays: 7, priceCents: 40_000 },
      { betCategoryId: d2!.id, medium: 'sms', name: 'D2 SMS monthly', durationDays: 30, priceCents: 150_000 },
      { betCategoryId: o15!.id, medium: 'sms', name: 'O15 SMS weekly', durationDays: 7, priceCents: 30_000 },
    ])
    .returning({ id: pricePackages.id });
  return {
    d2: d2!.id,
    o15: o15!.id,
    football: football!.id,
    cover: cover!.id,
    d2SmsWeek: d2SmsWeek!.id,
    d2WebWeek: d2WebWeek!.id,
  };
}

/** An admin and a staff user, signed in. */
export async function signedInStaff(t: TestApp): Promise<{ admin: string; staff: string }> {
  await t.addUser({ email: 'admin@tips.test', categoryId: ADMIN });
  await t.addUser({ email: 'staff@tips.test' });
  return { admin: await t.tokenFor('admin@tips.test'), staff: await t.tokenFor('staff@tips.test') };
}

/** The usual start of a tips test file: a fresh app with the reference data, an admin and a staff member signed in. */
export async function tipsApp(options: TestAppOptions = {}): Promise<{ t: TestApp; ref: TipsReference; admin: string; staff: string }> {
  const t = await createTestApp(options);
  const ref = await tipsReference(t.deps.db);
  return { t, ref, ...(await signedInStaff(t)) };
}

/**
 * A tips subscriber of `betCategoryId` by `medium` on the D2 weekly package (KES 500, 7 days),
 * its subscription run out a day ago when `expired`. Answers the subscriber's id.
 */
export async function addTipsSubscriber(
  db: Db,
  ref: TipsReference,
  phone: string,
  medium: 'sms' | 'web',
  betCategoryId: number,
  expired = false,
): Promise<number> {
  const [row] = await db
    .insert(tipsSubscribers)
    .values({ name: `Subscriber ${phone}`, phone, phoneHash: sha256Hex(phone) })
    .returning({ id: tipsSubscribers.id });
  const { id } = await db.transaction((tx) =>
    activateSubscription(tx, {
      what: { subscriberId: row!.id, packageId: ref.d2SmsWeek, betCategoryId, medium },
      durationDays: 7,
      amountCents: 50_000,
      source: 'manual',
    }),
  );
  if (expired) await db.execute(sql`update subscriptions set expires_at = now() - interval '1 day' where id = ${id}`);
  return row!.id;
}
