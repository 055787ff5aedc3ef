import { FigureBoxes } from '@/components/figure-boxes.tsx';
import { formatMoney } from '@/lib/format.ts';

type Screen = 'bonuses' | 'payments';

/**
 * What each box counts, so a figure is never read as something else: all time without days; with
 * days, the bonus list counts the bonuses earned in them, the payments screen what was paid in them
 * (its rows) beside the bonuses earned in them.
 */
export function bonusTotalLabels(screen: Screen, ranged: boolean): [string, string, string] {
  if (!ranged) return ['Total bonus, all time', 'Paid bonus, all time', 'Unpaid bonus, all time'];
  if (screen === 'payments') return ['Bonus earned in these days', 'Paid in these days', 'Unpaid of bonus earned in these days'];
  return ['Bonus earned in these days', 'Paid of it', 'Unpaid of it'];
}

/** The admin-only totals boxes of the bonus screens (absent from staff answers). */
export function BonusTotals({
  totals,
  screen,
  ranged,
}: {
  totals: { total_bonus?: number; paid_bonus?: number; pending_bonus?: number } | undefined;
  screen: Screen;
  ranged: boolean;
}) {
  if (totals?.total_bonus === undefined) return null;
  const [total, paid, unpaid] = bonusTotalLabels(screen, ranged);
  return (
    <FigureBoxes
      figures={[
        { label: total, value: formatMoney(totals.total_bonus) },
        { label: paid, value: formatMoney(totals.paid_bonus), color: 'green.8' },
        { label: unpaid, value: formatMoney(totals.pending_bonus), color: 'red.8', testId: 'total-pending-bonus' },
      ]}
    />
  );
}
