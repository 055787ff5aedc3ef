import type { FixtureStatus, SelectionResult } from '@betdesk/contract';
import type { FixtureScore } from '../../db/schema/feed.ts';

/**
 * The result the feed proposes for a leg (decision 070), from the fixture's state. Markets settle on
 * the 90-minute score (stoppage time included): never on a score with extra time or penalties, as
 * bookmakers settle 1X2, double chance, both teams to score and totals. A market the rules below do
 * not know, or a finished fixture without a 90-minute score, proposes nothing: staff enter it.
 */
export interface Proposal {
  result: SelectionResult;
  basis: string;
}

export interface VoidClocks {
  postponedHours: number;
  abandonedHours: number;
  cancelledHours: number;
}

const HOUR = 3_600_000;

/** A leg's result on a 90-minute score, or null when the market or pick is not one the feed settles. */
export function settleOnScore(market: string, pick: string, home: number, away: number): SelectionResult | null {
  const p = pick.trim();
  switch (market.trim().toLowerCase()) {
    case '1x2': {
      const outcome = home > away ? '1' : home < away ? '2' : 'X';
      if (!['1', 'X', '2'].includes(p.toUpperCase())) return null;
      return p.toUpperCase() === outcome ? 'won' : 'lost';
    }
    case 'double chance': {
      const outcome = home > away ? '1' : home < away ? '2' : 'X';
      const covers: Record<string, string[]> = { '1X': ['1', 'X'], '12': ['1', '2'], X2: ['X', '2'] };
      const covered = covers[p.toUpperCase()];
      if (!covered) return null;
      return covered.includes(outcome) ? 'won' : 'lost';
    }
    case 'both teams to score': {
      const both = home > 0 && away > 0;
      if (!/^(yes|no)$/i.test(p)) return null;
      return (p.toLowerCase() === 'yes') === both ? 'won' : 'lost';
    }
    case 'total goals': {
      const m = /^(over|under)\s+(\d+(?:\.\d+)?)$/i.exec(p);
      if (!m) return null;
      const line = Number(m[2]);
      const goals = home + away;
      // A whole line (Over 2) that lands exactly is void; quarter lines are not settled here.
      if (!Number.isInteger(line * 2)) return null;
      if (goals === line) return 'void';
      const over = goals > line;
      return (m[1]!.toLowerCase() === 'over') === over ? 'won' : 'lost';
    }
    default:
      return null;
  }
}

/** What the feed proposes for a leg now, or null (nothing yet, or manual entry). */
export function proposeResult(
  leg: { market: string; pick: string },
  fixture: { status: FixtureStatus; providerStatus: string; statusSince: Date; score: FixtureScore | null },
  clocks: VoidClocks,
  now = Date.now(),
): Proposal | null {
  const since = now - new Date(fixture.statusSince).getTime();
  switch (fixture.status) {
    case 'finished': {
      const regular = fixture.score?.regular;
      if (!regular || regular.home === null || regular.away === null) return null;
      const result = settleOnScore(leg.market, leg.pick, regular.home, regular.away);
      if (!result) return null;
      const after = fixture.providerStatus === 'AET' ? ' (extra time not counted)' : fixture.providerStatus === 'PEN' ? ' (extra time and penalties not counted)' : '';
      return { result, basis: `90-minute score ${regular.home}-${regular.away}${after}` };
    }
    case 'postponed':
      return since >= clocks.postponedHours * HOUR ? { result: 'void', basis: `Postponed ${clocks.postponedHours} h ago and not played: void` } : null;
    case 'abandoned':
    case 'suspended':
      return since >= clocks.abandonedHours * HOUR
        ? { result: 'void', basis: `${fixture.status === 'abandoned' ? 'Abandoned' : 'Suspended'} ${clocks.abandonedHours} h ago and not finished: void` }
        : null;
    case 'cancelled':
      return since >= clocks.cancelledHours * HOUR ? { result: 'void', basis: 'Cancelled: void' } : null;
    // An awarded match (AWD, WO) is settled as each bookmaker's rules say: staff enter it.
    default:
      return null;
  }
}

/** CLV in percent, one decimal: odds taken ÷ closing odds − 1. */
export function clvPercent(oddsHundredths: number, closingHundredths: number | null): number | null {
  if (closingHundredths === null || closingHundredths <= 0) return null;
  return Math.round((oddsHundredths / closingHundredths - 1) * 1000) / 10;
}
