import type { MpesaTransaction, TipsDeposit } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { csvDateTime, csvPhone, queryBatches, type CsvTable } from '../../http/csv.ts';
import * as q from './queries/lists.ts';

/** The M-Pesa screens' columns, in the screens' formats (Nairobi time, 07… phones). */
const transactionColumns: CsvTable<MpesaTransaction>['columns'] = [
  { header: 'Transaction Ref', value: (t) => t.transaction_reference },
  { header: 'Sender Name', value: (t) => t.sender_name },
  { header: 'Sender Phone', value: (t) => csvPhone(t.sender_phone) || t.sender_msisdn },
  { header: 'Amount (KES)', value: (t) => t.amount },
  { header: 'Account Number', value: (t) => t.account_number },
  { header: 'Transaction Time', value: (t) => csvDateTime(t.transaction_timestamp) },
  { header: 'Status', value: (t) => t.status },
  { header: 'Client / Subscriber', value: (t) => t.client_name ?? t.subscriber_name },
];

export function paymentsCsv(deps: AppDeps, filename: string, f: q.PaymentFilter): CsvTable<MpesaTransaction> {
  return {
    filename,
    columns: transactionColumns,
    rows: queryBatches(deps.database, q.paymentsExportQuery(f), q.transactionOf),
  };
}

const depositColumns: CsvTable<TipsDeposit>['columns'] = [
  { header: 'Phone No', value: (d) => csvPhone(d.sender_phone) },
  { header: 'Sender Name', value: (d) => d.sender_name },
  { header: 'Amount (KES)', value: (d) => d.amount },
  { header: 'Ref No.', value: (d) => d.transaction_reference },
  { header: 'Sent On', value: (d) => csvDateTime(d.transaction_timestamp) },
  { header: 'Status', value: (d) => d.status },
];

export async function tipsDepositsCsv(deps: AppDeps, f: q.DepositFilter): Promise<CsvTable<TipsDeposit>> {
  return {
    filename: 'tips-deposits',
    columns: depositColumns,
    rows: queryBatches(deps.database, await q.tipsDepositsExportQuery(deps.db, f), q.depositRow),
  };
}
