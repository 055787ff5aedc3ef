import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AgentPayout, SessionUser } from '@betdesk/contract';
import { sessionStore } from '@/lib/auth.ts';
import { answerRequests, jsonResponse, renderAt } from '@/testing/test-utils.tsx';
import { AgentPayouts } from './agent-payouts.tsx';

const payout = (id: number, over: Partial<AgentPayout>): AgentPayout => ({
  id,
  agent_id: id,
  agent_name: `Agent ${id}`,
  phone: `25472250000${id}`,
  month: '2026-11',
  commissions: 80,
  carried: 0,
  amount: 80,
  status: 'awaiting_approval',
  requested_by: 'Asha Admin',
  requested_by_id: 1,
  approved_by: null,
  mpesa_receipt: null,
  result: null,
  created_at: '2026-12-01T07:00:00Z',
  completed_at: null,
  ...over,
});

let payouts: AgentPayout[] = [];
const posted: { path: string; body: unknown }[] = [];

const fetchMock = answerRequests(
  (url, init) => {
    if (init?.method === 'POST') {
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      posted.push({ path: url.pathname, body });
      if (url.pathname === '/api/agents/payouts') {
        if (body.month === '2026-12') return jsonResponse(422, { info: 'Check the fields', errors: { month: ['Choose a month that has ended (Nairobi time)'] } });
        const made = payout(3, { month: String(body.month), agent_name: 'Otieno Radio', amount: 60, commissions: 100.5, carried: -40 });
        payouts = [made, ...payouts];
        return jsonResponse(200, { info: '1 payout asked: another admin must approve it', created: 1, already: 0, carried: 0, payouts: [made] });
      }
      const id = Number(url.pathname.split('/')[4]);
      payouts = payouts.map((p) => (p.id === id ? { ...p, status: 'sending', approved_by: 'Baraka Admin' } : p));
      return jsonResponse(200, { info: 'Payout approved: it is being sent to M-Pesa', payout: payouts.find((p) => p.id === id) });
    }
    const status = url.searchParams.get('status');
    const rows = payouts.filter((p) => !status || p.status === status);
    return jsonResponse(200, { total_records: rows.length, payouts: rows });
  },
  { tableHeight: 560 },
);

const signedInAs = (id: number) => act(() => sessionStore.set((s) => ({ ...s, isAdmin: true, user: { id, name: `Admin ${id}` } as SessionUser })));

beforeEach(() => {
  posted.length = 0;
  payouts = [payout(1, { requested_by_id: 7 }), payout(2, { requested_by_id: 1, agent_name: 'Wanjiru Shop' }), payout(4, { status: 'paid', mpesa_receipt: 'PAY0000001', requested_by_id: 7 })];
});
afterEach(() => act(() => sessionStore.set((s) => ({ ...s, isAdmin: false, user: null }))));

const rowOf = (name: string) => screen.getByText(name).closest('[data-testid="table-row"]') as HTMLElement;

describe("The agents' payouts (decision 093)", () => {
  it("offers Approve on another admin's payout awaiting approval only, never on one the admin asked or one paid", async () => {
    signedInAs(1);
    renderAt('/agents', <AgentPayouts />);
    await screen.findByText('Agent 1');
    expect(within(rowOf('Agent 1')).getByRole('button', { name: 'Approve the payout to Agent 1' })).toBeInTheDocument();
    expect(within(rowOf('Wanjiru Shop')).queryByRole('button', { name: /Approve/ })).not.toBeInTheDocument();
    expect(within(rowOf('Agent 4')).queryByRole('button', { name: /Approve/ })).not.toBeInTheDocument();
    expect(within(rowOf('Agent 4')).getByText('PAY0000001')).toBeInTheDocument();
    expect(within(rowOf('Agent 4')).getByText('Paid')).toBeInTheDocument();
  });

  it('asks a closed month, shows what was asked, and refuses a month not ended under the month field', async () => {
    signedInAs(1);
    const user = userEvent.setup();
    renderAt('/agents', <AgentPayouts />);
    await screen.findByText('Agent 1');
    const month = screen.getByLabelText('Month to pay');
    await user.clear(month);
    await user.type(month, '2026-12');
    await user.click(screen.getByRole('button', { name: 'Ask for payouts' }));
    expect(await screen.findByText('Choose a month that has ended (Nairobi time)')).toBeInTheDocument();
    expect(month).toHaveAttribute('aria-invalid', 'true');

    await user.clear(month);
    await user.type(month, '2026-11');
    await user.click(screen.getByRole('button', { name: 'Ask for payouts' }));
    expect(await screen.findByTestId('payouts-made')).toHaveTextContent('1 payout asked: another admin must approve it');
    expect(posted.at(-1)).toEqual({ path: '/api/agents/payouts', body: { month: '2026-11' } });
    await waitFor(() => expect(within(rowOf('Otieno Radio')).getByText('-KES 40.00')).toBeInTheDocument());
  });

  it('approves with the approver’s code, says what leaves and to whom, and the row shows it sending', async () => {
    signedInAs(1);
    const user = userEvent.setup();
    renderAt('/agents', <AgentPayouts />);
    await screen.findByText('Agent 1');
    await user.click(within(rowOf('Agent 1')).getByRole('button', { name: 'Approve the payout to Agent 1' }));
    // The dialog draws its content as it opens: wait for it, not just for its frame.
    const dialog = await screen.findByTestId('approve-payout-modal');
    await waitFor(() => expect(dialog).toHaveTextContent('KES 80.00 for 2026-11 goes to Agent 1 (0722500001) by M-Pesa B2C, asked by Asha Admin'));
    await user.type(await within(dialog).findByTestId('approve-payout-code'), '123456');
    await user.click(within(dialog).getByRole('button', { name: 'Approve and send' }));
    await waitFor(() => expect(posted.at(-1)).toEqual({ path: '/api/agents/payouts/1/approve', body: { code: '123456' } }));
    await waitFor(() => expect(within(rowOf('Agent 1')).getByText('Sending')).toBeInTheDocument());
    expect(fetchMock.mock.calls.filter(([u]) => String(u).startsWith('/api/agents/payouts?')).length).toBeGreaterThan(1);
  });
});
