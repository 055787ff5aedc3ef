export { RefundButton, RefundedAmount, REFUND_REASON_LABELS, type RefundablePayment } from './refund-request.tsx';
