import type { Queryable } from '../../db/client.ts';
import { advantaOutcomeOf, isBlacklistedSender } from '../../integrations/sms/advanta.ts';
import { announce } from '../events/service.ts';
import { getSetting } from '../settings/service.ts';
import { providersOf, type SmsProviders } from './circuit.ts';
import { optOut } from './opt-outs.ts';
import * as q from './queries/messages.ts';

/**
 * A delivery report of the second aggregator (decision 062), pushed to its callback or pulled with
 * getdlr: it settles the same message as Africa's Talking's reports do. `SenderName Blacklisted`
 * (the phone blocked our sender id) opts the phone out as a 406 UserInBlacklist does.
 */
export async function recordAdvantaReport(db: Queryable, report: { messageId: string; description: string }): Promise<boolean> {
  const outcome = advantaOutcomeOf(report.description);
  const applied = await q.applyProviderReport(
    db,
    { providerMessageId: report.messageId, outcome, providerStatus: report.description, networkCode: null, failureReason: report.description.replace(/\s+/g, '') },
    'advanta',
  );
  if (applied.failedRecipient && isBlacklistedSender(report.description)) {
    await optOut(db, { phone: applied.failedRecipient, scope: 'all', source: 'blacklist', reason: 'The provider reported SenderName Blacklisted' });
  }
  if (applied.known && outcome !== 'in-progress') await announce(db, { type: 'sms.status', status: outcome, count: 1 });
  return applied.known;
}

/**
 * Asks each provider that offers it (getdlr) for the delivery reports of its messages still `sent`
 * `sms_dlr_pull_minutes` after sending, at most `limit` a run; each is asked again after as long.
 */
export async function pullDeliveryReports(db: Queryable, providers: SmsProviders, now = new Date(), limit = 200): Promise<number> {
  const olderThan = new Date(now.getTime() - (await getSetting(db, 'sms_dlr_pull_minutes')) * 60_000);
  let settled = 0;
  for (const gateway of providersOf(providers)) {
    if (!gateway.deliveryReport) continue;
    for (const due of await q.reportsDue(db, gateway.name, olderThan, limit)) {
      const report = await gateway.deliveryReport(due.provider_message_id).catch(() => null);
      if (!report) continue;
      if (gateway.name === 'advanta') await recordAdvantaReport(db, { messageId: due.provider_message_id, description: report.status });
      settled += 1;
    }
  }
  return settled;
}
