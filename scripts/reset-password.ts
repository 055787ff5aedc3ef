/**
 * npm run reset-password -- --email E [--password P]
 * A lost admin password: sets a new one (generated and printed when --password is not given) and
 * ends the user's sessions. Run it where the server runs. On the embedded PGlite database the server
 * must be stopped first: while it holds the data directory this refuses (exit 1) and changes nothing.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { MIN_PASSWORD_LENGTH } from '@betdesk/contract';
import { ConfigError, loadConfig } from '../apps/api/src/config.ts';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { EmbeddedDatabaseBusyError } from '../apps/api/src/db/pglite-lock.ts';
import { temporaryPassword } from '../apps/api/src/lib/crypto.ts';
import { resetPasswordByEmail } from '../apps/api/src/modules/auth/service.ts';

const usage = 'Usage: npm run reset-password -- --email E [--password P]';

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({ options: { email: { type: 'string' }, password: { type: 'string' } } }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    return 2;
  }
  if (!values.email) {
    console.error(`Missing --email\n${usage}`);
    return 2;
  }
  if (values.password !== undefined && values.password.length < MIN_PASSWORD_LENGTH) {
    console.error(`--password must be at least ${MIN_PASSWORD_LENGTH} characters`);
    return 2;
  }
  const password = values.password ?? temporaryPassword(14);
  const config = loadConfig();
  const database = await openDatabase({ url: config.databaseUrl, dataDir: join(config.dataDir, 'pglite') });
  try {
    await database.migrate();
    const user = await resetPasswordByEmail(database.db, values.email, password);
    if (!user) {
      console.error(`No user with the email ${values.email}.`);
      return 1;
    }
    console.log(`Password of ${user.name} <${values.email.trim().toLowerCase()}> reset; their sessions are ended.`);
    if (!values.password) console.log(`New password: ${password}\nIt is shown only once: change it after signing in (My Profile).`);
    return 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError || error instanceof EmbeddedDatabaseBusyError ? error.message : error);
    process.exit(1);
  },
);
