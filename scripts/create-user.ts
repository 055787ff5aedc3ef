/**
 * npm run create-user -- --email E --password P --name N --phone 07XXXXXXXX --category 1|2
 * Creates a user on the configured database (stop the server first when on the embedded PGlite).
 */
import { parseArgs } from 'node:util';
import { ZodError } from 'zod';
import { databaseOptions, ConfigError, loadConfig } from '../apps/api/src/config.ts';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { EmbeddedDatabaseBusyError } from '../apps/api/src/db/pglite-lock.ts';
import { AppError } from '../apps/api/src/http/errors.ts';
import { ensureSettingDefaults } from '../apps/api/src/modules/settings/service.ts';
import { createUser } from '../apps/api/src/modules/users/service.ts';

const usage =
  'Usage: npm run create-user -- --email E --password P --name N --phone 07XXXXXXXX --category 1|2 [--gender male|female]';

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        email: { type: 'string' },
        password: { type: 'string' },
        name: { type: 'string' },
        phone: { type: 'string' },
        category: { type: 'string' },
        gender: { type: 'string' },
      },
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    return 2;
  }
  const missing = ['email', 'password', 'name', 'phone', 'category'].filter(
    (k) => !values[k as keyof typeof values],
  );
  if (missing.length > 0) {
    console.error(`Missing ${missing.map((m) => `--${m}`).join(', ')}\n${usage}`);
    return 2;
  }
  const config = loadConfig();
  const database = await openDatabase(databaseOptions(config));
  try {
    await database.migrate();
    await ensureSettingDefaults(database.db);
    const id = await database.db.transaction((tx) =>
      createUser(
        tx,
        {
          email: values.email!,
          password: values.password!,
          name: values.name!,
          phone_number: values.phone!,
          category_id: Number(values.category),
          gender: (values.gender as 'male' | 'female' | undefined) ?? null,
        },
        null,
      ),
    );
    console.log(`Created user #${id} ${values.email!.toLowerCase()} (category ${values.category}).`);
    return 0;
  } catch (error) {
    if (error instanceof ZodError) {
      for (const issue of error.issues) console.error(`--${flagOf(String(issue.path[0]))}: ${issue.message}`);
      return 2;
    }
    if (error instanceof AppError) {
      console.error(error.info);
      return 2;
    }
    throw error;
  } finally {
    await database.close();
  }
}

function flagOf(field: string): string {
  return { phone_number: 'phone', category_id: 'category' }[field] ?? field;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError || error instanceof EmbeddedDatabaseBusyError ? error.message : error);
    process.exit(1);
  },
);
