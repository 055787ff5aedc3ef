import type { SelectionResult, TicketStatus, TrackRecord } from '@betdesk/contract';

/**
 * The settlement and record formulas of decision 020, pure so that a unit test pins each one. A ticket
 * is an accumulator staked at 1 unit; each leg multiplies the return as bookmakers settle it.
 */

export interface Leg {
  odds: number;
  result: SelectionResult | null;
  /** Closing line value in percent (decision 070); null or absent: no closing odds. */
  clv?: number | null;
  /** Checked against the feed when published; absent counts as verified (a bare leg of a unit test). */
  verified?: boolean;
}

/**
 * What one leg multiplies the ticket's return by: won pays its odds, lost nothing, void 1.00; a
 * half-won Asian line is half stake won and half refunded ((odds + 1) / 2), half-lost is half refunded.
 */
export function legFactor(leg: { odds: number; result: SelectionResult }): number {
  switch (leg.result) {
    case 'won':
      return leg.odds;
    case 'lost':
      return 0;
    case 'void':
      return 1;
    case 'half_won':
      return (leg.odds + 1) / 2;
    case 'half_lost':
      return 0.5;
  }
}

export interface Settlement {
  status: TicketStatus;
  /** Return less the 1-unit stake; null while a leg has no result. */
  profit: number | null;
}

/**
 * A ticket is settled when every leg has a result. Its profit is the product of the leg factors
 * less the stake; it is won when that is positive (no leg lost), lost when negative (a lost leg, or
 * half-lost legs the others do not make up for), void when the stake comes back exactly (all void).
 */
export function settleTicket(legs: readonly Leg[]): Settlement {
  if (legs.length === 0 || legs.some((l) => l.result === null)) return { status: 'pending', profit: null };
  const payout = legs.reduce((product, l) => product * legFactor({ odds: l.odds, result: l.result! }), 1);
  // Payouts are money: compare at a hundredth of a hundredth of a unit, not at floating-point noise.
  const profit = Math.round((payout - 1) * 10_000) / 10_000;
  return { status: profit > 0 ? 'won' : profit < 0 ? 'lost' : 'void', profit };
}

export interface RecordTicket {
  match_date: string;
  combined_odds: number;
  legs: readonly Leg[];
}

const round = (n: number, decimals: number) => {
  const f = 10 ** decimals;
  return Math.round(n * f) / f;
};

/**
 * The Wilson score interval of a proportion (`successes` of `trials`) at the normal quantile `z`
 * (1.96: 95 %), as fractions: unlike the plain p ± z·SE it stays within 0–1 and is honest for a
 * small sample or a rate near 0 or 1, which a short tips record is. Null without trials.
 */
export function wilsonInterval(successes: number, trials: number, z = 1.96): { low: number; high: number } | null {
  if (trials <= 0) return null;
  const p = successes / trials;
  const z2 = z * z;
  const denominator = 1 + z2 / trials;
  const centre = (p + z2 / (2 * trials)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/**
 * The record of tickets that count (published before their first kick-off), given in the order
 * they were played (match date, first kick-off). Rates are percentages with one decimal.
 */
/** The 95 % Wilson interval of the hit rate in percent with one decimal. */
function hitRateInterval(won: number, decided: number): TrackRecord['hit_rate_interval'] {
  const interval = wilsonInterval(won, decided);
  return interval && { low: round(interval.low * 100, 1), high: round(interval.high * 100, 1) };
}

export function computeRecord(
  tickets: readonly RecordTicket[],
  period: { from: string | null; to: string | null },
): TrackRecord {
  let won = 0;
  let lost = 0;
  let voided = 0;
  let profit = 0;
  let oddsSum = 0;
  let longestWin = 0;
  let longestLoss = 0;
  let streak = 0;
  const curve: TrackRecord['profit_curve'] = [];
  let clvSum = 0;
  let clvLegs = 0;
  let unverified = 0;
  for (const ticket of tickets) {
    for (const leg of ticket.legs) {
      if (leg.clv !== undefined && leg.clv !== null) {
        clvSum += leg.clv;
        clvLegs += 1;
      }
      if (leg.verified === false) unverified += 1;
    }
    const { status, profit: ticketProfit } = settleTicket(ticket.legs);
    if (status === 'pending') continue;
    oddsSum += ticket.combined_odds;
    profit += ticketProfit!;
    const last = curve.at(-1);
    if (last && last.match_date === ticket.match_date) last.profit_units = profit;
    else curve.push({ match_date: ticket.match_date, profit_units: profit });
    // A void ticket neither extends nor breaks a streak.
    if (status === 'void') {
      voided += 1;
    } else if (status === 'won') {
      won += 1;
      streak = streak > 0 ? streak + 1 : 1;
      longestWin = Math.max(longestWin, streak);
    } else {
      lost += 1;
      streak = streak < 0 ? streak - 1 : -1;
      longestLoss = Math.max(longestLoss, -streak);
    }
  }
  const settled = won + lost + voided;
  const decided = won + lost;
  return {
    tickets: tickets.length,
    settled,
    won,
    lost,
    void: voided,
    pending: tickets.length - settled,
    hit_rate: decided === 0 ? null : round((won / decided) * 100, 1),
    hit_rate_interval: hitRateInterval(won, decided),
    average_odds: settled === 0 ? null : round(oddsSum / settled, 2),
    profit_units: round(profit, 2),
    roi: settled === 0 ? null : round((profit / settled) * 100, 1),
    longest_win_streak: longestWin,
    longest_losing_streak: longestLoss,
    current_streak: streak,
    from: period.from,
    to: period.to,
    profit_curve: curve.map((point) => ({ ...point, profit_units: round(point.profit_units, 2) })),
    average_clv: clvLegs === 0 ? null : round(clvSum / clvLegs, 1),
    unverified_legs: unverified,
  };
}
