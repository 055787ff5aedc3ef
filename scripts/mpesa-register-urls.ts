// Registers this server's C2B confirmation and validation URLs with Daraja (once per shortcode):
//   npm run mpesa:register-urls
// Needs MPESA_CONSUMER_KEY, MPESA_CONSUMER_SECRET, MPESA_SHORTCODE and MPESA_CALLBACK_BASE_URL.
import { loadConfig } from '../apps/api/src/config.ts';
import { darajaFor } from '../apps/api/src/integrations/mpesa/daraja.ts';

const config = loadConfig();
const daraja = darajaFor(config.mpesa, config.webhookSecret);
if (!daraja) {
  console.error(
    'M-Pesa is not configured: set MPESA_CONSUMER_KEY, MPESA_CONSUMER_SECRET, MPESA_SHORTCODE and MPESA_CALLBACK_BASE_URL (and MPESA_BASE_URL for production).',
  );
  process.exit(1);
}
try {
  const answer = await daraja.registerUrls();
  console.log(`Daraja: ${answer.responseDescription}`);
  console.log(`  confirmation: ${answer.confirmationUrl.replace(config.webhookSecret, '<WEBHOOK_SECRET>')}`);
  console.log(`  validation:   ${answer.validationUrl.replace(config.webhookSecret, '<WEBHOOK_SECRET>')}`);
} catch (error) {
  console.error(`Daraja refused: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
