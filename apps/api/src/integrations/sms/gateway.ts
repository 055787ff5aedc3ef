/** What the outbox hands a gateway: one row of sms_messages. */
export interface OutgoingSms {
  id: number;
  recipient: string;
  body: string;
  /** Promotional traffic leaves under its own sender id when one is configured. */
  promotional?: boolean;
}

/**
 * What became of one message.
 * - `sent`: the gateway accepted it (delivery reports say the rest).
 * - `failed`: final, sending again would not help (an invalid number, a blacklisted user).
 * - `retry`: transient (gateway error, insufficient balance); the queue tries again after a backoff
 *   for up to the retry window (setting `sms_retry_hours`).
 * `cause` is the gateway's one-word reason (InvalidSenderId, InsufficientBalance ...): what the log
 * shows, the dashboard groups and an admin resends by.
 * - `unconfirmed`: the request may have reached the gateway but its answer did not reach us; it is
 *   never resent automatically, so a message is not sent twice.
 */
export type SendOutcome =
  | {
      id: number;
      status: 'sent';
      providerMessageId: string;
      costCents: number | null;
      /** The gateway's own part count, when it gives one. */
      parts?: number;
      providerStatus?: string;
    }
  | { id: number; status: 'failed'; reason: string; providerStatus?: string; cause?: string }
  | { id: number; status: 'retry'; reason: string; cause?: string }
  | { id: number; status: 'unconfirmed'; reason: string };

/**
 * The cause of a send the recipient's Do Not Disturb setting refused: final for that message, and
 * the phone gets no more promotional messages (decision 018).
 */
export const DND_CAUSE = 'DoNotDisturbRejection';

export interface SmsBalance {
  amount: number;
  currency: string;
}

export interface SmsGateway {
  readonly name: string;
  send(batch: OutgoingSms[]): Promise<SendOutcome[]>;
  balance(): Promise<SmsBalance | null>;
}
