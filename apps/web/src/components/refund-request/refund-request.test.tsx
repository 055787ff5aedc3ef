import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MODAL_CLOSE_DELAY_MS, type RefundPreview } from '@betdesk/contract';
import { sessionStore } from '@/lib/auth.ts';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils.tsx';
import { RefundButton, RefundRequestModal, type RefundablePayment } from './refund-request.tsx';

const fetchMock = vi.fn<typeof fetch>();
const payment: RefundablePayment = { id: 7, transaction_reference: 'SR1', amount: 100, refunded_amount: 0, refund_asked_amount: 0, status: 'claimed' };
const preview: RefundPreview = {
  payment_id: 7,
  trans_id: 'SR1',
  amount: 100,
  refunded_amount: 30,
  left: 70,
  payer_phone: null,
  reversal: false,
  b2c: false,
  bought: { what: 'Tips package "D2 SMS weekly", 7 days', amount: 100, starts_at: '2026-11-27T06:00:00Z', expires_at: '2026-12-04T06:00:00Z' },
};

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
  act(() => sessionStore.set((s) => ({ ...s, isAdmin: false })));
});

describe('Refund on a payment row', () => {
  it('is an admin action only, and not on a payment fully refunded', () => {
    const { rerender } = renderWithProviders(<RefundButton payment={payment} onClick={() => {}} />);
    expect(screen.queryByRole('button', { name: 'Refund' })).not.toBeInTheDocument();
    act(() => sessionStore.set((s) => ({ ...s, isAdmin: true })));
    rerender(<RefundButton payment={payment} onClick={() => {}} />);
    expect(screen.getByRole('button', { name: 'Refund' })).toBeInTheDocument();
    rerender(<RefundButton payment={{ ...payment, refunded_amount: 100, refund_asked_amount: 100 }} onClick={() => {}} />);
    expect(screen.queryByRole('button', { name: 'Refund' })).not.toBeInTheDocument();
  });

  it('is not offered on a payment whose whole amount is already asked back, though nothing is refunded yet', () => {
    act(() => sessionStore.set((s) => ({ ...s, isAdmin: true })));
    const { rerender } = renderWithProviders(<RefundButton payment={{ ...payment, refund_asked_amount: 100 }} onClick={() => {}} />);
    expect(screen.queryByRole('button', { name: 'Refund' })).not.toBeInTheDocument();
    rerender(<RefundButton payment={{ ...payment, refund_asked_amount: 40 }} onClick={() => {}} />);
    expect(screen.getByRole('button', { name: 'Refund' })).toBeInTheDocument();
  });

  it('offers what is left, neither method it cannot use, and what the payment bought', async () => {
    fetchMock.mockImplementation(async () => jsonResponse(200, preview));
    renderWithProviders(<RefundRequestModal payment={payment} onClose={() => {}} />);
    expect(await screen.findByTestId('refund-left')).toHaveTextContent(/at most KES\s70\.00 can be refunded/);
    expect(screen.getByLabelText(/Amount/)).toHaveValue('70');
    expect(screen.getByLabelText('M-Pesa Reversal')).toBeDisabled();
    expect(screen.getByLabelText('B2C payment')).toBeDisabled();
    expect(screen.getByText("Not possible: M-Pesa hid the payer's phone number")).toBeInTheDocument();
    expect(screen.getByTestId('refund-bought')).toHaveTextContent('Tips package "D2 SMS weekly", 7 days');
    expect(String(fetchMock.mock.calls[0]?.[0])).toContain('/api/refunds/preview?payment_id=7');
  });
});

describe('Asking for a refund', () => {
  it('closes the form once the request is made, as every form does', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fetchMock.mockImplementation(async (input, init) =>
      init?.method === 'POST'
        ? jsonResponse(200, { info: 'Refund asked for: another admin must approve it.', refund: { id: 1 } })
        : jsonResponse(200, { ...preview, payer_phone: '254722111333', b2c: true }),
    );
    function Screen() {
      const [open, setOpen] = useState<RefundablePayment | null>(payment);
      return (
        <>
          <span data-testid="state">{open ? 'open' : 'closed'}</span>
          <RefundRequestModal payment={open} onClose={() => setOpen(null)} />
        </>
      );
    }
    renderWithProviders(<Screen />);
    await screen.findByTestId('refund-left');
    await userEvent.selectOptions(screen.getByTestId('refund-reason'), 'wrong_amount');
    await userEvent.click(screen.getByRole('button', { name: 'Ask for the refund' }));
    expect(await screen.findByTestId('form-success')).toHaveTextContent('another admin must approve it');
    await act(async () => vi.advanceTimersByTime(MODAL_CLOSE_DELAY_MS + 100));
    await waitFor(() => expect(screen.getByTestId('state')).toHaveTextContent('closed'));
    expect(screen.queryByTestId('refund-request-modal')).not.toBeInTheDocument();
    vi.useRealTimers();
  });
});
