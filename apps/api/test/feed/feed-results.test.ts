import { describe, expect, it } from 'vitest';
import { clvPercent, proposeResult, settleOnScore } from '../../src/modules/tips-record/feed-results.ts';
import { medianOf, pickPrice } from '../../src/modules/feed/service.ts';
import { toFixture, toPrices, seasonOf, seasonsOf } from '../../src/integrations/sports-feed/api-football.ts';
import { computeRecord } from '../../src/modules/tips-record/settlement.ts';

const clocks = { postponedHours: 72, abandonedHours: 36, cancelledHours: 0 };
const HOUR = 3_600_000;
const score = (home: number, away: number) => ({
  halftime: { home: 0, away: 0 },
  regular: { home, away },
  extraTime: { home: null, away: null },
  penalties: { home: null, away: null },
});

describe('settling a leg on the 90-minute score (decision 070)', () => {
  it('settles 1X2, double chance, both teams to score and totals as bookmakers do', () => {
    expect(settleOnScore('1X2', '1', 2, 1)).toBe('won');
    expect(settleOnScore('1X2', 'x', 1, 1)).toBe('won');
    expect(settleOnScore('1X2', '2', 2, 1)).toBe('lost');
    expect(settleOnScore('Double chance', 'X2', 1, 1)).toBe('won');
    expect(settleOnScore('Double chance', '12', 0, 0)).toBe('lost');
    expect(settleOnScore('Both teams to score', 'Yes', 1, 0)).toBe('lost');
    expect(settleOnScore('Both teams to score', 'No', 3, 0)).toBe('won');
    expect(settleOnScore('Total goals', 'Over 2.5', 2, 1)).toBe('won');
    expect(settleOnScore('Total goals', 'Under 1.5', 1, 1)).toBe('lost');
    // A whole line that lands exactly gives the stake back.
    expect(settleOnScore('Total goals', 'Over 2', 1, 1)).toBe('void');
  });

  it('leaves a market or pick it does not know, and quarter lines, to staff', () => {
    expect(settleOnScore('Correct score', '1-0', 1, 0)).toBeNull();
    expect(settleOnScore('1X2', 'Home', 1, 0)).toBeNull();
    expect(settleOnScore('Total goals', 'Over 2.25', 3, 0)).toBeNull();
  });

  it('never counts extra time or penalties', () => {
    const fixture = { status: 'finished' as const, providerStatus: 'PEN', statusSince: new Date(), score: score(0, 0) };
    expect(proposeResult({ market: '1X2', pick: 'X' }, fixture, clocks)).toEqual({ result: 'won', basis: '90-minute score 0-0 (extra time and penalties not counted)' });
  });

  it('voids postponed, abandoned and cancelled fixtures after their clocks, and leaves awarded ones to staff', () => {
    const leg = { market: '1X2', pick: '1' };
    const now = Date.now();
    const at = (status: 'postponed' | 'abandoned' | 'cancelled' | 'awarded', hoursAgo: number) => ({ status, providerStatus: '', statusSince: new Date(now - hoursAgo * HOUR), score: null });
    expect(proposeResult(leg, at('postponed', 71), clocks, now)).toBeNull();
    expect(proposeResult(leg, at('postponed', 72), clocks, now)?.result).toBe('void');
    expect(proposeResult(leg, at('abandoned', 35), clocks, now)).toBeNull();
    expect(proposeResult(leg, at('abandoned', 36), clocks, now)?.result).toBe('void');
    expect(proposeResult(leg, at('cancelled', 0), clocks, now)?.result).toBe('void');
    expect(proposeResult(leg, at('awarded', 100), clocks, now)).toBeNull();
  });

  it('computes CLV as odds taken over closing odds less one, and its mean in the record', () => {
    expect(clvPercent(250, 200)).toBe(25);
    expect(clvPercent(180, 200)).toBe(-10);
    expect(clvPercent(180, null)).toBeNull();
    const record = computeRecord(
      [{ match_date: '2026-11-01', combined_odds: 2.5, legs: [{ odds: 2.5, result: 'won', clv: 25, verified: true }, { odds: 1, result: 'void', clv: -10, verified: false }] }],
      { from: null, to: null },
    );
    expect(record).toMatchObject({ average_clv: 7.5, unverified_legs: 1 });
  });
});

describe("API-Football's shapes", () => {
  it('maps a fixture finished after extra time: the 90-minute score is score.fulltime, not goals', () => {
    const f = toFixture({
      fixture: { id: 7, date: '2026-12-01T19:45:00+00:00', status: { short: 'AET' } },
      league: { id: 2, name: 'UEFA Champions League', country: 'World' },
      teams: { home: { name: 'A' }, away: { name: 'B' } },
      goals: { home: 2, away: 1 },
      score: { halftime: { home: 0, away: 0 }, fulltime: { home: 1, away: 1 }, extratime: { home: 1, away: 0 }, penalty: { home: null, away: null } },
    });
    expect(f).toMatchObject({ id: '7', status: 'finished', providerStatus: 'AET', score: { regular: { home: 1, away: 1 }, extraTime: { home: 1, away: 0 } } });
  });

  it("maps the bookmakers' bets onto Betdesk's markets and takes the named bookmaker or the median", () => {
    const prices = toPrices([
      {
        fixture: { id: 7 },
        bookmakers: [
          { id: 8, name: 'Bet365', bets: [{ id: 1, name: 'Match Winner', values: [{ value: 'Home', odd: '2.10' }, { value: 'Draw', odd: '3.30' }] }, { id: 99, name: 'Exotic', values: [{ value: 'x', odd: '9' }] }] },
          { id: 11, name: '1xBet', bets: [{ id: 1, name: 'Match Winner', values: [{ value: 'Home', odd: '2.20' }] }, { id: 5, name: 'Goals Over/Under', values: [{ value: 'Over 2.5', odd: '1.85' }] }] },
        ],
      },
    ]);
    expect(prices).toEqual([
      { bookmaker: 'Bet365', market: '1X2', selection: '1', oddsHundredths: 210 },
      { bookmaker: 'Bet365', market: '1X2', selection: 'X', oddsHundredths: 330 },
      { bookmaker: '1xBet', market: '1X2', selection: '1', oddsHundredths: 220 },
      { bookmaker: '1xBet', market: 'Total goals', selection: 'Over 2.5', oddsHundredths: 185 },
    ]);
    expect(pickPrice(prices, '1X2', '1', '')).toEqual({ oddsHundredths: 215, source: 'feed:median' });
    expect(pickPrice(prices, '1X2', '1', 'bet365')).toEqual({ oddsHundredths: 210, source: 'feed:Bet365' });
    expect(pickPrice(prices, '1X2', '2', '')).toBeNull();
    expect(medianOf([300, 100, 200])).toBe(200);
  });

  it('names the season by the year it starts', () => {
    expect(seasonOf('2026-12-02')).toBe(2026);
    expect(seasonOf('2027-03-01')).toBe(2026);
  });

  it("names a calendar-year league's season by the year, and asks for both seasons of a window across a season's start", () => {
    expect(seasonOf('2027-03-01', true)).toBe(2027);
    expect(seasonOf('2026-12-02', true)).toBe(2026);
    expect(seasonsOf('2026-12-29', '2027-01-05', true)).toEqual([2026, 2027]);
    expect(seasonsOf('2026-12-29', '2027-01-05')).toEqual([2026]);
    expect(seasonsOf('2027-06-28', '2027-07-05')).toEqual([2026, 2027]);
    expect(seasonsOf('2027-06-28', '2027-07-05', true)).toEqual([2027]);
  });
});
