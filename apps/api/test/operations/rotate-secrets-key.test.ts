import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq, getTableColumns, getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { generate } from 'otplib';
import { resealAll } from '../../../../scripts/rotate-secrets-key.ts';
import { sealedColumns } from '../../src/db/sealed.ts';
import * as schema from '../../src/db/schema/index.ts';
import { clientPlatformPasswords, clients, refunds, settings, taxDevice, userSecondFactors } from '../../src/db/schema/index.ts';
import { isSealedColumn } from '../../src/db/schema/sealed.ts';
import type { FakeDaraja } from '../../src/integrations/mpesa/fake-daraja.ts';
import { decryptSecret, encryptSecret, sha256Hex } from '../../src/lib/crypto.ts';
import { runRefundSending } from '../../src/modules/refunds/service.ts';
import { ADMIN, type TestApp } from '../helpers.ts';
import { appWithFakeDaraja, c2b, confirm, paymentByReceipt, receipt, seedPeople } from '../mpesa/fixtures.ts';

/**
 * `npm run secrets:rotate` re-seals every value sealed with SECRETS_KEY: the places come from the
 * schema (the `sealedText` columns, the `*_sealed` fields of a settings value), and this file lists
 * them, so a new sealed field is either found by the rotation or fails here.
 */
const apiSrc = join(import.meta.dirname, '../../src');

