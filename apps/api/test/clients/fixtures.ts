import * as contract from '@betdesk/contract';
import type { Endpoint } from '@betdesk/contract';
import { bet4mePlans, clientAssignments, clients, subscriptions } from '../../src/db/schema/index.ts';
import type { Queryable } from '../../src/db/client.ts';
import { sha256Hex } from '../../src/lib/crypto.ts';
import { activateSubscription } from '../../src/modules/subscriptions/service.ts';
import { ADMIN, type TestApp } from '../helpers.ts';

let phoneSeq = 0;

/** A Bet4Me client; active (a running Weekly plan) unless told otherwise; assigned when `staffId` is given. */
export async function addClient(
  db: Queryable,
  c: { name: string; phone?: string; maximumStakeCents?: number | null; active?: boolean; staffId?: number },
): Promise<number> {
  phoneSeq += 1;
  const phone = c.phone ?? `2547${String(90_000_000 + phoneSeq).slice(-8)}`;
  const [row] = await db
    .insert(clients)
    .values({ name: c.name, phone, phoneHash: sha256Hex(phone), maximumStakeCents: c.maximumStakeCents ?? null })
    .returning({ id: clients.id });
  const id = row!.id;
  let [plan] = await db.select({ id: bet4mePlans.id }).from(bet4mePlans).limit(1);
  if (!plan) [plan] = await db.insert(bet4mePlans).values({ name: 'Weekly', durationDays: 7, priceCents: 100_000 }).returning({ id: bet4mePlans.id });
  if (c.active !== false) {
    await activateSubscription(db, { what: { clientId: id, planId: plan!.id }, durationDays: 7, amountCents: 100_000, source: 'manual' });
  } else {
    const long = new Date(Date.now() - 40 * 86_400_000);
    await db.insert(subscriptions).values({
      clientId: id,
      planId: plan!.id,
      durationDays: 7,
      amountCents: 100_000,
      startsAt: long,
      expiresAt: new Date(long.getTime() + 7 * 86_400_000),
      source: 'manual',
      createdAt: long,
    });
  }
  if (c.staffId) await db.insert(clientAssignments).values({ clientId: id, userId: c.staffId });
  return id;
}

/** An admin, two staff users, and their tokens. */
export async function people(t: TestApp) {
  const adminId = await t.addUser({ email: 'admin@x.test', categoryId: ADMIN, name: 'Grace Admin' });
  const staffId = await t.addUser({ email: 'wanjiku@x.test', name: 'Wanjiku Kamau' });
  const otherStaffId = await t.addUser({ email: 'otieno@x.test', name: 'Otieno Ochieng' });
  return {
    adminId,
    staffId,
    otherStaffId,
    admin: await t.tokenFor('admin@x.test'),
    staff: await t.tokenFor('wanjiku@x.test'),
    otherStaff: await t.tokenFor('otieno@x.test'),
  };
}

/** A value of the contract's exports that is an API endpoint. */
export function isEndpoint(value: unknown): value is Endpoint {
  const e = value as Partial<Endpoint> | null;
  return typeof e === 'object' && e !== null && typeof e.path === 'string' && e.path.startsWith('/api/') && 'response' in e && 'access' in e;
}

/** An endpoint a staff member may call (the permission matrix). */
export const staffMay = (e: Endpoint) =>
  e.access !== 'public' && e.access !== 'portal' && (contract.permissionMatrix[e.access] as readonly string[]).includes('staff');
