import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { answerRequests, jsonResponse, renderAt } from '@/testing/test-utils.tsx';
import { SubscriptionsPage } from './subscriptions-page.tsx';

answerRequests(() => jsonResponse(200, { total_income: 1003500, total_income_today: 0, total_records: 0, subscriptions: [] }), {
  tableHeight: 560,
});

const open = (url: string) => renderAt(url, <SubscriptionsPage which="recent" />);

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
