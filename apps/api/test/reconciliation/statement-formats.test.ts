import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { ADMIN, createTestApp, type TestApp } from '../helpers.ts';
import { portalStatement } from './statement-file.ts';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.addUser({ email: 'boss@formats.test', categoryId: ADMIN });
  admin = await t.tokenFor('boss@formats.test');
});
afterAll(() => t.close());

function upload(file: Buffer, name: string, type: string) {
  const boundary = '----betdesk-formats-boundary';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`;
  return t.as(admin, {
    method: 'POST',
    url: '/api/mpesa/statements',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat([Buffer.from(head), file, Buffer.from(`\r\n--${boundary}--\r\n`)]),
  });
}

const UPPER_HEADER = [
  'RECEIPT_NUMBER',
  'COMPLETION_TIME',
  'INITIATION_TIME',
  'DETAILS',
  'TRANSACTION_STATUS',
  'PAID_IN',
  'WITHDRAWN',
  'BALANCE',
  'BALANCE_CONFIRMED',
  'REASON_TYPE',
  'OTHER_PARTY_INFO',
  'LINKED_TRANSACTION_ID',
  'A/C_NO',
];

describe('statement files as the portal exports them', () => {
  it('reads an Excel (.xlsx) statement: preamble, times and amounts as Excel cells', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Statement');
    sheet.addRow(['Account Holder:', 'BETDESK LIMITED']);
    sheet.addRow(['Short Code:', '600984']);
    sheet.addRow([]);
    sheet.addRow(['Receipt No.', 'Completion Time', 'Initiation Time', 'Details', 'Transaction Status', 'Paid In', 'Withdrawn', 'Balance', 'Reason Type', 'Other Party Info', 'A/C No.']);
    // Excel keeps wall-clock times: 09:00 on the sheet is 09:00 in Nairobi (06:00 UTC).
    const nine = new Date(Date.UTC(2025, 2, 14, 9, 0, 0));
    sheet.addRow(['SXL0000001', nine, nine, 'Pay Bill from 254712345678 - JOHN KAMAU Acc. D2', 'Completed', 1500.5, null, 20000, 'Pay Bill Online', '254712345678 - JOHN KAMAU', 'D2']);
    sheet.addRow(['SXL0000002', '14-03-2025 10:15:00', null, 'Business Payment Charge', 'Completed', null, -15, 19985, 'Charge', null, null]);
    const file = Buffer.from(await workbook.xlsx.writeBuffer());

    const res = await upload(file, 'statement.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      rows: 2,
      paid_in_rows: 1,
      missing: 1,
      paid_in: { rows: 1, amount: 1500.5 },
      charges: { rows: 1, amount: 15 },
      period_from: '2025-03-14T06:00:00.000Z',
      skipped_lines: [],
    });
  });

  it('reads the upper-case CSV layout (RECEIPT_NUMBER, COMPLETION_TIME ...)', async () => {
    const csv = [
      UPPER_HEADER.join(','),
      'SUP0000001,2025-03-15 08:00:00,2025-03-15 08:00:00,Pay Bill Online,COMPLETED,250.00,,9000.00,true,Pay Bill Online,254722000111 - MARY ATIENO,,D7',
      '',
    ].join('\r\n');
    const res = await upload(Buffer.from(csv), 'upper.csv', 'text/csv');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ rows: 1, paid_in_rows: 1, paid_in: { rows: 1, amount: 250 } });
  });

  it('skips a totals line below the table and says so', async () => {
    const table = portalStatement([
      { receipt: 'STL0000001', completed: '2025-03-16 08:00:00', paidIn: '100.00' },
      { receipt: 'STL0000002', completed: '2025-03-16 09:00:00', paidIn: '200.00' },
    ]);
    const csv = `${table}Totals,,,,,300.00,0.00,,,,,,\r\n`;
    const res = await upload(Buffer.from(csv), 'totals.csv', 'text/csv');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ rows: 2, paid_in: { rows: 2, amount: 300 }, skipped_lines: [{ line: 9, text: 'Totals, 300.00, 0.00' }] });
    expect(body.info).toBe('Statement compared. Line 9 is not a transaction (a totals line) and was left out');
  });

  it('still refuses a line that is neither a transaction nor a total', async () => {
    const table = portalStatement([{ receipt: 'SNT0000001', completed: '2025-03-17 08:00:00', paidIn: '100.00' }]);
    const res = await upload(Buffer.from(`${table},,,,,300.00,,,,,,,\r\n`), 'odd.csv', 'text/csv');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.file[0]).toBe('Line 8, column "Receipt No.": "" is not an M-Pesa receipt');
  });
});
