import { adminGrantTexts, type AdminGrant, type AdminGrantKind } from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import type { Actor } from '../../http/actor.ts';
import { notFound } from '../../http/errors.ts';
import { audit, byStaff } from '../audit/service.ts';
import { getSetting } from '../settings/service.ts';
import {
  adminGrantCounts,
  adminGrantsWithNames,
  coolingOffUntil,
  findPendingGrantOf,
  givenGrantEdges,
  insertAdminGrant,
} from './queries.ts';

/*
 * Admin rights and the two-person rule (decision 056). Through the web, admin rights are asked by
 * one admin and given only when a second admin approves with their authenticator code. Every grant
 * keeps who asked and who approved, and the rule follows those links: two admins are TIED when one
 * asked for or approved the other's rights (at any distance along such links), or when one admin
 * asked for both of theirs (an admin's own accounts, made with phones they hold). Tied admins never
 * act as the two persons of one act: approving a grant, or asking for and approving a refund.
 */

/** The bootstrap admin, `npm run create-user` and the demo seed: the operator's rights take effect at once. */
export async function recordOperatorGrant(db: Queryable, userId: number): Promise<void> {
  await insertAdminGrant(db, { userId, kind: 'operator', status: 'approved', effectiveAt: new Date() });
}

/**
 * An admin asks for a user's admin rights (a new user registered as admin, or a user moved to
 * admin): the grant waits for another admin; the user keeps the rights they had. Asking again while
 * one waits is the same grant.
 */
export async function requestAdminGrant(
  db: Queryable,
  actor: Actor,
  userId: number,
  kind: Extract<AdminGrantKind, 'new_user' | 'promotion'>,
  requestId: string,
): Promise<{ id: number; created: boolean }> {
  const waiting = await findPendingGrantOf(db, userId);
  if (waiting) return { id: waiting.id, created: false };
  const id = await insertAdminGrant(db, { userId, kind, status: 'pending', requestedBy: actor.userId });
  await audit(db, 'admin-grant.request', id, byStaff(actor, requestId), { after: { user_id: userId, kind, status: 'pending' } });
  return { id, created: true };
}

type Edge = { userId: number; requestedBy: number | null; decidedBy: number | null };

/** Everyone `start`'s rights come from: who asked for them (and, when `approvers`, who approved), transitively. */
function ancestors(edges: Edge[], start: number, approvers: boolean): Set<number> {
  const found = new Set<number>();
  const queue = [start];
  while (queue.length > 0) {
    const next = queue.pop()!;
    for (const edge of edges) {
      if (edge.userId !== next) continue;
      for (const parent of approvers ? [edge.requestedBy, edge.decidedBy] : [edge.requestedBy]) {
        if (parent !== null && parent !== start && !found.has(parent)) {
          found.add(parent);
          queue.push(parent);
        }
      }
    }
  }
  return found;
}

/**
 * Whether two admins may not be the two persons of one act: the same admin; one's rights asked for
 * or approved by the other, however many grants lie between; or both made, through any chain of
 * accounts, by one admin asking. The grants are few (one per admin ever made): read them all.
 */
export async function adminsTied(db: Queryable, a: number, b: number): Promise<boolean> {
  if (a === b) return true;
  const edges = await givenGrantEdges(db);
  if (ancestors(edges, a, true).has(b) || ancestors(edges, b, true).has(a)) return true;
  const madeA = ancestors(edges, a, false).add(a);
  return [...ancestors(edges, b, false).add(b)].some((maker) => madeA.has(maker));
}

/** When the admin's cooling-off period ends, while it runs (a grant through the web, `admin_cooling_off_days`); else null. */
export async function adminCoolingOffUntil(db: Queryable, userId: number): Promise<Date | null> {
  return coolingOffUntil(db, userId, await getSetting(db, 'admin_cooling_off_days'));
}

/** The end of a cooling-off period as staff read it: Nairobi date and time. */
export function coolingOffEnd(until: Date): string {
  return until.toLocaleString('en-GB', { timeZone: 'Africa/Nairobi', dateStyle: 'medium', timeStyle: 'short' });
}

type GrantRow = Awaited<ReturnType<typeof adminGrantsWithNames>>[number];

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

function grantOf(r: GrantRow): AdminGrant {
  return {
    id: r.id,
    user_id: r.userId,
    user_name: r.userName,
    user_email: r.userEmail,
    user_phone: r.userPhone,
    kind: r.kind,
    status: r.status,
    requested_by_id: r.requestedById,
    requested_by: r.requestedBy,
    requested_at: iso(r.requestedAt)!,
    decided_by: r.decidedBy,
    decided_at: iso(r.decidedAt),
  };
}

export async function shownGrant(db: Queryable, id: number): Promise<AdminGrant> {
  const [row] = await adminGrantsWithNames(db, { id });
  if (!row) throw notFound(adminGrantTexts.noSuchGrant);
  return grantOf(row);
}

/**
 * The Users screen's and the dashboard's alert: grants waiting, and those decided within the
 * cooling-off days (an admin just made stays in view while they may not approve yet).
 */
export async function adminGrantsOverview(db: Queryable): Promise<{ pending: AdminGrant[]; recent: AdminGrant[]; recent_days: number }> {
  const days = await getSetting(db, 'admin_cooling_off_days');
  const since = new Date(Date.now() - days * 86_400_000);
  const [pending, recent] = await Promise.all([adminGrantsWithNames(db, { pending: true }), adminGrantsWithNames(db, { decidedSince: since })]);
  return { pending: pending.map(grantOf), recent: recent.map(grantOf), recent_days: days };
}

/** For the metrics: grants waiting, and the web's grant steps so far (asked, approved, declined). */
export async function adminGrantFigures(db: Queryable): Promise<{ pending: number; requested: number; approved: number; declined: number }> {
  const byStatus = new Map((await adminGrantCounts(db)).map((r) => [r.status, r.n]));
  const n = (status: string) => byStatus.get(status) ?? 0;
  return {
    pending: n('pending'),
    requested: n('pending') + n('approved') + n('declined') + n('cancelled'),
    approved: n('approved'),
    declined: n('declined'),
  };
}

