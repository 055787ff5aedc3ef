import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { RETENTION_FORMULAS } from '@betdesk/contract';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils.tsx';
import { ReportsPage } from './reports-page.tsx';

const fetchMock = vi.fn<typeof fetch>();
const period = { period: '2026-01-01', from: '2026-01-01', to: '2026-01-31', ended: 5, renewed: 2, renewal_rate: 0.4, active_at_start: 0, churned: 0, churn_rate: null, income: 600, paying: 3, arpu: 200, net_revenue_retention: null };
const figures = { renewal_rate: 0.4, churn_rate: null, churned: 0, net_revenue_retention: null, arpu: 200, ltv: null, ltv_note: 'Not enough history: lifetime value needs six months of subscriptions', periods: [period] };

beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(560);
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (url) => {
    const u = new URL(String(url), 'http://localhost');
    if (u.pathname === '/api/reports/retention') {
      const split = u.searchParams.get('group_by');
      return jsonResponse(200, {
        from: '2026-01-01', to: '2026-01-31', group: 'month', grace_days: 3, formulas: RETENTION_FORMULAS, ...figures, trials: { started: 4, converted: 1 },
        groups:
          split === 'lever'
            ? [{ key: 'code', label: 'Promo code', ...figures, lever_sales: { sales: 3, income: 200, discount: 100, commission: 0 } }]
            : split
              ? [{ key: '1', label: 'Daily 2 Odds', ...figures }]
              : [],
      });
    }
    const split = u.searchParams.get('group_by');
    if (u.pathname === '/api/reports/cohorts') {
      const cohorts = [{ month: '2026-01-01', size: 3, income: 600, cells: [{ offset: 0, month: '2026-01-01', active: 3, share: 1, income: 600 }, { offset: 1, month: '2026-02-01', active: 1, share: 1 / 3, income: 0 }] }];
      return jsonResponse(200, {
        from: '2026-01-01', to: '2026-02-28', by: 'subscribers', formula: RETENTION_FORMULAS.cohorts, cohorts,
        groups: split ? [{ key: '1', label: 'Daily 2 Odds', cohorts }] : [],
      });
    }
    if (u.pathname === '/api/reports/recovery') {
      const recovery = { failed_by_class: { retry: 2, remind: 1, never: 4 }, retries: 2, reminders: 1, recovered_amount: 100, recovered_payments: 1 };
      return jsonResponse(200, { from: '2026-01-01', to: '2026-01-31', ...recovery, groups: split ? [{ key: '1', label: 'Daily 2 Odds', ...recovery }] : [] });
    }
    return jsonResponse(404, {});
  });
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Reports → Retention', () => {
  it('shows the renewal rate with its formula, "not enough history" for lifetime value, and the cohort grid', async () => {
    renderWithProviders(
      <MemoryRouter initialEntries={['/reports?report=retention&group=month&from=2026-01-01&to=2026-01-31']}>
        <ReportsPage />
      </MemoryRouter>,
    );
    expect(await screen.findByTestId('retention-renewal-rate')).toHaveTextContent('40.0%');
    expect(screen.getByTestId('retention-renewal-rate')).toHaveTextContent(RETENTION_FORMULAS.renewal_rate);
    expect(screen.getByTestId('retention-ltv')).toHaveTextContent('Not enough history');
    expect(screen.getByTestId('retention-trials')).toHaveTextContent('4 started, 1 converted');
    const grid = await screen.findByTestId('cohort-table');
    expect(await within(grid).findByText('33.3%')).toBeInTheDocument();
    expect(await screen.findByTestId('recovery-amount')).toHaveTextContent('100.00');
    // The legend speaks in words; M-Pesa's codes are in its tooltip only.
    const figures = screen.getByTestId('recovery-figures');
    expect(within(figures).getByText('Phone not answered or busy: tried again once')).toBeInTheDocument();
    expect(figures).not.toHaveTextContent(/\(1037|1032\)/);
  });

  it('splits every figure by the choice: the rates, the cohort grid and the recovery figures', async () => {
    renderWithProviders(
      <MemoryRouter initialEntries={['/reports?report=retention&group=month&from=2026-01-01&to=2026-01-31']}>
        <ReportsPage />
      </MemoryRouter>,
    );
    await screen.findByTestId('retention-renewal-rate');
    await userEvent.click(screen.getByText('Category'));
    await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => String(url).includes('group_by=category'))).toBe(true));
    expect(await within(screen.getByTestId('retention-table')).findByText('Daily 2 Odds')).toBeInTheDocument();
    for (const path of ['/api/reports/cohorts', '/api/reports/recovery']) {
      await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => String(url).includes(path) && String(url).includes('group_by=category'))).toBe(true));
    }
    expect(await within(screen.getByTestId('cohort-table')).findByText('Daily 2 Odds')).toBeInTheDocument();
    expect(await within(screen.getByTestId('recovery-groups')).findByText('Daily 2 Odds')).toBeInTheDocument();
  });

  it('splits by lever: each lever with the income and the discount its sales brought, the recovery figures left whole', async () => {
    renderWithProviders(
      <MemoryRouter initialEntries={['/reports?report=retention&group=month&from=2026-01-01&to=2026-01-31']}>
        <ReportsPage />
      </MemoryRouter>,
    );
    await screen.findByTestId('retention-renewal-rate');
    await userEvent.click(screen.getByText('Lever'));
    const row = within(await screen.findByTestId('retention-levers')).getAllByTestId('table-row')[0]!;
    expect(row).toHaveTextContent('Promo code');
    expect(row).toHaveTextContent('200.00');
    expect(row).toHaveTextContent('100.00');
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/api/reports/recovery') && String(url).includes('group_by=lever'))).toBe(false);
  });
});
