import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils.tsx';
import { SubscriptionsPage } from './subscriptions-page.tsx';

beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(560);
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => jsonResponse(200, { total_income: 1003500, total_income_today: 0, total_records: 0, subscriptions: [] })),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const open = (url: string) =>
  renderWithProviders(
    <MemoryRouter initialEntries={[url]}>
      <SubscriptionsPage which="recent" />
    </MemoryRouter>,
  );

describe('Subscriptions title and income label', () => {
  it('names the chosen days, never "all time" or "the last 30 days", when days are chosen', async () => {
    open('/subscriptions?from=2026-11-19&to=2026-11-25');
    expect(await screen.findByRole('heading', { name: 'Subscriptions of the chosen days' })).toBeInTheDocument();
    expect(screen.getByText('Bet4Me subscriptions sold in these days')).toBeInTheDocument();
    expect(screen.queryByText(/all time/i)).not.toBeInTheDocument();
  });

  it('says the last 30 days and all time without days', async () => {
    open('/subscriptions');
    expect(await screen.findByRole('heading', { name: 'Subscriptions of the last 30 days' })).toBeInTheDocument();
    expect(screen.getByText('Bet4Me subscriptions sold, all time')).toBeInTheDocument();
  });
});
