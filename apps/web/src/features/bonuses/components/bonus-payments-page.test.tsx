import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils.tsx';
import { BonusPaymentsPage } from './bonus-payments-page.tsx';

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(560);
  fetchMock.mockReset();
  fetchMock.mockImplementation(async () =>
    jsonResponse(200, { total_bonus: 600, paid_bonus: 100, pending_bonus: 500, total_records: 0, bonuses: [] }),
  );
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const open = (url: string) =>
  renderWithProviders(
    <MemoryRouter initialEntries={[url]}>
      <BonusPaymentsPage />
    </MemoryRouter>,
  );

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
