import { centsToKes, smsCount, type SmsEstimate } from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import { getSetting } from '../settings/service.ts';

/**
 * What a text costs to send: the contract's one count of parts (the one the outbox stores and the
 * composers show) times the recipients times the price of a part (`sms_cost_per_part_cents`).
 */
export async function estimateSms(db: Queryable, text: string, recipients: number): Promise<SmsEstimate> {
  const count = smsCount(text);
  const perPartCents = await getSetting(db, 'sms_cost_per_part_cents');
  return {
    ...count,
    recipients,
    price_per_part: centsToKes(perPartCents),
    cost: centsToKes(recipients * count.parts * perPartCents),
  };
}
