import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PricePackage } from '@betdesk/contract';
import { answerRequests, jsonResponse, renderWithProviders } from '@/testing/test-utils.tsx';
import { PricesPage } from './prices-page.tsx';

let packages: PricePackage[] = [];
beforeEach(() => {
  packages = [
    { id: 1, name: 'D2 SMS daily', duration: 1, price: 20, billing: 'period' },
    { id: 2, name: 'D2 SMS weekly', duration: 7, price: 100, billing: 'period' },
  ];
});

const fetchMock = answerRequests(
  (url, init) => {
    if (init?.method === 'POST' && url.pathname === '/api/tips/prices/update') {
      const body = JSON.parse(String(init.body)) as { bet_category_price_id: number; daily: boolean };
      packages = packages.map((p) => (p.id === body.bet_category_price_id ? { ...p, billing: body.daily ? 'daily' : 'period' } : p));
      return jsonResponse(200, { info: 'Price saved successfully' });
    }
    if (url.pathname === '/api/tips/prices/sms-tips') return jsonResponse(200, { packages });
    return jsonResponse(200, { packages: [] });
  },
  { tableHeight: 560 },
);

const rowOf = (name: string) => screen.getByText(name).closest('[data-testid="table-row"]') as HTMLElement;

describe('The SMS tips prices screen (decision 095)', () => {
  it('lets an admin sell a 1-day package by the day: Edit, tick, save, and the row says Per day', async () => {
    const user = userEvent.setup();
    renderWithProviders(<PricesPage medium="sms" />);
    await screen.findByText('D2 SMS daily');
    expect(within(rowOf('D2 SMS daily')).getByText(/^1 day/i)).toBeInTheDocument();
    await user.click(within(rowOf('D2 SMS daily')).getByRole('button', { name: 'Edit' }));
    const daily = await screen.findByRole('checkbox', { name: /Sold by the day/ });
    expect(daily).not.toBeChecked();
    await user.click(daily);
    await user.click(within(screen.getByTestId('price-modal')).getByRole('button', { name: /save/i }));
    await waitFor(() => {
      const posted = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
      expect(JSON.parse(String(posted?.[1]?.body))).toMatchObject({ bet_category_price_id: 1, name: 'D2 SMS daily', daily: true });
    });
    await waitFor(() => expect(within(rowOf('D2 SMS daily')).getByText('Per day')).toBeInTheDocument());
    expect(within(rowOf('D2 SMS weekly')).getByText(/^(1 week|7 days)/i)).toBeInTheDocument();
  });
});
