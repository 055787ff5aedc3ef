import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import type { Bet } from '@betdesk/contract';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils.tsx';
import { OpenBetsPage } from './open-bets-page.tsx';

const bet: Bet = {
  bet_id: 7,
  stake: 1500,
  profit: null,
  bonus: null,
  description: 'Juventus v Napoli, draw no bet',
  opened_on: '2026-11-19T14:52:00Z',
  closed_on: null,
  status: 'open',
  client_id: 4,
  name: 'Caroline Kiprotich',
  phone: '254712345678',
  photo: null,
};

const fetchMock = vi.fn<typeof fetch>();
let profitAnswer: Response;

beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(560);
  profitAnswer = jsonResponse(200, { info: 'Profit saved successfully', bonus: 0 });
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (url) => {
    if (String(url).startsWith('/api/bets/open')) return jsonResponse(200, { bets: [bet] });
    if (String(url) === '/api/bets/update') return profitAnswer;
    return jsonResponse(404, {});
  });
  vi.stubGlobal('fetch', fetchMock);
  vi.spyOn(console, 'debug').mockImplementation(() => {});
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const profitCalls = () => fetchMock.mock.calls.filter(([url]) => String(url) === '/api/bets/update');

async function openModal() {
  renderWithProviders(
    <MemoryRouter>
      <OpenBetsPage />
    </MemoryRouter>,
  );
  await userEvent.click(await screen.findByTestId('enter-profit'));
  return screen.findByRole('dialog', { name: 'Enter Profit' });
}

describe('Enter Profit modal', () => {
  it('refuses a blank profit itself and never sends it as 0', async () => {
    const modal = await openModal();
    await userEvent.click(within(modal).getByRole('button', { name: 'Save profit' }));
    expect(await within(modal).findByText('The profit is required')).toBeInTheDocument();
    expect(profitCalls()).toHaveLength(0);

    await userEvent.type(within(modal).getByTestId('bet-profit'), '12');
    await userEvent.clear(within(modal).getByTestId('bet-profit'));
    await userEvent.click(within(modal).getByRole('button', { name: 'Save profit' }));
    expect(await within(modal).findByText('The profit is required')).toBeInTheDocument();
    expect(profitCalls()).toHaveLength(0);
  });

  it("shows the server's 422 under the profit field", async () => {
    profitAnswer = jsonResponse(422, {
      message: 'Form data has some errors.',
      info: 'A loss cannot be more than the stake',
      errors: { profit: ['A loss cannot be more than the stake'] },
    });
    const modal = await openModal();
    await userEvent.type(within(modal).getByTestId('bet-profit'), '-2000');
    await userEvent.click(within(modal).getByRole('button', { name: 'Save profit' }));
    await waitFor(() =>
      expect(within(modal).getByTestId('bet-profit')).toHaveAccessibleDescription(
        expect.stringContaining('A loss cannot be more than the stake'),
      ),
    );
    const [, init] = profitCalls()[0]!;
    expect(JSON.parse(String(init?.body))).toMatchObject({ bet_id: 7, profit: -2000 });
  });
});
