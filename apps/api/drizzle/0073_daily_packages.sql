-- Decision 095: a package may be daily, priced per day ("billing" 'daily'): its price is one day's,
-- its length one day, and a purchase buys 1 to 30 days at once (days x the day price). What an STK
-- push or a USSD purchase asked for carries its days; an invoice's line carries its quantity (the
-- days bought), so that the line reads quantity x unit price.
ALTER TABLE "price_packages" ADD COLUMN IF NOT EXISTS "billing" text DEFAULT 'period' NOT NULL;
--> statement-breakpoint
ALTER TABLE "price_packages" ADD CONSTRAINT "price_packages_billing" CHECK ("billing" in ('period', 'daily') and ("billing" = 'period' or "duration_days" = 1));
--> statement-breakpoint
ALTER TABLE "stk_requests" ADD COLUMN IF NOT EXISTS "days" integer;
--> statement-breakpoint
ALTER TABLE "stk_requests" ADD CONSTRAINT "stk_requests_days" CHECK ("days" is null or "days" between 1 and 30);
--> statement-breakpoint
ALTER TABLE "ussd_purchases" ADD COLUMN IF NOT EXISTS "days" integer;
--> statement-breakpoint
ALTER TABLE "ussd_purchases" ADD CONSTRAINT "ussd_purchases_days" CHECK ("days" is null or "days" between 1 and 30);
--> statement-breakpoint
ALTER TABLE "tax_invoices" ADD COLUMN IF NOT EXISTS "quantity" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE "tax_invoices" ADD CONSTRAINT "tax_invoices_quantity" CHECK ("quantity" >= 1);
