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
  | { id: number; status: 'failed'; reason: string; providerStatus?: string; cause?: string; refused?: Refusal }
  | { id: number; status: 'retry'; reason: string; cause?: string; refused?: Refusal }
  | { id: number; status: 'unconfirmed'; reason: string };

/**
 * The cause of a send the recipient's Do Not Disturb setting refused: final for that message, and
 * the phone gets no more promotional messages (decision 018).
 */
export const DND_CAUSE = 'DoNotDisturbRejection';

/**
 * The provider refused the request before accepting any of it (decision 062): it was unreachable
 * (connection refused, DNS), answered an error, or refused the whole call for a cause of its own
 * (credentials, balance, sender id). Such a batch may go through another provider; one the provider
 * may have accepted (a timeout after hand-over: `unconfirmed`) never does.
 * `opensCircuit`: the cause will not clear by trying again soon (credentials, balance, sender id).
 */
export interface Refusal {
  opensCircuit: boolean;
}

/** A delivery report asked of the provider (getdlr): its word and whether it is final. */
export interface PulledReport {
  status: string;
}

export interface SmsBalance {
  amount: number;
  currency: string;
}

export interface SmsGateway {
  readonly name: string;
  send(batch: OutgoingSms[]): Promise<SendOutcome[]>;
  balance(): Promise<SmsBalance | null>;
  /** Whether a promotional sender id is registered here (a promotional text goes only where it is). */
  readonly carriesPromotional?: boolean;
  /** Asks for a sent message's delivery report (Advanta's getdlr); null while the provider has none. */
  deliveryReport?(providerMessageId: string): Promise<PulledReport | null>;
}
