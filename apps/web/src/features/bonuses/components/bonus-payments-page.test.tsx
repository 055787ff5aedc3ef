import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { answerRequests, jsonResponse, renderAt } from '@/testing/test-utils.tsx';
import { BonusPaymentsPage } from './bonus-payments-page.tsx';

const fetchMock = answerRequests(
  () => jsonResponse(200, { total_bonus: 600, paid_bonus: 100, pending_bonus: 500, total_records: 0, bonuses: [] }),
  { tableHeight: 560 },
);

const open = (url: string) => renderAt(url, <BonusPaymentsPage />);

describe('Bonus Payments totals', () => {
  it('says the boxes cover the chosen days, paid being what was paid in them', async () => {
    open('/bonuses/paid?from=2026-11-19&to=2026-11-25');
    expect(await screen.findByText('Paid in these days')).toBeInTheDocument();
    expect(screen.getByText('Bonus earned in these days')).toBeInTheDocument();
    expect(screen.getByText('Unpaid of bonus earned in these days')).toBeInTheDocument();
    expect(String(fetchMock.mock.calls[0]?.[0])).toContain('from=2026-11-19');
  });

  it('says all time without days', async () => {
    open('/bonuses/paid');
    expect(await screen.findByText('Paid bonus, all time')).toBeInTheDocument();
    expect(screen.queryByTestId('date-range-note')).not.toBeInTheDocument();
  });
});
