import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { resealAll } from '../../../../scripts/rotate-secrets-key.ts';
import { clientPlatformPasswords, clients, userSecondFactors } from '../../src/db/schema/index.ts';
import { decryptSecret, encryptSecret, sha256Hex } from '../../src/lib/crypto.ts';
import { createTestApp, type TestApp } from '../helpers.ts';

let t: TestApp;
let clientId: number;
let userId: number;

beforeAll(async () => {
  t = await createTestApp();
  const key = t.deps.config.secretsKey;
  const [client] = await t.deps.db.insert(clients).values({ name: 'Sealed Client', phone: '254777000001', phoneHash: sha256Hex('254777000001') }).returning();
  clientId = client!.id;
  await t.deps.db.insert(clientPlatformPasswords).values({ clientId, platform: 'SportPesa', passwordSealed: encryptSecret(key, 'sp-1234') });
  userId = await t.addUser({ email: 'sealed@betdesk.test' });
  await t.deps.db.insert(userSecondFactors).values({ userId, secretSealed: encryptSecret(key, 'JBSWY3DPEHPK3PXP') });
});
afterAll(async () => {
  await t.close();
});

describe('npm run secrets:rotate', () => {
  it('re-seals every platform password and second-factor secret under the new key, in one transaction', async () => {
    const oldKey = t.deps.config.secretsKey;
    const newKey = randomBytes(32);
    const counts = await t.deps.db.transaction((tx) => resealAll(tx, oldKey, newKey));
    expect(counts).toEqual({ client_platform_passwords: 1, user_second_factors: 1 });
    const [password] = await t.deps.db.select().from(clientPlatformPasswords).where(eq(clientPlatformPasswords.clientId, clientId));
    expect(decryptSecret(newKey, password!.passwordSealed)).toBe('sp-1234');
    expect(() => decryptSecret(oldKey, password!.passwordSealed)).toThrow();
    const [factor] = await t.deps.db.select().from(userSecondFactors).where(eq(userSecondFactors.userId, userId));
    expect(decryptSecret(newKey, factor!.secretSealed)).toBe('JBSWY3DPEHPK3PXP');

    // A field that does not open with the key given changes nothing at all.
    const wrongKey = randomBytes(32);
    await expect(t.deps.db.transaction((tx) => resealAll(tx, wrongKey, randomBytes(32)))).rejects.toThrow(/does not open/);
    const [still] = await t.deps.db.select().from(clientPlatformPasswords).where(eq(clientPlatformPasswords.clientId, clientId));
    expect(still!.passwordSealed).toBe(password!.passwordSealed);
  });
});
