import { describe, expect, it } from 'vitest';
import { combinedOdds, ticketSmsText } from '@betdesk/contract';
import { computeRecord, legFactor, settleTicket, wilsonInterval, type RecordTicket } from '../../src/modules/tips-record/settlement.ts';

const period = { from: '2026-11-01', to: '2026-11-30' };

describe('settling a leg as bookmakers do', () => {
  it('pays the odds on a win, nothing on a loss and the stake back on a void', () => {
    expect(legFactor({ odds: 1.8, result: 'won' })).toBe(1.8);
    expect(legFactor({ odds: 1.8, result: 'lost' })).toBe(0);
    expect(legFactor({ odds: 1.8, result: 'void' })).toBe(1);
  });

  it('settles half-won as half at the odds and half refunded, half-lost as half refunded', () => {
    // 1.90 half won: 0.5 x 1.90 + 0.5 = 1.45
    expect(legFactor({ odds: 1.9, result: 'half_won' })).toBeCloseTo(1.45, 10);
    expect(legFactor({ odds: 1.9, result: 'half_lost' })).toBe(0.5);
  });
});

describe('settling a ticket', () => {
  it('stays pending while one leg has no result', () => {
    expect(settleTicket([{ odds: 1.5, result: 'won' }, { odds: 1.4, result: null }])).toEqual({ status: 'pending', profit: null });
  });

  it('wins a double at the product of its odds', () => {
    // 1.35 x 1.52 = 2.052 -> profit 1.052
    expect(settleTicket([{ odds: 1.35, result: 'won' }, { odds: 1.52, result: 'won' }])).toEqual({ status: 'won', profit: 1.052 });
  });

  it('counts a void leg at 1.00', () => {
    // 1.35 x 1.00 = 1.35
    expect(settleTicket([{ odds: 1.35, result: 'won' }, { odds: 2.1, result: 'void' }])).toEqual({ status: 'won', profit: 0.35 });
  });

  it('loses the whole ticket on one lost leg', () => {
    expect(settleTicket([{ odds: 1.35, result: 'won' }, { odds: 1.5, result: 'lost' }])).toEqual({ status: 'lost', profit: -1 });
  });

  it('gives the stake back when every leg is void', () => {
    expect(settleTicket([{ odds: 1.35, result: 'void' }, { odds: 1.5, result: 'void' }])).toEqual({ status: 'void', profit: 0 });
  });

  it('settles half results into the accumulator', () => {
    // half won 1.90 -> 1.45; x won 2.00 -> 2.90 -> profit 1.90
    expect(settleTicket([{ odds: 1.9, result: 'half_won' }, { odds: 2, result: 'won' }])).toEqual({ status: 'won', profit: 1.9 });
    // half lost -> 0.5; x won 3.00 -> 1.50 -> profit 0.50: still a winning ticket
    expect(settleTicket([{ odds: 1.9, result: 'half_lost' }, { odds: 3, result: 'won' }])).toEqual({ status: 'won', profit: 0.5 });
    // a single half lost returns 0.50: a losing ticket of -0.50
    expect(settleTicket([{ odds: 1.9, result: 'half_lost' }])).toEqual({ status: 'lost', profit: -0.5 });
  });
});

