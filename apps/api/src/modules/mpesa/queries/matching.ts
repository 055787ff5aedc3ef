// Who paid: the matching rules' look-ups.
import { and, eq, isNull, sql } from 'drizzle-orm';
import { betCategories, clients, mpesaPayments, tipsSubscribers } from '../../../db/schema/index.ts';
import type { Queryable } from '../../../db/client.ts';

/** The bet category whose code the account starts with (the longest such code). */
export async function categoryCodeStartingAccount(db: Queryable, account: string): Promise<{ id: number; code: string } | null> {
  const [found] = await db
    .select({ id: betCategories.id, code: betCategories.code })
    .from(betCategories)
    .where(sql`${account} like upper(${betCategories.code}) || '%'`)
    .orderBy(sql`length(${betCategories.code}) desc`)
    .limit(1);
  return found ?? null;
}

/** The one subscriber with this phone (or phone hash), with their name and phone (the receipt's); null when none or two. */
export async function onlySubscriberWith(
  db: Queryable,
  by: { phone?: string; phoneHash?: string },
): Promise<{ id: number; name: string; phone: string } | null> {
  const where = by.phone ? eq(tipsSubscribers.phone, by.phone) : eq(tipsSubscribers.phoneHash, by.phoneHash!);
  const found = await db.select({ id: tipsSubscribers.id, name: tipsSubscribers.name, phone: tipsSubscribers.phone }).from(tipsSubscribers).where(where).limit(2);
  return found.length === 1 ? found[0]! : null;
}

/** The one live client with this id, phone (or phone hash); null when none or two. */
export async function onlyLiveClientWith(db: Queryable, by: { id?: number; phone?: string; phoneHash?: string }): Promise<number | null> {
  const where =
    by.id !== undefined
      ? eq(clients.id, by.id)
      : by.phone
        ? eq(clients.phone, by.phone)
        : eq(clients.phoneHash, by.phoneHash!);
  const found = await db
    .select({ id: clients.id })
    .from(clients)
    .where(and(where, isNull(clients.deletedAt)))
    .limit(2);
  return found.length === 1 ? found[0]!.id : null;
}

/** Whether a client of this id exists, trashed or not. */
export async function clientExists(db: Queryable, clientId: number): Promise<boolean> {
  const [found] = await db.select({ id: clients.id }).from(clients).where(eq(clients.id, clientId)).limit(1);
  return found !== undefined;
}

export async function liveClientExists(db: Queryable, clientId: number): Promise<boolean> {
  const [found] = await db
    .select({ id: clients.id })
    .from(clients)
    .where(and(eq(clients.id, clientId), isNull(clients.deletedAt)));
  return found !== undefined;
}

export async function subscriberExists(db: Queryable, subscriberId: number): Promise<boolean> {
  const [found] = await db.select({ id: tipsSubscribers.id }).from(tipsSubscribers).where(eq(tipsSubscribers.id, subscriberId));
  return found !== undefined;
}

export async function clientNameAndPhone(db: Queryable, clientId: number) {
  const [c] = await db.select({ name: clients.name, phone: clients.phone }).from(clients).where(eq(clients.id, clientId));
  return c;
}

export async function subscriberNameAndPhone(db: Queryable, subscriberId: number) {
  const [s] = await db
    .select({ name: tipsSubscribers.name, phone: tipsSubscribers.phone })
    .from(tipsSubscribers)
    .where(eq(tipsSubscribers.id, subscriberId));
  return s;
}

/** The M-Pesa receipt of a payment (null before it has one). */
export async function receiptOf(db: Queryable, paymentId: number): Promise<string | null | undefined> {
  const [payment] = await db.select({ transId: mpesaPayments.transId }).from(mpesaPayments).where(eq(mpesaPayments.id, paymentId));
  return payment?.transId;
}
