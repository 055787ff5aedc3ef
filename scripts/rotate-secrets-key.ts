/**
 * npm run secrets:rotate -- --new-key <64 hex characters>
 *
 * Re-seals every value sealed with SECRETS_KEY (every `sealedText` column of the schema: clients'
 * platform passwords, second-factor secrets, the eTIMS device's key; and every `*_sealed` field of a
 * settings value: the M-Pesa initiator's password) under a new key, in one transaction: each value
 * is opened with the current key first, and if any does not open nothing is changed. Stop every Betdesk process first (the embedded database refuses
 * while a server holds it). On the embedded database without SECRETS_KEY set, the new key is written
 * into DATA_DIR/local-secrets.json; otherwise put it in the environment before starting again.
 * Older backups keep needing the old key (their manifest names its fingerprint).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { databaseOptions, ConfigError, loadConfig, secretsKeyFingerprint, settingsEnvironment } from '../apps/api/src/config.ts';
import { openDatabase, type Queryable } from '../apps/api/src/db/client.ts';
import { EmbeddedDatabaseBusyError } from '../apps/api/src/db/pglite-lock.ts';
import { resealEverySealedValue } from '../apps/api/src/db/sealed.ts';
import { decryptSecret, encryptSecret } from '../apps/api/src/lib/crypto.ts';
import { audit } from '../apps/api/src/modules/audit/service.ts';

/**
 * Re-seals every value sealed with SECRETS_KEY from `oldKey` to `newKey` in the caller's transaction
 * (the places come from the schema: db/sealed.ts); returns the count per place. A value that does
 * not open with `oldKey` throws, and the caller's transaction keeps nothing.
 */
export function resealAll(tx: Queryable, oldKey: Buffer, newKey: Buffer): Promise<Record<string, number>> {
  return resealEverySealedValue(tx, (sealed, where) => {
    let plain: string;
    try {
      plain = decryptSecret(oldKey, sealed);
    } catch {
      throw new Error(`${where} does not open with the current SECRETS_KEY: nothing was changed.`);
    }
    return encryptSecret(newKey, plain);
  });
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { 'new-key': { type: 'string' } } });
  const newHex = values['new-key'];
  if (!newHex || !/^[0-9a-fA-F]{64}$/.test(newHex)) {
    console.error('Usage: npm run secrets:rotate -- --new-key <64 hex characters> (make one with: openssl rand -hex 32)');
    return 2;
  }
  const config = loadConfig();
  const newKey = Buffer.from(newHex, 'hex');
  if (newKey.equals(config.secretsKey)) {
    console.error('The new key is the key in use: nothing to do.');
    return 2;
  }
  const database = await openDatabase(databaseOptions(config));
  try {
    await database.migrate();
    const counts = await database.db.transaction(async (tx) => {
      const resealed = await resealAll(tx, config.secretsKey, newKey);
      await audit(tx, 'secrets-key.rotate', secretsKeyFingerprint(newKey), { actorUserId: null }, {
        before: { fingerprint: secretsKeyFingerprint(config.secretsKey) },
        after: { fingerprint: secretsKeyFingerprint(newKey), resealed },
      });
      return resealed;
    });
    const summary = Object.entries(counts).map(([table, n]) => `${n} in ${table}`).join(', ');
    console.log(`Re-sealed ${summary} under the key with fingerprint ${secretsKeyFingerprint(newKey)}.`);
    if (!settingsEnvironment().SECRETS_KEY && !config.databaseUrl) {
      const file = resolve(config.dataDir, 'local-secrets.json');
      const local = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
      writeFileSync(file, `${JSON.stringify({ ...local, secretsKey: newHex.toLowerCase() }, null, 2)}\n`, { mode: 0o600 });
      console.log(`The new key is written to ${file}. Keep a copy with your backups.`);
    } else {
      console.log('Now set SECRETS_KEY to the new key wherever Betdesk runs, before starting it again.');
    }
    return 0;
  } finally {
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof ConfigError || error instanceof EmbeddedDatabaseBusyError || error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
