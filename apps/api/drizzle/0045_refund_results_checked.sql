-- A credit note's eTIMS reason code follows the refund's reason (decision 055); older credit notes
-- keep 06 Refund, what they were sent with.
ALTER TABLE "tax_invoices" ADD COLUMN "credit_reason_code" text;
