import type { FastifyBaseLogger } from 'fastify';
import type { SmsGateway } from './gateway.ts';

/**
 * The embedded default: nothing leaves the machine. Each message is written to the log (number
 * masked, text length only) and marked sent, so the outbox and its screens work end to end.
 */
export function logGateway(logger: FastifyBaseLogger, balanceKes: number): SmsGateway {
  return {
    name: 'log',
    async send(batch) {
      return batch.map((sms) => {
        logger.info(
          { smsId: sms.id, to: `${sms.recipient.slice(0, 6)}***${sms.recipient.slice(-2)}`, length: sms.body.length },
          'sms sent through the log gateway',
        );
        return { id: sms.id, status: 'sent' as const, providerMessageId: `log-${sms.id}`, costCents: 0 };
      });
    },
    async balance() {
      return { amount: balanceKes, currency: 'KES' };
    },
  };
}
