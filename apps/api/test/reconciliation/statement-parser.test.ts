import { describe, expect, it } from 'vitest';
import { otherParty, parseStatement, StatementFileError } from '../../src/modules/reconciliation/statement-parser.ts';
import { portalStatement } from './statement-file.ts';

describe('the portal statement parser', () => {
  it('skips the preamble and blank lines and reads quoted amounts with thousands separators', () => {
    const file = portalStatement([
      { receipt: 'SCL1AAA001', completed: '2025-03-14 15:30:45', paidIn: '1,500.00', balance: '12,001.50', account: 'D2' },
      { receipt: 'SCL1AAA002', completed: '14-03-2025 16:00:00', paidIn: '100.00', account: '0712345678' },
    ]).replace('\r\nSCL1AAA002', '\r\n\r\n,,,,\r\nSCL1AAA002');
    const lines = parseStatement(file);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      receipt: 'SCL1AAA001',
      kind: 'paid_in',
      paidInCents: 150_000,
      withdrawnCents: 0,
      accountNo: 'D2',
      otherPartyInfo: '254712345678 - JOHN KAMAU',
      completedAt: new Date('2025-03-14T12:30:45Z'),
    });
    expect(lines[1]).toMatchObject({ receipt: 'SCL1AAA002', paidInCents: 10_000, completedAt: new Date('2025-03-14T13:00:00Z') });
  });

  it('tells withdrawals, charges and other rows apart from money paid in', () => {
    const lines = parseStatement(
      portalStatement([
        { receipt: 'SCL1BBB001', completed: '2025-03-14 10:00:00', details: 'Business Payment to 254700000001', withdrawn: '-2,000.00', reason: 'Business Payment' },
        { receipt: 'SCL1BBB002', completed: '2025-03-14 10:00:00', details: 'Business Payment Charge', withdrawn: '-33.00', reason: 'Business Payment Charge' },
        { receipt: 'SCL1BBB003', completed: '2025-03-14 11:00:00', status: 'Failed', paidIn: '50.00' },
      ]),
    );
    expect(lines.map((l) => [l.kind, l.withdrawnCents])).toEqual([
      ['withdrawal', 200_000],
      ['charge', 3_300],
      ['other', 0],
    ]);
  });

  it('marks a payment that a reversal on the statement names as reversed', () => {
    const lines = parseStatement(
      portalStatement([
        { receipt: 'SCL1CCC001', completed: '2025-03-14 09:00:00', paidIn: '300.00' },
        {
          receipt: 'SCL1CCC002',
          completed: '2025-03-14 09:30:00',
          details: 'Reversal of transaction SCL1CCC001',
          reason: 'Reversal',
          withdrawn: '-300.00',
          linked: 'SCL1CCC001',
        },
      ]),
    );
    expect(lines.map((l) => l.kind)).toEqual(['reversed', 'reversal']);
  });

  it('names the line and the column of a bad amount', () => {
    const file = portalStatement([
      { receipt: 'SCL1DDD001', completed: '2025-03-14 09:00:00', paidIn: '100.00' },
      { receipt: 'SCL1DDD002', completed: '2025-03-14 09:05:00', paidIn: 'one hundred' },
    ]);
    expect(() => parseStatement(file)).toThrow(StatementFileError);
    expect(() => parseStatement(file)).toThrow('Line 8, column "Paid In": "one hundred" is not an amount');
  });

  it('names the line and the column of a bad time, and refuses a file without the header', () => {
    expect(() => parseStatement(portalStatement([{ receipt: 'SCL1EEE001', completed: '31-02-2025 10:00', paidIn: '1.00' }]))).toThrow(
      'Line 7, column "Completion Time": "31-02-2025 10:00" is not a date and time',
    );
    expect(() => parseStatement('Name,Amount\r\nJohn,100\r\n')).toThrow('column "Receipt No."');
  });

  it('reads who paid from Other Party Info', () => {
    expect(otherParty('254712345678 - JOHN KAMAU')).toEqual({ msisdn: '254712345678', name: 'JOHN KAMAU' });
    expect(otherParty('2547******678 - JANE W')).toEqual({ msisdn: '2547******678', name: 'JANE W' });
    expect(otherParty('JANE W')).toEqual({ msisdn: null, name: 'JANE W' });
  });
});
