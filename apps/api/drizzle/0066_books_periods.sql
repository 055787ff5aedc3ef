-- Decision 075: a month of the books closes after its VAT return is filed. An admin closes it with the
-- return's reference, a second admin confirms with their second factor; reopening is asked and
-- confirmed the same way. The month's figures as they stood at the confirmation are kept (snapshot).
CREATE TABLE "books_periods" (
  "month" text PRIMARY KEY NOT NULL,
  "state" text NOT NULL,
  "return_reference" text NOT NULL,
  "asked_by" integer NOT NULL REFERENCES "users"("id"),
  "asked_at" timestamp with time zone NOT NULL,
  "closed_by" integer REFERENCES "users"("id"),
  "closed_at" timestamp with time zone,
  "first_closed_at" timestamp with time zone,
  "confirmed_by" integer REFERENCES "users"("id"),
  "snapshot" jsonb,
  CONSTRAINT "books_periods_month" CHECK ("month" ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
  CONSTRAINT "books_periods_state" CHECK ("state" in ('closing', 'closed', 'reopening', 'open'))
);
