import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderWithProviders } from '@/testing/test-utils.tsx';
import { ClosedMonthBanner, monthName } from './closed-month-banner.tsx';

/**
 * A closed month's banner (decision 075) on the Tax screen's month and the money bridge.
 * Lives in: apps/web/src/components/closed-month-banner.test.tsx
 */
describe('a closed month’s banner', () => {
  it('names the month and the return’s reference', () => {
    renderWithProviders(<ClosedMonthBanner closed={{ month: '2026-11', return_reference: 'VAT3-0042', closed_at: '2026-12-03T06:00:00.000Z' }} testId="closed" />);
    expect(screen.getByTestId('closed')).toHaveTextContent('November 2026 is closed (return reference VAT3-0042)');
  });

  it('shows nothing for an open month', () => {
    renderWithProviders(<ClosedMonthBanner closed={null} testId="closed" />);
    expect(screen.queryByTestId('closed')).toBeNull();
    expect(monthName('2027-01')).toBe('January 2027');
  });
});
