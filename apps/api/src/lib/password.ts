import { hash, verify } from '@node-rs/argon2';

/** argon2id (the library's default algorithm) with its default, OWASP-level cost. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Verifying a password when no user matches keeps "no such email" as slow as "wrong password",
 * so response times do not tell which emails exist.
 */
export async function burnPasswordCheck(password: string): Promise<false> {
  dummyHash ??= hash('no-user-has-this-password');
  await verifyPassword(await dummyHash, password);
  return false;
}
