import {
  can,
  centsToKes,
  formatKes,
  localPhone,
  normaliseKenyanPhone,
  SEARCH_MIN_NAME_LENGTH,
  type SearchResult,
} from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import { scopeOf } from '../../db/scope.ts';
import type { Actor } from '../../http/actor.ts';
import { sha256Hex } from '../../lib/crypto.ts';
import * as q from './queries.ts';

/** What a typed text can be: each reading is one bounded lookup (decision 067). */
interface Reading {
  /** A Kenyan mobile in any form (07…, 7…, 2547…, +254 7…), as stored: 2547XXXXXXXX. */
  phone: string | null;
  /** An M-Pesa receipt's first characters: letters and digits, at least one letter, four or more. */
  receipt: string | null;
  /** A bet, refund or invoice number. */
  number: number | null;
  /** The first letters of a name. */
  name: string | null;
}

export function readQuery(text: string): Reading {
  const compact = text.replace(/[\s-]/g, '');
  const phone = /^\+?\d{9,12}$/.test(compact) ? normaliseKenyanPhone(compact) : null;
  const receipt = /^[A-Za-z0-9]{4,12}$/.test(compact) && /[A-Za-z]/.test(compact) ? compact.toUpperCase() : null;
  const number = /^\d{1,9}$/.test(compact) ? Number(compact) : null;
  const trimmed = text.trim().replace(/\s+/g, ' ');
  const name = /\p{L}/u.test(trimmed) && trimmed.length >= SEARCH_MIN_NAME_LENGTH ? trimmed : null;
  return { phone, receipt, number, name };
}

const money = (cents: string | number | null) => (cents === null ? '' : formatKes(centsToKes(cents)));

/**
 * One search for anything (decision 067): receipts, phones, clients, tips subscribers, bets, refunds
 * and invoices, each kind a bounded indexed lookup, within what the actor may see: a staff member
 * finds their own clients and their bets (the scope of `db/scope.ts`), tips subscribers (who have no
 * owner), and no payment, refund or invoice (admins' screens).
 */
export async function searchAnything(db: Queryable, actor: Actor, text: string): Promise<{ q: string; results: SearchResult[] }> {
  const scope = scopeOf(actor);
  const reading = readQuery(text);
  const phoneHash = reading.phone ? sha256Hex(reading.phone) : null;
  const mayPayments = can(actor.role, 'view:mpesa');
  const results: SearchResult[] = [];

  if (mayPayments && (reading.receipt || reading.phone)) {
    const payments = await q.paymentsFound(
      db,
      scope,
      reading.receipt ? { receipt: reading.receipt } : { phone: reading.phone!, phoneHash: phoneHash! },
    );
    for (const p of payments) {
      results.push({
        kind: 'payment',
        id: Number(p.id),
        label: p.trans_id,
        detail: [money(p.amount_cents), p.sender_name, p.status].filter(Boolean).join(' · '),
        href: `/mpesa?search=${encodeURIComponent(p.trans_id)}`,
      });
    }
  }
  if (reading.phone || reading.name) {
    const found = await q.clientsFound(db, scope, reading.phone ? { phone: reading.phone } : { name: reading.name! });
    for (const c of found) {
      results.push({ kind: 'client', id: Number(c.id), label: c.name, detail: `Client · ${localPhone(c.phone)}`, href: `/clients/${c.id}` });
    }
  }
  if (can(actor.role, 'manage:tips-subscribers') && (reading.phone || reading.name)) {
    const found = await q.subscribersFound(db, reading.phone ? { phoneHash: phoneHash! } : { name: reading.name! });
    for (const s of found) {
      results.push({
        kind: 'subscriber',
        id: Number(s.id),
        label: s.name,
        detail: `Tips subscriber · ${localPhone(s.phone)}`,
        href: `/tips/subscribers/view/${s.id}`,
      });
    }
  }
  if (reading.number !== null) {
    for (const b of await q.betFound(db, scope, reading.number)) {
      results.push({
        kind: 'bet',
        id: Number(b.id),
        label: `Bet ${b.id}`,
        detail: `${b.client_name} · ${b.status} · ${b.description}`,
        href: `/clients/${b.client_id}`,
      });
    }
    if (can(actor.role, 'manage:refunds')) {
      for (const r of await q.refundFound(db, reading.number)) {
        results.push({
          kind: 'refund',
          id: Number(r.id),
          label: `Refund ${r.id}`,
          detail: [money(r.amount_cents), r.trans_id, r.status.replace(/_/g, ' ')].filter(Boolean).join(' · '),
          href: `/refunds?status=${r.status}`,
        });
      }
    }
    if (can(actor.role, 'manage:tax')) {
      for (const t of await q.invoicesFound(db, reading.number)) {
        results.push({
          kind: 'invoice',
          id: Number(t.id),
          label: `${t.kind === 'invoice' ? 'Invoice' : 'Credit note'} ${t.branch_id}-${t.number}`,
          detail: [money(t.amount_cents), t.status].join(' · '),
          href: '/tax',
        });
      }
    }
  }
  return { q: text, results };
}
