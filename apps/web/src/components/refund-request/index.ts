export { RefundButton, RefundedAmount, RefundRequestModal, REFUND_REASON_LABELS, type RefundablePayment } from './refund-request.tsx';
