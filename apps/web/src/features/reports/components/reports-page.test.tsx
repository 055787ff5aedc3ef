import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils.tsx';
import { ReportsPage } from './reports-page.tsx';

const fetchMock = vi.fn<typeof fetch>();

const week = (period: string, to: string, total: number) => ({ period, from: period, to, tips: total, bet4me: 0, unclaimed: 0, total, count: 1 });

beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(560);
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (url) => {
    const u = new URL(String(url), 'http://localhost');
    if (u.pathname === '/api/reports/income') {
      return jsonResponse(200, {
        from: u.searchParams.get('from'),
        to: u.searchParams.get('to'),
        group: u.searchParams.get('group'),
        rows: [week('2026-03-02', '2026-03-08', 100.01), week('2026-03-09', '2026-03-15', 250.5)],
        total: { tips: 350.51, bet4me: 0, unclaimed: 0, total: 350.51, count: 2 },
      });
    }
    return jsonResponse(404, {});
  });
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const incomeCalls = () => fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith('/api/reports/income'));

function renderAt(url: string) {
  renderWithProviders(
    <MemoryRouter initialEntries={[url]}>
      <ReportsPage />
    </MemoryRouter>,
  );
}

describe('ReportsPage', () => {
  it('asks for the range and grouping of the URL and shows each week with the total', async () => {
    renderAt('/reports?report=income&group=week&from=2026-03-02&to=2026-03-15');
    const table = await screen.findByTestId('income-table');
    expect(await within(table).findByText('Week of 02 Mar')).toBeInTheDocument();
    expect(within(table).getByText('Week of 09 Mar')).toBeInTheDocument();
    expect(screen.getByTestId('income-total')).toHaveTextContent('KES 350.51');
    expect(incomeCalls()[0]).toContain('from=2026-03-02');
    expect(incomeCalls()[0]).toContain('to=2026-03-15');
    expect(incomeCalls()[0]).toContain('group=week');
  });

  it('refuses an end before the start without asking the server', async () => {
    renderAt('/reports?report=income&group=week&from=2026-03-02&to=2026-03-15');
    await screen.findByTestId('income-table');
    const asked = incomeCalls().length;
    fireEvent.change(screen.getByTestId('report-to'), { target: { value: '2026-03-01' } });
    expect(screen.getByTestId('report-range-error')).toHaveTextContent('The end date is before the start date');
    expect(screen.getByRole('button', { name: 'Apply' })).toBeDisabled();
    expect(incomeCalls()).toHaveLength(asked);
  });

  it('regroups the same range by month', async () => {
    renderAt('/reports?report=income&group=week&from=2026-03-02&to=2026-03-15');
    await screen.findByTestId('income-table');
    await userEvent.click(screen.getByText('Month'));
    await waitFor(() => expect(incomeCalls().some((url) => url.includes('group=month') && url.includes('from=2026-03-02'))).toBe(true));
  });
});
