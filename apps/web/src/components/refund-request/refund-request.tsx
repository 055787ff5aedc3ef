import { useEffect } from 'react';
import { Button, NativeSelect, NumberInput, Paper, Radio, Stack, Text, Textarea } from '@mantine/core';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  can,
  createRefund,
  localPhone,
  refundPreview,
  RefundForm,
  type RefundEffect,
  type RefundPreview,
  type RefundReason,
} from '@betdesk/contract';
import { FormModal, numberFieldProps } from '@/components/form-modal/index.ts';
import { useRole } from '@/lib/auth.ts';
import { formatDate, formatMoney } from '@/lib/format.ts';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** A payment row a refund can be asked from (an M-Pesa transaction as the lists read it). */
export interface RefundablePayment {
  id: number;
  transaction_reference: string | null;
  amount: number | null;
  refunded_amount: number;
  /** What its refunds not failed or cancelled already ask back: nothing more can be asked of that. */
  refund_asked_amount: number;
  status: string;
}

export const REFUND_REASON_LABELS: Record<RefundReason, string> = {
  wrong_amount: 'Paid the wrong amount',
  paid_twice: 'Paid twice',
  wrong_account: 'Paid to the wrong account',
  policy: 'Refund policy',
  other: 'Other (say why in the note)',
};

/** GET /api/refunds/preview: what is left of the payment, how it can go back, what it bought. Asked afresh each time. */
function useRefundPreview(paymentId: number | null) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.refunds.preview(paymentId),
      queryFn: () => callEndpoint(refundPreview, { query: { payment_id: paymentId! } }),
      enabled: paymentId !== null,
      staleTime: 0,
      gcTime: 0,
      retry: false,
    }),
  );
}

/** The end a shortened subscription keeps: its period shrinks by the share of its price refunded. */
function shortenedEnd(bought: NonNullable<RefundPreview['bought']>, amount: number): string {
  const start = Date.parse(bought.starts_at);
  const end = Date.parse(bought.expires_at);
  const kept = bought.amount > 0 ? Math.max(bought.amount - Math.min(amount, bought.amount), 0) / bought.amount : 0;
  return formatDate(new Date(start + (end - start) * kept).toISOString());
}

