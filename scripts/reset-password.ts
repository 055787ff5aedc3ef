/**
 * npm run reset-password -- --email E [--password P]
 * A lost admin password: sets a new one (generated and printed when --password is not given) and
 * ends the user's sessions. Run it where the server runs. On the embedded PGlite database the server
 * must be stopped first: while it holds the data directory this refuses (exit 1) and changes nothing.
 *
 * npm run reset-password -- --email E --clear-2fa
 * A lost authenticator: removes the user's second factor and recovery codes (audited) and ends
 * their sessions; the password stays. They sign in with the password and enrol again.
 */
import { parseArgs } from 'node:util';
import { MIN_PASSWORD_LENGTH } from '@betdesk/contract';
import { databaseOptions, ConfigError, loadConfig } from '../apps/api/src/config.ts';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { EmbeddedDatabaseBusyError } from '../apps/api/src/db/pglite-lock.ts';
import { temporaryPassword } from '../apps/api/src/lib/crypto.ts';
import { clearSecondFactorByEmail, resetPasswordByEmail } from '../apps/api/src/modules/auth/service.ts';

const usage = 'Usage: npm run reset-password -- --email E [--password P | --clear-2fa]';

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: { email: { type: 'string' }, password: { type: 'string' }, 'clear-2fa': { type: 'boolean' } },
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    return 2;
  }
  if (!values.email) {
    console.error(`Missing --email\n${usage}`);
    return 2;
  }
  if (values['clear-2fa'] && values.password !== undefined) {
    console.error(`--clear-2fa keeps the password: run it without --password\n${usage}`);
    return 2;
  }
  if (values.password !== undefined && values.password.length < MIN_PASSWORD_LENGTH) {
    console.error(`--password must be at least ${MIN_PASSWORD_LENGTH} characters`);
    return 2;
  }
  const password = values.password ?? temporaryPassword(14);
  const config = loadConfig();
  const database = await openDatabase(databaseOptions(config));
  try {
    await database.migrate();
    if (values['clear-2fa']) {
      const cleared = await clearSecondFactorByEmail(database.db, values.email);
      if (!cleared) {
        console.error(`No user with the email ${values.email}.`);
        return 1;
      }
      console.log(
        cleared.cleared
          ? `Two-factor sign-in of ${cleared.name} is cleared; their sessions are ended. They enrol again on My Profile.`
          : `${cleared.name} had no second factor; their sessions are ended.`,
      );
      return 0;
    }
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
