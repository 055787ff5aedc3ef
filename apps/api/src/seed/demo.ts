import { sql } from 'drizzle-orm';
import { AGENT_CATEGORY_ID } from '@betdesk/contract';
import type { AppDeps } from '../deps.ts';
import { settings } from '../db/schema/index.ts';
import { createUser } from '../modules/users/service.ts';
import { seedBet4meDemo } from './bet4me.ts';
import { seedDemoPayments } from './payments.ts';
import { seedTipsDemo } from './tips.ts';
import { seedFeedDemo } from './feed.ts';

/** Password of every demo staff account (demo data is for the embedded try-out only). */
export const DEMO_STAFF_PASSWORD = 'betdesk-demo';

export const demoStaff = [
  { name: 'Wanjiku Kamau', email: 'wanjiku@betdesk.local', phone_number: '0712345678', gender: 'female' },
  { name: 'Otieno Ochieng', email: 'otieno@betdesk.local', phone_number: '0722456789', gender: 'male' },
  { name: 'Achieng Atieno', email: 'achieng@betdesk.local', phone_number: '0110234567', gender: 'female' },
] as const;

const MARKER = 'demo_data_seeded_at';

/**
 * Demo data that looks like the business. Runs once per database (a marker row in settings), in
 * one transaction so a failed seed leaves nothing half-written. Returns whether it seeded.
 */
export async function seedDemo(deps: AppDeps): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const inserted = await tx
      .insert(settings)
      .values({ key: MARKER, value: sql`to_jsonb(now())`, description: 'When demo data was seeded' })
      .onConflictDoNothing({ target: settings.key })
      .returning({ key: settings.key });
    if (inserted.length === 0) return false;
    for (const staff of demoStaff) {
      await createUser(tx, { ...staff, password: DEMO_STAFF_PASSWORD, category_id: AGENT_CATEGORY_ID }, null);
    }
    await seedTipsDemo(tx, null);
    await seedBet4meDemo(tx, deps.config.secretsKey);
    await seedDemoPayments(tx, deps.config.mpesa.shortcode);
    if (deps.config.sportsFeed?.kind === 'api-football-fake') await seedFeedDemo(tx);
    return true;
  });
}
