import type { FastifyBaseLogger } from 'fastify';
import { ADMIN_CATEGORY_ID } from '@betdesk/contract';
import type { AppDeps } from './deps.ts';
import { temporaryPassword } from './lib/crypto.ts';
import { ensureSettingDefaults } from './modules/settings/service.ts';
import { createUser, liveUserCount } from './modules/users/service.ts';
import { seedDemo } from './seed/demo.ts';

export interface BootReport {
  /** Set when this boot created the first admin. */
  admin: { email: string; password: string | null } | null;
  demoSeeded: boolean;
}

/**
 * Migrations, setting defaults, the first admin (when no user exists) and, on an empty embedded
 * database, demo data. Safe to run on every boot.
 */
export async function bootstrap(deps: AppDeps, logger: FastifyBaseLogger): Promise<BootReport> {
  const { config, database, db } = deps;
  await database.migrate();
  await ensureSettingDefaults(db);

  const empty = (await liveUserCount(db)) === 0;
  let admin: BootReport['admin'] = null;
  if (empty) {
    const password = config.adminPassword ?? temporaryPassword(14);
    await db.transaction((tx) =>
      createUser(
        tx,
        {
          name: 'Administrator',
          email: config.adminEmail,
          phone_number: '0700000000',
          password,
          category_id: ADMIN_CATEGORY_ID,
        },
        null,
      ),
    );
    admin = { email: config.adminEmail, password: config.adminPassword ? null : password };
    logger.info({ email: config.adminEmail }, 'created the first admin');
  }

  const wantDemo = config.seedDemo ?? (database.kind === 'pglite' && empty);
  const demoSeeded = wantDemo ? await seedDemo(deps) : false;
  if (demoSeeded) logger.info('seeded demo data');
  return { admin, demoSeeded };
}
