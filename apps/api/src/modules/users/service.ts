import { z } from 'zod';
import { Gender, KenyanPhone, ADMIN_CATEGORY_ID, AGENT_CATEGORY_ID } from '@betdesk/contract';
import { users } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import { hashPassword } from '../../lib/password.ts';
import { sha256Hex } from '../../lib/crypto.ts';
import { fieldError } from '../../http/errors.ts';
import { audit } from '../audit/service.ts';
import type { SessionUser } from '@betdesk/contract';
import { countAssignedClients, findLiveUserByEmail, findLiveUserById, toSessionUser } from './queries.ts';

/** A user as a script or a form creates one; the phone is normalised by the schema. */
export const NewUser = z.object({
  name: z.string().trim().min(2, 'The name is required').max(120),
  email: z.email('Enter a valid email address').transform((e) => e.toLowerCase()),
  phone_number: KenyanPhone,
  password: z.string().min(8, 'The password must be at least 8 characters').max(200),
  category_id: z
    .number({ message: 'The category is required' })
    .refine((c) => c === ADMIN_CATEGORY_ID || c === AGENT_CATEGORY_ID, 'The category must be 1 (Admin) or 2 (Agent)'),
  gender: Gender.nullable().default(null),
});
export type NewUser = z.input<typeof NewUser>;

/** Creates a user; refuses an email another live user already has (422 on email). */
export async function createUser(db: Queryable, input: NewUser, actorUserId: number | null): Promise<number> {
  const user = NewUser.parse(input);
  if (await findLiveUserByEmail(db, user.email)) {
    throw fieldError('email', 'A user with this email already exists');
  }
  const [row] = await db
    .insert(users)
    .values({
      name: user.name,
      email: user.email,
      phoneNumber: user.phone_number,
      phoneHash: sha256Hex(user.phone_number),
      gender: user.gender,
      categoryId: user.category_id,
      passwordHash: await hashPassword(user.password),
    })
    .returning({ id: users.id });
  const id = row!.id;
  await audit(db, {
    actorUserId,
    action: 'user.create',
    entity: 'user',
    entityId: id,
    after: { name: user.name, email: user.email, phone_number: user.phone_number, category_id: user.category_id },
  });
  return id;
}

/** The live user of an email with their password hash, for signing in. */
export function userForSignIn(db: Queryable, email: string) {
  return findLiveUserByEmail(db, email);
}

/** The spec's user object with the admin flag, or undefined when the user is gone or trashed. */
export async function sessionUserById(db: Queryable, id: number): Promise<SessionUser | undefined> {
  const row = await findLiveUserById(db, id);
  return row ? toSessionUser(row, await countAssignedClients(db, id)) : undefined;
}
