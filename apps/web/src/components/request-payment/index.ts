export { RequestPaymentButton, type Payer } from './request-payment.tsx';
