import { FigureBoxes } from '@/components/figure-boxes.tsx';
import { formatMoney } from '@/lib/format.ts';

/** The admin-only totals boxes of the bonus screens (absent from staff answers). */
export function BonusTotals({ totals }: { totals: { total_bonus?: number; paid_bonus?: number; pending_bonus?: number } | undefined }) {
  if (totals?.total_bonus === undefined) return null;
  return (
    <FigureBoxes
      figures={[
        { label: 'Total bonus', value: formatMoney(totals.total_bonus) },
        { label: 'Paid bonus', value: formatMoney(totals.paid_bonus), color: 'green.8' },
        { label: 'Unpaid bonus', value: formatMoney(totals.pending_bonus), color: 'red.8', testId: 'total-pending-bonus' },
      ]}
    />
  );
}
