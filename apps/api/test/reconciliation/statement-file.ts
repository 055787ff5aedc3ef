/** A statement as the M-Pesa organisation portal exports it: preamble, header, rows. */
export interface PortalRow {
  receipt: string;
  completed: string;
  details?: string;
  status?: string;
  paidIn?: string;
  withdrawn?: string;
  balance?: string;
  reason?: string;
  otherParty?: string;
  linked?: string;
  account?: string;
}

const HEADER =
  'Receipt No.,Completion Time,Initiation Time,Details,Transaction Status,Paid In,Withdrawn,Balance,Balance Confirmed,Reason Type,Other Party Info,Linked Transaction ID,A/C No.';

const quote = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

export function portalStatement(rows: PortalRow[], options: { preamble?: boolean } = {}): string {
  const preamble = options.preamble === false
    ? []
    : [
        'Account Holder:,BETDESK LIMITED',
        'Short Code:,600984',
        'Account:,Utility Account',
        'Time Period:,"01-03-2025 00:00:00 - 31-03-2025 23:59:59"',
        '',
      ];
  const lines = rows.map((r) =>
    [
      r.receipt,
      r.completed,
      r.completed,
      r.details ?? 'Pay Bill from 254712345678 - JOHN KAMAU Acc. D2',
      r.status ?? 'Completed',
      r.paidIn ?? '',
      r.withdrawn ?? '',
      r.balance ?? '',
      'true',
      r.reason ?? 'Pay Bill Online',
      r.otherParty ?? '254712345678 - JOHN KAMAU',
      r.linked ?? '',
      r.account ?? '',
    ]
      .map(quote)
      .join(','),
  );
  return [...preamble, HEADER, ...lines, ''].join('\r\n');
}
