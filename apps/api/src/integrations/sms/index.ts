import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { SmsGateway } from './gateway.ts';
import { africasTalkingGateway } from './africastalking.ts';
import { logGateway } from './log-gateway.ts';

/** The gateway SMS_PROVIDER names. */
export function createSmsGateway(config: Config, logger: FastifyBaseLogger): SmsGateway {
  switch (config.sms.provider) {
    case 'log':
      return logGateway(logger, config.sms.logBalance);
    case 'africastalking':
      return africasTalkingGateway({ ...config.sms.africasTalking!, logger });
  }
}
