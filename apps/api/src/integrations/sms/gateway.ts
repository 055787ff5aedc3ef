/** What the outbox hands a gateway: one row of sms_messages. */
export interface OutgoingSms {
  id: number;
  recipient: string;
  body: string;
}

/**
 * What became of one message. `retry` is a transient failure (the queue tries again later);
 * `failed` is final.
 */
export type SendOutcome =
  | { id: number; status: 'sent'; providerMessageId: string; costCents: number | null }
  | { id: number; status: 'failed'; reason: string }
  | { id: number; status: 'retry'; reason: string };

export interface SmsBalance {
  amount: number;
  currency: string;
}

export interface SmsGateway {
  readonly name: string;
  send(batch: OutgoingSms[]): Promise<SendOutcome[]>;
  balance(): Promise<SmsBalance | null>;
}
