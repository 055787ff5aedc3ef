import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { TestApp } from '../helpers.ts';
import { tipsApp, type TipsReference } from '../tips-fixtures/reference.ts';

let t: TestApp, ref: TipsReference, staff: string;

const HOUR = 3_600_000;
const KICKOFF = new Date(Date.now() + 6 * HOUR).toISOString();
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const leg = (home: string, odds: number) => ({
  home,
  away: 'Chelsea',
  competition: 'Premier League',
  kickoff: KICKOFF,
  market: 'Over 1.5',
  pick: 'Over 1.5',
  odds,
});
const store = (matchDate: string, legs: Record<string, unknown>[]) =>
  t.as(staff, { method: 'POST', url: '/api/tips/tickets/store', payload: { bet_category_id: ref.d2, match_date: matchDate, selections: legs } });

beforeAll(async () => {
  ({ t, ref, staff } = await tipsApp());
});
afterAll(() => t.close());

describe('the public proof: a hash chain over publications (decision 071)', () => {
  it('links every publication to the one before, a replacement included, and shows the head and each ticket’s proof', async () => {
    const first = (await store('2030-05-01', [leg('Arsenal', 1.5)])).json().ticket;
    await store('2030-05-02', [leg('Leeds', 1.6)]);
    // Replaced before kick-off: a new link, the old one stays.
    await store('2030-05-02', [leg('Leeds', 1.7)]);
    // Stored again unchanged: no new link.
    await store('2030-05-02', [leg('Leeds', 1.7)]);

    const csv = await t.as(null, { method: 'GET', url: '/portal/record.csv' });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.split('\r\n')[0]).toBe('Link,Ticket,Previous hash,Hash,Content');

    const links = await t.deps.db.execute(sql`select ticket_id, content, prev_hash, hash from tip_ticket_proofs order by seq`);
    const chain = (links as unknown as { rows: { ticket_id: number; content: string; prev_hash: string; hash: string }[] }).rows;
    expect(chain).toHaveLength(3);
    let previous = '0'.repeat(64);
    for (const link of chain) {
      expect(link.prev_hash).toBe(previous);
      expect(link.hash).toBe(sha256(`${link.prev_hash}\n${link.content}`));
      previous = link.hash;
    }
    expect(JSON.parse(chain[0]!.content)).toMatchObject({ ticket: first.id, code: 'D2', match_date: '2030-05-01', legs: [{ home: 'Arsenal', odds: '1.50', fixture: null }] });
    expect(JSON.parse(chain[2]!.content).legs[0].odds).toBe('1.70');

    // Settled, the ticket is listed publicly with its proof and the chain's head.
    await t.deps.db.execute(sql`update tip_selections set kickoff_at = now() - interval '2 hours' where ticket_id = ${first.id}`);
    await t.deps.db.execute(sql`update tip_tickets set published_at = now() - interval '3 hours', first_kickoff_at = now() - interval '2 hours' where id = ${first.id}`);
    await t.deps.db.execute(sql`update tip_selections set result = 'won' where ticket_id = ${first.id}`);
    const record = (await t.as(null, { method: 'GET', url: `/api/portal/record?bet_category_id=${ref.d2}` })).json();
    expect(record.chain_head).toBe(previous);
    expect(record.tickets[0]).toMatchObject({ id: first.id, proof: { hash: chain[0]!.hash, previous_hash: '0'.repeat(64), content: chain[0]!.content } });
    expect(record.tickets[0].selections[0]).toMatchObject({ verified: false, clv: null });
  });
});
