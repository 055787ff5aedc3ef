import { expect, vi } from 'vitest';
import { generate } from 'otplib';
import { ADMIN, type TestApp } from './helpers.ts';

/**
 * The two-person rule's acts in tests (a refund's approval, a month's confirmation): admins with
 * their second factor on, and a fresh authenticator code for each act. Each code takes a new
 * 30-second TOTP step: the clock (Date only; the database keeps its own, so call
 * `vi.useFakeTimers({ toFake: ['Date'] })` first) moves a whole step before each code.
 * Lives in: apps/api/test/step-up.ts
 */
export function stepUpClock(start = Date.now()) {
  let clock = start;
  vi.setSystemTime(clock);
  async function nextCode(secret: string): Promise<string> {
    clock += 30_000;
    vi.setSystemTime(clock);
    return generate({ secret, epoch: Math.floor(clock / 1000) });
  }
  /** A new admin with their second factor turned on: their token and TOTP secret. */
  async function enrolAdmin(t: TestApp, email: string) {
    await t.addUser({ email, categoryId: ADMIN });
    const token = await t.tokenFor(email);
    const setup = await t.as(token, { method: 'POST', url: '/api/auth/2fa/setup' });
    const { secret } = setup.json();
    const enable = await t.as(token, { method: 'POST', url: '/api/auth/2fa/enable', payload: { code: await nextCode(secret) } });
    expect(enable.statusCode).toBe(200);
    return { token, secret: secret as string };
  }
  return { nextCode, enrolAdmin };
}
