import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { SmsGateway } from './gateway.ts';
import { africasTalkingGateway } from './africastalking.ts';
import { logGateway } from './log-gateway.ts';
import { advantaGateway } from './advanta.ts';
import { sharedFakeAdvanta } from './fake-advanta.ts';

/** The gateway SMS_PROVIDER names. */
export function createSmsGateway(config: Config, logger: FastifyBaseLogger): SmsGateway {
  switch (config.sms.provider) {
    case 'log':
      return logGateway(logger, config.sms.logBalance);
    case 'africastalking':
      return africasTalkingGateway({ ...config.sms.africasTalking!, logger });
  }
}

/** The second aggregator SMS_FAILOVER_PROVIDER names (decision 062), or null. */
export function createFailoverGateway(config: Config, logger: FastifyBaseLogger): SmsGateway | null {
  const f = config.sms.failover;
  if (!f) return null;
  if (f.kind === 'advanta') return advantaGateway({ ...f, logger });
  // The demo: the in-process fake answers, started when first used.
  let real: Promise<SmsGateway> | null = null;
  const gateway = () =>
    (real ??= sharedFakeAdvanta().then((fake) =>
      advantaGateway({ baseUrl: fake.url, apiKey: fake.apiKey, partnerId: fake.partnerId, senderId: f.senderId, promoSenderId: f.promoSenderId, logger }),
    ));
  return {
    name: 'advanta',
    carriesPromotional: Boolean(f.promoSenderId),
    send: async (batch) => (await gateway()).send(batch),
    balance: async () => (await gateway()).balance(),
    deliveryReport: async (id) => (await gateway()).deliveryReport!(id),
  };
}
