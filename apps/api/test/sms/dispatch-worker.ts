/**
 * A dispatcher in its own process, for the crash test: it drains the outbox of the database named
 * by its environment through Africa's Talking at AT_BASE_URL, prints its report and exits. The test
 * kills it mid-batch (also mid-failover, with ADVANTA_BASE_URL).
 */
import pino from 'pino';
import { openDatabase } from '../../src/db/client.ts';
import { africasTalkingGateway } from '../../src/integrations/sms/africastalking.ts';
import { dispatchQueuedSms } from '../../src/modules/sms/outbox.ts';
import { advantaGateway } from '../../src/integrations/sms/advanta.ts';

const env = process.env;
const database = await openDatabase({ url: env.WORKER_DATABASE_URL, dataDir: env.WORKER_PGLITE_DIR });
const gateway = africasTalkingGateway({
  username: env.AT_USERNAME!,
  apiKey: env.AT_API_KEY!,
  baseUrl: env.AT_BASE_URL!,
  logger: pino({ level: 'silent' }),
});
// With ADVANTA_BASE_URL, the second aggregator too (the failover crash test, decision 062).
const secondary = env.ADVANTA_BASE_URL
  ? advantaGateway({
      baseUrl: env.ADVANTA_BASE_URL,
      apiKey: env.ADVANTA_API_KEY!,
      partnerId: env.ADVANTA_PARTNER_ID!,
      senderId: 'BETDESK',
      logger: pino({ level: 'silent' }),
    })
  : null;
const report = await dispatchQueuedSms(database, secondary ? { primary: gateway, secondary } : gateway, {
  batchSize: Number(env.WORKER_BATCH_SIZE),
  sendRate: 10_000,
  claimMs: Number(env.WORKER_CLAIM_MS),
});
await database.close();
console.log(JSON.stringify(report));
