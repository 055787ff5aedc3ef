-- A payer's payments settle one after another, each seeing the last (docs/decisions/054-payer-locked-first.md).
--
-- A client: a payment, a bonus payment or a subscription written for a client locks the client's row
-- FOR NO KEY UPDATE (the lock an update of the row takes), not FOR SHARE. A subscription's trigger updates
-- that row (clients.running_until), and two transactions that each held it FOR SHARE and then both wanted to
-- update it waited for each other: PostgreSQL's deadlock (40P01) rolled one back, and twelve plan payments at
-- once for one client left most of them unclaimed. Other rows of a client (bets, bonuses earned) still share
-- the row: nothing in their transactions updates it. Both modes wait for a reassignment in flight, as before.
CREATE OR REPLACE FUNCTION take_client_owner() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.client_id IS NULL THEN
    NEW.assigned_user_id := NULL;
  ELSIF TG_TABLE_NAME IN ('mpesa_payments', 'bonus_payments', 'subscriptions') THEN
    SELECT c.assigned_user_id INTO NEW.assigned_user_id FROM clients c WHERE c.id = NEW.client_id FOR NO KEY UPDATE;
  ELSE
    SELECT c.assigned_user_id INTO NEW.assigned_user_id FROM clients c WHERE c.id = NEW.client_id FOR SHARE;
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint

-- A tips subscriber: a payment stored (or claimed) for a subscriber locks the subscriber's row the same way.
-- A subscription stacks after the latest one of the same thing, read when its insert starts: two first
-- purchases at once both found none and started now, overlapping (twelve weeks paid at once covered one).
-- Locked at the payment's first write, the second payment waits for the first to commit, and its
-- subscription's insert, a later statement, sees the first one's and stacks after it.
CREATE OR REPLACE FUNCTION lock_payment_subscriber() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.subscriber_id IS NOT NULL THEN
    PERFORM 1 FROM tips_subscribers s WHERE s.id = NEW.subscriber_id FOR NO KEY UPDATE;
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER mpesa_payments_lock_subscriber BEFORE INSERT OR UPDATE OF subscriber_id ON mpesa_payments
  FOR EACH ROW EXECUTE FUNCTION lock_payment_subscriber();