/** Every file under apps/api/src that seals a value, and where the value it seals is kept. */
const SEALING_FILES: Record<string, string> = {
  'modules/auth/two-factor.ts': 'user_second_factors.secret_sealed',
  'modules/clients/service.ts': 'client_platform_passwords.password_sealed',
  'modules/refunds/sending.ts': 'settings mpesa_initiator.password_sealed',
  'modules/tax/invoices.ts': 'tax_device.cmc_key_sealed',
  'seed/bet4me.ts': 'client_platform_passwords.password_sealed',
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('the sealed values', () => {
  it('are the sealed columns of the schema, each with the key of its rows', () => {
    expect(sealedColumns()).toEqual([
      { table: 'client_platform_passwords', key: 'id', column: 'password_sealed' },
      { table: 'tax_device', key: 'id', column: 'cmc_key_sealed' },
      { table: 'user_second_factors', key: 'user_id', column: 'secret_sealed' },
    ]);
  });

  it('are every column named *_sealed, and no other', () => {
    const named: string[] = [];
    const marked: string[] = [];
    for (const value of Object.values(schema)) {
      if (!is(value, PgTable)) continue;
      for (const column of Object.values(getTableColumns(value))) {
        if (column.name.endsWith('_sealed')) named.push(`${getTableName(value)}.${column.name}`);
        if (isSealedColumn(column)) marked.push(`${getTableName(value)}.${column.name}`);
      }
    }
    expect(marked.sort()).toEqual(named.sort());
  });

  it('are written only by the files that say where they keep them', () => {
    const sealing = sourceFiles(apiSrc)
      .filter((file) => /\bencryptSecret\(/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(apiSrc, file))
      .filter((file) => file !== 'lib/crypto.ts')
      .sort();
    // A new file that seals a value: keep it in a sealedText column or a *_sealed settings field
    // (the rotation finds both), check the rotation below re-seals it, and list it here.
    expect(sealing).toEqual(Object.keys(SEALING_FILES).sort());
  });
});

// The refund flow needs two admins and a TOTP step per approval: the clock (Date only) moves a
// whole 30-second step before each code.
let clock = Date.now();
async function nextCode(secret: string): Promise<string> {
  clock += 30_000;
  vi.setSystemTime(clock);
  return generate({ secret, epoch: Math.floor(clock / 1000) });
}

describe('npm run secrets:rotate', () => {
  const certificate = readFileSync(new URL('../refunds/initiator-test.crt', import.meta.url), 'utf8');
  const privateKeyPem = readFileSync(new URL('../refunds/initiator-test.key', import.meta.url), 'utf8');
  const INITIATOR_PASSWORD = 'Safaricom-Initiator-1!';
  let t: TestApp;
  let fake: FakeDaraja;
  let clientId: number;
  let asker: string;
  let approver: { token: string; secret: string };

  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(clock);
    ({ t, fake } = await appWithFakeDaraja({ MPESA_SHORTCODE: '600984' }));
    fake.callbackDelayMs = 0;
    fake.initiator = { privateKeyPem, password: INITIATOR_PASSWORD };
    const key = t.deps.config.secretsKey;
    const [client] = await t.deps.db.insert(clients).values({ name: 'Sealed Client', phone: '254777000001', phoneHash: sha256Hex('254777000001') }).returning();
    clientId = client!.id;
    await t.deps.db.insert(clientPlatformPasswords).values({ clientId, platform: 'SportPesa', passwordSealed: encryptSecret(key, 'sp-1234') });
    await t.deps.db.insert(taxDevice).values({ tin: 'P051234567X', cmcKeySealed: encryptSecret(key, 'kra-cmc-key') });

    await t.addUser({ email: 'asker@betdesk.test', categoryId: ADMIN });
    asker = await t.tokenFor('asker@betdesk.test');
    await t.addUser({ email: 'approver@betdesk.test', categoryId: ADMIN });
    const token = await t.tokenFor('approver@betdesk.test');
    const { secret } = (await t.as(token, { method: 'POST', url: '/api/auth/2fa/setup' })).json();
    const enabled = await t.as(token, { method: 'POST', url: '/api/auth/2fa/enable', payload: { code: await nextCode(secret) } });
    expect(enabled.statusCode).toBe(200);
    approver = { token, secret };
    const saved = await t.as(asker, {
      method: 'POST',
      url: '/api/refunds/initiator',
      payload: { name: 'betdesk-api', password: INITIATOR_PASSWORD, certificate },
    });
    expect(saved.statusCode).toBe(200);
  });
  afterAll(async () => {
    vi.useRealTimers();
    await t.close();
    await fake.close();
  });

  it('re-seals every sealed value under the new key in one transaction, and a refund is sent after it', async () => {
    const oldKey = t.deps.config.secretsKey;
    const newKey = randomBytes(32);
    const counts = await t.deps.db.transaction((tx) => resealAll(tx, oldKey, newKey));
    expect(counts).toEqual({
      client_platform_passwords: 1,
      tax_device: 1,
      user_second_factors: 1,
      'settings.mpesa_initiator': 1,
    });
    const [password] = await t.deps.db.select().from(clientPlatformPasswords).where(eq(clientPlatformPasswords.clientId, clientId));
    expect(decryptSecret(newKey, password!.passwordSealed)).toBe('sp-1234');
    expect(() => decryptSecret(oldKey, password!.passwordSealed)).toThrow();
    const [device] = await t.deps.db.select().from(taxDevice);
    expect(decryptSecret(newKey, device!.cmcKeySealed!)).toBe('kra-cmc-key');
    const [factor] = await t.deps.db.select().from(userSecondFactors);
    expect(decryptSecret(newKey, factor!.secretSealed)).toBe(approver.secret);
    const [initiator] = await t.deps.db.select().from(settings).where(eq(settings.key, 'mpesa_initiator'));
    const stored = initiator!.value as { name: string; certificate: string; password_sealed: string };
    expect(stored).toMatchObject({ name: 'betdesk-api', certificate: certificate.trim() });
    expect(decryptSecret(newKey, stored.password_sealed)).toBe(INITIATOR_PASSWORD);

    // A value that does not open with the key given changes nothing at all.
    await expect(t.deps.db.transaction((tx) => resealAll(tx, randomBytes(32), randomBytes(32)))).rejects.toThrow(/does not open/);
    const [still] = await t.deps.db.select().from(clientPlatformPasswords).where(eq(clientPlatformPasswords.clientId, clientId));
    expect(still!.passwordSealed).toBe(password!.passwordSealed);

    // Betdesk started again under the new key: an admin approves with their second factor, and the
    // refund leaves with the initiator's credential (the fake M-Pesa checks its password).
    t.deps.config.secretsKey = newKey;
    const people = await seedPeople(t);
    const phone = '254722400001';
    await people.person('subscriber', 'Payer', phone);
    const trans = receipt();
    expect((await confirm(t, c2b({ TransID: trans, TransAmount: '100.00', BillRefNumber: 'D2', MSISDN: phone }))).statusCode).toBe(200);
    const payment = (await paymentByReceipt(t, trans))!;
    fake.refundOutcomes.push({ resultCode: 0, callback: 'result', receipt: 'RFROTATE01', utilityBalanceKes: 1_500 });
    const asked = await t.as(asker, {
      method: 'POST',
      url: '/api/refunds',
      payload: { payment_id: payment.id, amount: 40, reason: 'wrong_amount', method: 'b2c', effect: 'shorten' },
    });
    expect(asked.statusCode).toBe(200);
    const id = asked.json().refund.id as number;
    const approved = await t.as(approver.token, { method: 'POST', url: `/api/refunds/${id}/approve`, payload: { code: await nextCode(approver.secret) } });
    expect(approved.statusCode).toBe(200);
    await runRefundSending(t.deps);
    await fake.settled();
    const [refund] = await t.deps.db.select().from(refunds).where(eq(refunds.id, id));
    expect(refund).toMatchObject({ status: 'done', mpesaReceipt: 'RFROTATE01' });
  });
});
