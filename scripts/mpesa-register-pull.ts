// Registers the shortcode for Daraja Pull Transactions (once; "already registered" is fine):
//   npm run mpesa:register-pull -- --nominated-number 0722000000
// The nominated number is the Safaricom phone tied to the organisation's M-Pesa account.
// Needs MPESA_CONSUMER_KEY, MPESA_CONSUMER_SECRET, MPESA_SHORTCODE and MPESA_CALLBACK_BASE_URL.
import { parseArgs } from 'node:util';
import { loadConfig } from '../apps/api/src/config.ts';
import { darajaFor } from '../apps/api/src/integrations/mpesa/daraja.ts';

const { values } = parseArgs({ options: { 'nominated-number': { type: 'string' } } });
const nominated = values['nominated-number']?.trim();
if (!nominated || !/^(0|254)[17]\d{8}$/.test(nominated)) {
  console.error('Give the nominated Safaricom number: --nominated-number 0722000000 (07XXXXXXXX or 2547XXXXXXXX).');
  process.exit(1);
}
const config = loadConfig();
const daraja = darajaFor(config.mpesa, config.webhookSecret);
if (!daraja) {
  console.error(
    'M-Pesa is not configured: set MPESA_CONSUMER_KEY, MPESA_CONSUMER_SECRET, MPESA_SHORTCODE and MPESA_CALLBACK_BASE_URL (and MPESA_BASE_URL for production).',
  );
  process.exit(1);
}
try {
  const answer = await daraja.registerPull(nominated);
  console.log(`Daraja: ${answer.responseDescription}`);
  console.log(`  callback: ${answer.callbackUrl.replace(config.webhookSecret, '<WEBHOOK_SECRET>')}`);
} catch (error) {
  console.error(`Daraja refused: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
