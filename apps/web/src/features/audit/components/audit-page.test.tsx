import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import type { AuditEntry } from '@betdesk/contract';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils.tsx';
import { AuditPage } from './audit-page.tsx';

const entry: AuditEntry = {
  id: 1,
  at: '2026-11-24T09:00:00Z',
  user_id: 1,
  user_name: 'Boss Admin',
  action: 'price.update',
  entity: 'price_package',
  entity_id: '3',
  before: { price: 100 },
  after: { price: 150 },
  request_id: null,
};

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(560);
  fetchMock.mockReset();
  fetchMock.mockImplementation(async () =>
    jsonResponse(200, {
      total_records: 1,
      total_capped: false,
      entries: [entry],
      users: [{ id: 1, name: 'Boss Admin' }],
      actions: ['payment.claim', 'price.update'],
      entities: ['mpesa_payment', 'price_package'],
    }),
  );
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Audit log filters', () => {
  it("names records in the business's words, picks actions from a list and dates from presets", async () => {
    renderWithProviders(
      <MemoryRouter initialEntries={['/audit']}>
        <AuditPage />
      </MemoryRouter>,
    );
    const table = await screen.findByTestId('audit-table');
    expect(await within(table).findByText('SMS tips price package #3')).toBeInTheDocument();
    expect(within(table).getByText('Price: update')).toBeInTheDocument();

    await userEvent.click(screen.getByTestId('audit-action'));
    expect(await screen.findByRole('option', { name: 'Payment: claim', hidden: true })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('option', { name: 'Payment: claim', hidden: true }));

    await userEvent.selectOptions(screen.getByTestId('date-preset'), 'last-7-days');
    expect((screen.getByTestId('date-from') as HTMLInputElement).value).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    const url = String(fetchMock.mock.calls.at(-1)?.[0]);
    expect(url).toContain('action=payment.claim');
    expect(url).toMatch(/from=\d{4}-\d{2}-\d{2}/);
  });
});
