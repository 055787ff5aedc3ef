import { expect } from 'vitest';
import { sql } from 'drizzle-orm';
import type { TestApp } from '../helpers.ts';

export interface PlayedLeg {
  home: string;
  away: string;
  odds: number;
}

/**
 * Stores a category's ticket of a match day, lets its kick-offs pass (publication included, so it
 * counts) and enters one result per leg: a settled ticket as the record reads it.
 */
export async function playedTicket(
  t: TestApp,
  token: string,
  ticket: { betCategoryId: number; matchDate: string; legs: PlayedLeg[]; results: string[] },
): Promise<{ id: number; selections: { id: number }[] }> {
  const kickoff = new Date(Date.now() + 3_600_000).toISOString();
  const stored = await t.as(token, {
    method: 'POST',
    url: '/api/tips/tickets/store',
    payload: {
      bet_category_id: ticket.betCategoryId,
      match_date: ticket.matchDate,
      selections: ticket.legs.map((l) => ({ ...l, competition: 'Premier League', market: '1X2', pick: '1', kickoff })),
    },
  });
  expect(stored.statusCode).toBe(200);
  const saved = stored.json().ticket as { id: number; selections: { id: number }[] };
  const shift = sql`make_interval(hours => 2)`;
  await t.deps.db.execute(sql`update tip_selections set kickoff_at = kickoff_at - ${shift} where ticket_id = ${saved.id}`);
  await t.deps.db.execute(
    sql`update tip_tickets set published_at = published_at - ${shift}, first_kickoff_at = first_kickoff_at - ${shift} where id = ${saved.id}`,
  );
  const entered = await t.as(token, {
    method: 'POST',
    url: '/api/tips/tickets/results',
    payload: { results: ticket.results.map((result, i) => ({ selection_id: saved.selections[i]!.id, result })) },
  });
  expect(entered.statusCode).toBe(200);
  return saved;
}
