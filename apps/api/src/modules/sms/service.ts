import type { AppDeps } from '../../deps.ts';
import type { SmsBalance } from '../../integrations/sms/gateway.ts';

/** The SMS gateway's balance for the dashboard; null when the gateway cannot tell. */
export async function currentSmsBalance(deps: AppDeps): Promise<SmsBalance | null> {
  return deps.sms.balance();
}