describe('the record', () => {
  const ticket = (match_date: string, legs: RecordTicket['legs']): RecordTicket => ({
    match_date,
    combined_odds: combinedOdds(legs.map((l) => l.odds)),
    legs,
  });
  // In the order played: W (2.00), L, V, W (1.50 + void), W (half won 1.90), pending
  const played = [
    ticket('2026-11-01', [{ odds: 2, result: 'won' }]),
    ticket('2026-11-02', [{ odds: 1.5, result: 'won' }, { odds: 1.6, result: 'lost' }]),
    ticket('2026-11-03', [{ odds: 1.7, result: 'void' }]),
    ticket('2026-11-03', [{ odds: 1.5, result: 'won' }, { odds: 1.8, result: 'void' }]),
    ticket('2026-11-04', [{ odds: 1.9, result: 'half_won' }]),
    ticket('2026-11-05', [{ odds: 1.4, result: 'won' }, { odds: 1.3, result: null }]),
  ];

  it('computes every figure from the results', () => {
    const record = computeRecord(played, period);
    // profit: +1.00 -1.00 +0 +0.50 +0.45 = 0.95 over 5 settled units; hit rate 3 of 4 decided
    // average odds of settled: (2.00 + 2.40 + 1.70 + 2.70 + 1.90) / 5 = 10.70 / 5 = 2.14
    expect(record).toEqual({
      tickets: 6,
      settled: 5,
      won: 3,
      lost: 1,
      void: 1,
      pending: 1,
      hit_rate: 75,
      // Wilson, 3 of 4 at 95 %: 0.3006 to 0.9544.
      hit_rate_interval: { low: 30.1, high: 95.4 },
      average_odds: 2.14,
      profit_units: 0.95,
      roi: 19,
      longest_win_streak: 2,
      longest_losing_streak: 1,
      current_streak: 2,
      from: '2026-11-01',
      to: '2026-11-30',
      profit_curve: [
        { match_date: '2026-11-01', profit_units: 1 },
        { match_date: '2026-11-02', profit_units: 0 },
        { match_date: '2026-11-03', profit_units: 0.5 },
        { match_date: '2026-11-04', profit_units: 0.95 },
      ],
      average_clv: null,
      unverified_legs: 0,
    });
  });

  it('follows a corrected result', () => {
    // The 04 Nov half won becomes lost: profit 0.50 - 1 = -0.50; 2 of 4 won; streak ends on a loss
    const corrected = played.map((t, i) => (i === 4 ? ticket(t.match_date, [{ odds: 1.9, result: 'lost' }]) : t));
    const record = computeRecord(corrected, period);
    expect(record).toMatchObject({ won: 2, lost: 2, hit_rate: 50, profit_units: -0.5, roi: -10, current_streak: -1 });
    expect(record.longest_losing_streak).toBe(1);
  });

  it('counts losing streaks and rounds rates to one decimal', () => {
    const lose = (d: string) => ticket(d, [{ odds: 1.5, result: 'lost' }]);
    const win = (d: string) => ticket(d, [{ odds: 1.5, result: 'won' }]);
    const record = computeRecord([win('2026-11-01'), lose('2026-11-02'), lose('2026-11-03'), lose('2026-11-04')], period);
    // 1 of 4: 25.0 %; profit 0.5 - 3 = -2.5; ROI -62.5 %
    expect(record).toMatchObject({ hit_rate: 25, profit_units: -2.5, roi: -62.5, longest_losing_streak: 3, current_streak: -3 });
    const third = computeRecord([win('2026-11-01'), lose('2026-11-02'), lose('2026-11-03')], period);
    expect(third.hit_rate).toBe(33.3);
  });

  it('has no rates before anything is settled', () => {
    expect(computeRecord([played[5]!], { from: null, to: null })).toMatchObject({
      tickets: 1,
      pending: 1,
      hit_rate: null,
      average_odds: null,
      roi: null,
      profit_units: 0,
      current_streak: 0,
      profit_curve: [],
    });
  });
});

describe('the SMS text of a ticket', () => {
  it('is compact: the pick alone when it names the market, and the total of a multi', () => {
    const text = ticketSmsText('D2', '2026-11-25', [
      { home: 'Arsenal', away: 'Chelsea', market: 'Over 1.5', pick: 'Over 1.5', odds: 1.35 },
      { home: 'AC Milan', away: 'Roma', market: '1X2', pick: '1', odds: 1.52 },
    ]);
    expect(text).toBe('D2 25/11: Arsenal-Chelsea Over1.5 @1.35; AC Milan-Roma 1 @1.52 Total @2.05');
  });

  it('keeps to GSM characters so that accents do not double the SMS parts', () => {
    expect(ticketSmsText('O15', '2026-11-03', [{ home: 'Atlético', away: 'Sevilla', market: 'GG', pick: 'Yes', odds: 1.7 }])).toBe(
      'O15 03/11: Atletico-Sevilla GG:Yes @1.70',
    );
  });
});

describe('the hit rate with its sample-size note (Wilson score interval, 95 %)', () => {
  // Hand-worked: 7 of 10, z = 1.96: centre (0.7 + 0.19208) / 1.38416 = 0.64449, half-width
  // 1.96 · √(0.021 + 0.009604) / 1.38416 = 0.24772, so 0.39677 to 0.89221.
  it('gives 39.7 % to 89.2 % for 7 won of 10 decided', () => {
    const interval = wilsonInterval(7, 10)!;
    expect(interval.low).toBeCloseTo(0.39677, 4);
    expect(interval.high).toBeCloseTo(0.89221, 4);
  });

  it('stays within 0 to 100 % when nothing was won, and is null with nothing decided', () => {
    // 0 of 5: centre = half-width = 0.19208 / 0.88416 ... = 0.21725 (low 0, high 0.43450).
    expect(wilsonInterval(0, 5)!.low).toBe(0);
    expect(wilsonInterval(0, 5)!.high).toBeCloseTo(0.4345, 4);
    expect(wilsonInterval(0, 0)).toBeNull();
  });

  it('narrows as the sample grows: 70 of 100 is 60.4 % to 78.1 %', () => {
    const interval = wilsonInterval(70, 100)!;
    expect(interval.low).toBeCloseTo(0.6041, 3);
    expect(interval.high).toBeCloseTo(0.7811, 3);
  });

  it('is on the record in percent with one decimal beside the hit rate', () => {
    const tickets: RecordTicket[] = Array.from({ length: 10 }, (_, i) => ({
      match_date: `2026-11-${String(i + 1).padStart(2, '0')}`,
      combined_odds: 1.5,
      legs: [{ odds: 1.5, result: i < 7 ? ('won' as const) : ('lost' as const) }],
    }));
    const record = computeRecord(tickets, { from: null, to: null });
    expect(record.hit_rate).toBe(70);
    expect(record.hit_rate_interval).toEqual({ low: 39.7, high: 89.2 });
    expect(computeRecord([], { from: null, to: null }).hit_rate_interval).toBeNull();
  });
});
