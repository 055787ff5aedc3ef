/**
 * node --import tsx apps/web/e2e/operator-admins.ts '<json list>': what `npm run create-user --
 * --category 1` does for each admin of the list, in one process (one migration of the embedded
 * database instead of one per admin), before an E2E server first starts on DATA_DIR.
 */
import { join } from 'node:path';
// The users service reaches the API's route toolkit, whose schemas carry the OpenAPI fields that
// @fastify/swagger's types add: loaded here as the API loads them.
import type {} from '@fastify/swagger';
import { ADMIN_CATEGORY_ID } from '@betdesk/contract';
import { loadConfig } from '../../api/src/config.ts';
import { openDatabase } from '../../api/src/db/client.ts';
import { ensureSettingDefaults } from '../../api/src/modules/settings/service.ts';
import { createUser } from '../../api/src/modules/users/service.ts';

const admins = JSON.parse(process.argv[2] ?? '[]') as { email: string; password: string; name: string; phone: string }[];
const config = loadConfig();
const database = await openDatabase({ url: config.databaseUrl, dataDir: join(config.dataDir, 'pglite') });
try {
  await database.migrate();
  await ensureSettingDefaults(database.db);
  for (const who of admins) {
    await database.db.transaction((tx) =>
      createUser(tx, { email: who.email, password: who.password, name: who.name, phone_number: who.phone, category_id: ADMIN_CATEGORY_ID }, null),
    );
  }
} finally {
  await database.close();
}
