-- Decision 077 (amended): the promo code a punter typed on the USSD menu travels with the queued
-- purchase to the job, which prices it again and holds its use with the STK push.
ALTER TABLE "ussd_purchases" ADD COLUMN IF NOT EXISTS "promo_code" text;
