import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderWithProviders } from '@/testing/test-utils.tsx';
import { AuditDiff } from './audit-diff.tsx';

describe('An audit entry as staff read it', () => {
  it('shows money as KES, times in Nairobi time and plain field names, not the database terms', () => {
    renderWithProviders(
      <AuditDiff
        before={{ amount_cents: 300000, starts_at: '2026-11-26T16:28:09.806Z', sms_sent: false, client_id: 7 }}
        after={{ amount_cents: '350000', starts_at: '2026-11-26T16:28:09.806Z', sms_sent: true, client_id: 7 }}
      />,
    );
    const diff = screen.getByTestId('audit-diff');
    const row = (label: string) => within(diff).getByText(label, { exact: true }).closest('tr') as HTMLElement;
    expect(row('Amount')).toHaveTextContent('KES 3,000.00 → KES 3,500.00');
    // 16:28 UTC is 19:28 in Nairobi (UTC+3).
    expect(row('Starts at')).toHaveTextContent('26 Nov 2026, 19:28 Nairobi');
    expect(row('SMS sent')).toHaveTextContent('no → yes');
    expect(row('Client ID')).toHaveTextContent('7');
    expect(diff).not.toHaveTextContent(/amount_cents|starts_at|350000|2026-11-26T/);
  });

  it('shows names and sentences, not codes: a camel-case field, a reason code in words with the code in its tooltip', () => {
    renderWithProviders(
      <AuditDiff before={{ clientId: 322, status: 'awaiting_approval' }} after={{ clientId: 323, reason: 'paid_twice', status: 'awaiting_approval' }} />,
    );
    const diff = screen.getByTestId('audit-diff');
    const row = (label: string) => within(diff).getByText(label, { exact: true }).closest('tr') as HTMLElement;
    expect(row('Client ID')).toHaveTextContent('322 → 323');
    expect(within(row('Reason')).getByText('Paid twice')).toHaveAttribute('title', 'paid_twice');
    expect(row('Status')).toHaveTextContent('Awaiting approval');
    expect(diff).not.toHaveTextContent(/ClientId|paid_twice|awaiting_approval/);
  });
});