function RefundRequestForm({ preview, onClose }: { preview: RefundPreview; onClose: () => void }) {
  const queryClient = useQueryClient();
  const whole = preview.reversal && preview.left === preview.amount;
  const defaults = {
    payment_id: preview.payment_id,
    amount: preview.left,
    reason: '' as RefundReason,
    note: '',
    method: whole ? ('reversal' as const) : ('b2c' as const),
    effect: (preview.bought ? 'cancel' : 'none') as RefundEffect,
  };
  return (
    <FormModal
      opened
      onClose={onClose}
      title={`Refund payment ${preview.trans_id ?? ''}`}
      schema={RefundForm}
      defaultValues={defaults}
      submit={(values) => callEndpoint(createRefund, { body: { ...values, note: values.note || undefined } })}
      onSaved={() => {
        // The payment lists (the row's refund state) and the Refunds screen; nothing else changes until M-Pesa answers.
        void queryClient.invalidateQueries({ queryKey: queryKeys.mpesa.all });
        void queryClient.invalidateQueries({ queryKey: queryKeys.refunds.all });
      }}
      submitLabel="Ask for the refund"
      data-testid="refund-request-modal"
    >
      {({ form, errorOf }) => {
        const amount = Number(form.watch('amount')) || 0;
        const method = form.watch('method');
        const reason = form.watch('reason');
        const effect = form.watch('effect');
        return (
          <>
            <Text size="sm" data-testid="refund-left">
              Paid {formatMoney(preview.amount)}
              {preview.refunded_amount > 0 && `, refunded ${formatMoney(preview.refunded_amount)}`}: at most{' '}
              <b>{formatMoney(preview.left)}</b> can be refunded. Another admin must approve it with their authenticator code.
            </Text>
            <NumberInput
              label="Amount (KES)"
              description={`At most ${formatMoney(preview.left)}`}
              required
              min={0}
              max={preview.left}
              decimalScale={2}
              error={errorOf('amount')}
              {...numberFieldProps(form, 'amount')}
              data-testid="refund-amount"
            />
            <NativeSelect
              label="Reason"
              required
              data={[{ value: '', label: 'Choose a reason', disabled: true }, ...Object.entries(REFUND_REASON_LABELS).map(([value, label]) => ({ value, label }))]}
              error={errorOf('reason')}
              {...form.register('reason')}
              data-testid="refund-reason"
            />
            <Textarea label="Note" required={reason === 'other'} autosize minRows={2} maxLength={500} error={errorOf('note')} {...form.register('note')} />
            <Radio.Group
              label="How the money goes back"
              required
              value={method}
              onChange={(value) => form.setValue('method', value as typeof method)}
              error={errorOf('method')}
            >
              <Stack gap="xs" mt={4}>
                <Radio
                  value="reversal"
                  disabled={!preview.reversal}
                  label="M-Pesa Reversal"
                  description={
                    preview.reversal
                      ? 'Returns the whole payment to the payer; M-Pesa texts them'
                      : 'Not possible: part of this payment is already refunded or asked'
                  }
                  data-testid="refund-method-reversal"
                />
                <Radio
                  value="b2c"
                  disabled={!preview.b2c}
                  label="B2C payment"
                  description={
                    preview.payer_phone
                      ? `Pays ${localPhone(preview.payer_phone)} from the utility account; any amount`
                      : "Not possible: M-Pesa hid the payer's phone number"
                  }
                  data-testid="refund-method-b2c"
                />
              </Stack>
            </Radio.Group>
            {preview.bought ? (
              <Paper withBorder p="sm" data-testid="refund-bought">
                <Text size="sm">
                  This payment bought <b>{preview.bought.what}</b> ({formatMoney(preview.bought.amount)}), running to{' '}
                  {formatDate(preview.bought.expires_at)}. When the money is back:
                </Text>
                <Radio.Group value={effect} onChange={(value) => form.setValue('effect', value as RefundEffect)} error={errorOf('effect')} aria-label="What happens to what it bought">
                  <Stack gap="xs" mt="xs">
                    <Radio value="cancel" label="It ends (cancelled)" data-testid="refund-effect-cancel" />
                    <Radio
                      value="shorten"
                      label={`It is shortened to end on ${shortenedEnd(preview.bought, amount)}`}
                      data-testid="refund-effect-shorten"
                    />
                    <Radio value="none" label="It runs on unchanged" />
                  </Stack>
                </Radio.Group>
              </Paper>
            ) : (
              <Text size="sm" c="dimmed">
                This payment bought no running subscription or plan.
              </Text>
            )}
          </>
        );
      }}
    </FormModal>
  );
}

/**
 * Whether this user may ask for a refund of this payment: an admin, a received payment with money
 * left once what its refunds already ask (not only what they returned) is taken off.
 */
export function useMayRefund(): (payment: RefundablePayment) => boolean {
  const mayRefund = can(useRole(), 'manage:refunds');
  return (payment) =>
    mayRefund && payment.status !== 'rejected' && payment.amount !== null && Math.max(payment.refunded_amount, payment.refund_asked_amount) < payment.amount;
}

/** "Refund" on a payment row (admins only; the server refuses anyone else): the screen opens the form. */
export function RefundButton({ payment, onClick }: { payment: RefundablePayment; onClick: () => void }) {
  const mayRefund = useMayRefund();
  if (!mayRefund(payment)) return null;
  return (
    <Button size="compact-xs" variant="light" color="grape" onClick={onClick} data-testid={`refund-${payment.transaction_reference}`}>
      Refund
    </Button>
  );
}

/**
 * The refund request form of a payment: what is left of it, Reversal or B2C, and what it bought
 * (decision 036). Kept by the screen, not the row, so that it stays open when the table redraws.
 */
export function RefundRequestModal({ payment, onClose }: { payment: RefundablePayment | null; onClose: () => void }) {
  const preview = useRefundPreview(payment?.id ?? null);
  // A refused preview (the HTTP client said why) closes the question.
  const refused = payment !== null && preview.isError;
  useEffect(() => {
    if (refused) onClose();
  }, [refused, onClose]);
  if (!payment || !preview.data || preview.data.payment_id !== payment.id) return null;
  return <RefundRequestForm preview={preview.data} onClose={onClose} />;
}

/** "Refunded KES 50.00" under a payment's amount, once M-Pesa returned part or all of it. */
export function RefundedAmount({ payment }: { payment: Pick<RefundablePayment, 'refunded_amount' | 'transaction_reference'> }) {
  if (payment.refunded_amount <= 0) return null;
  return (
    <Text span size="xs" c="grape.8" display="block" data-testid={`refunded-${payment.transaction_reference}`}>
      Refunded {formatMoney(payment.refunded_amount)}
    </Text>
  );
}
