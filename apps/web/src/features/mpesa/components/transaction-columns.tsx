import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { localPhone, type MpesaTransaction } from '@betdesk/contract';
import { StatusBadge, WIDTH, type DataTableColumn } from '@/components/data-table/index.ts';
import { RefundedAmount } from '@/components/refund-request/index.ts';
import { TaxInvoiceLink } from '@/components/tax-invoice-link.tsx';
import { formatDateTime, formatMoney } from '@/lib/format.ts';

/** The payer as M-Pesa named them: a phone only when the MSISDN is one, else the masked number. */
function SenderPhone({ t }: { t: MpesaTransaction }) {
  if (t.sender_phone) return <>{localPhone(t.sender_phone)}</>;
  if (t.sender_msisdn) return <Text span c="dimmed" title="Masked by M-Pesa">{t.sender_msisdn}</Text>;
  // "hidden by M-Pesa" only when nobody knows the phone: the API gives the matched subscriber's or client's.
  return <Text span c="dimmed" title="M-Pesa sent no phone number and no subscriber or client matches this payment">hidden by M-Pesa</Text>;
}

function PaidTo({ t }: { t: MpesaTransaction }) {
  if (t.status === 'unclaimed' && t.warning) {
    return (
      // Wraps in the table's row like the names; the title repeats it for a pointer.
      <Text span size="sm" c="orange.9" title={t.warning} data-testid={`warning-${t.transaction_reference}`}>
        ⚠ {t.warning}
      </Text>
    );
  }
  if (t.client_id !== null) {
    return (
      <>
        <Anchor component={Link} to={`/clients/${t.client_id}`}>
          {t.client_name}
        </Anchor>
        <TaxInvoiceLink invoice={t.invoice} testId={`invoice-${t.transaction_reference}`} block />
      </>
    );
  }
  if (t.subscriber_id !== null) {
    return (
      <>
        <Anchor component={Link} to={`/tips/subscribers/view/${t.subscriber_id}`}>
          {t.subscriber_name}
        </Anchor>
        <TaxInvoiceLink invoice={t.invoice} testId={`invoice-${t.transaction_reference}`} block />
      </>
    );
  }
  if (t.reject_reason) return <Text span size="sm" c="red">{t.reject_reason}</Text>;
  return t.unclaimed_reason ? <Text span size="sm" c="dimmed">{t.unclaimed_reason}</Text> : null;
}

export const transactionColumns: DataTableColumn<MpesaTransaction>[] = [
  { key: 'transaction_reference', header: 'Ref No.', render: (t) => t.transaction_reference ?? '', width: WIDTH.ref, fit: true },
  { key: 'sender_name', header: 'Sender Name', render: (t) => t.sender_name ?? '', card: 'title' },
  { key: 'sender_phone', header: 'Phone No', render: (t) => <SenderPhone t={t} />, width: WIDTH.phone, fit: true },
  { key: 'account_number', header: 'Account', render: (t) => t.account_number ?? '', width: 80, fit: true, card: 'hidden' },
  {
    key: 'amount',
    header: 'Amount',
    render: (t) => (t.amount === null ? '' : <>{formatMoney(t.amount)}<RefundedAmount payment={t} /></>),
    align: 'right',
    width: WIDTH.money,
    fit: true,
  },
  { key: 'transaction_timestamp', header: 'Sent On', render: (t) => formatDateTime(t.transaction_timestamp), width: WIDTH.dateTime, fit: true },
  {
    key: 'status',
    header: 'Status',
    width: WIDTH.status, fit: true,
    render: (t) => <StatusBadge status={t.status} data-testid={`status-${t.transaction_reference}`} />,
  },
  { key: 'client_name', header: 'Paid to', render: (t) => <PaidTo t={t} /> },
];
