import { centsToKes, smsCount, type SmsEstimate } from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import { getSetting } from '../settings/service.ts';
import type { SmsProviders } from './circuit.ts';
import { currentProvider, pricePerPartCents } from './providers.ts';

/**
 * What a text costs to send: the contract's one count of parts (the one the outbox stores and the
 * composers show) times the recipients times the price of a part (`sms_cost_per_part_cents`).
 */
export async function estimateSms(db: Queryable, text: string, recipients: number, providers?: SmsProviders): Promise<SmsEstimate> {
  const count = smsCount(text);
  // The price of the provider SMS go through now (decision 062): the second one's while the primary is down.
  const provider = providers?.secondary ? await currentProvider(db, providers) : undefined;
  const perPartCents = providers && provider ? await pricePerPartCents(db, providers, provider) : await getSetting(db, 'sms_cost_per_part_cents');
  return {
    ...count,
    recipients,
    ...(provider ? { provider } : {}),
    price_per_part: centsToKes(perPartCents),
    cost: centsToKes(recipients * count.parts * perPartCents),
  };
}
