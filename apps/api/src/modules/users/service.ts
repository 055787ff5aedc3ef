import { z } from 'zod';
import {
  Gender,
  KenyanPhone,
  ADMIN_CATEGORY_ID,
  AGENT_CATEGORY_ID,
  errorTexts,
  localPhone,
  successTexts,
  userTexts,
  adminGrantTexts,
  type User,
  type UserForm,
  type SortOf,
  refusalTexts,
} from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import { hashPassword } from '../../lib/password.ts';
import { sha256Hex, temporaryPassword } from '../../lib/crypto.ts';
import { fieldError, invalid, notFound } from '../../http/errors.ts';
import type { AppDeps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { csvDateTime, csvPhone, type CsvTable } from '../../http/csv.ts';
import type { ListRequest } from '../../db/list.ts';
import { QUEUES } from '../../jobs/jobs.ts';
import { audit, byStaff } from '../audit/service.ts';
import {
  assignableClients,
  assignClients,
  clientsAssignedTo,
  countKnownClients,
  countLiveClientsOf,
  countLiveClientsPerStaff,
  unassignAllOf,
  unassignClient,
} from '../clients/service.ts';
import { getSetting } from '../settings/service.ts';
import { fill } from '../../customer-texts/format.ts';
import { queueSms } from '../sms/service.ts';
import type { SessionUser } from '@betdesk/contract';
import { recordOperatorGrant, requestAdminGrant } from './admin-grants.ts';
import {
  cancelPendingGrantsOf,
  countLiveUsers,
  findCategories,
  findLiveUserByEmail,
  findLiveUserById,
  findLiveUsers,
  insertUser,
  lockLiveAdmins,
  lockLiveUser,
  toSessionUser,
  toUser,
  trashUser,
  updateUser,
} from './queries.ts';

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

export { adminCoolingOffUntil, adminGrantFigures, adminGrantsOverview, adminsTied, coolingOffEnd } from './admin-grants.ts';

/**
 * Creates a user; refuses an email another live user already has (422 on email). An admin made here
 * is an admin at once: this is the operator's path (the first boot, `npm run create-user`, the demo
 * seed), outside the web's two-person rule. The web registers a would-be admin as staff and asks
 * for their rights (storeUser), so it never passes an admin with an actor.
 */
export async function createUser(db: Queryable, input: NewUser, actorUserId: number | null): Promise<number> {
  const user = NewUser.parse(input);
  if (user.category_id === ADMIN_CATEGORY_ID && actorUserId !== null) {
    throw new Error('Admin rights asked in the web wait for a second admin: use requestAdminGrant');
  }
  if (await findLiveUserByEmail(db, user.email)) {
    throw fieldError('email', refusalTexts.userEmailTaken);
  }
  const id = await insertUser(db, {
    name: user.name,
    email: user.email,
    phoneNumber: user.phone_number,
    phoneHash: sha256Hex(user.phone_number),
    gender: user.gender,
    categoryId: user.category_id,
    passwordHash: await hashPassword(user.password),
  });
  await audit(db, 'user.create', id, { actorUserId }, {
    after: { name: user.name, email: user.email, phone_number: user.phone_number, category_id: user.category_id },
  });
  if (user.category_id === ADMIN_CATEGORY_ID) await recordOperatorGrant(db, id);
  return id;
}

/** The live user of an email with their password hash, for signing in. */
export function userForSignIn(db: Queryable, email: string) {
  return findLiveUserByEmail(db, email);
}

/** The spec's user object with the admin flag, or undefined when the user is gone or trashed. */
export async function sessionUserById(db: Queryable, id: number): Promise<SessionUser | undefined> {
  const row = await findLiveUserById(db, id);
  return row ? toSessionUser(row, await countLiveClientsOf(db, id)) : undefined;
}

// ---- Users screens (admin) -----------------------------------------------------------------

/** Every live user with how many clients they look after (the Users table, the assignment screen). */
async function liveUsersWithCounts(db: Queryable) {
  const [found, counts] = await Promise.all([findLiveUsers(db), countLiveClientsPerStaff(db)]);
  return found.map((row) => toUser(row, counts.get(row.id) ?? 0));
}

export async function usersAndCategories(db: Queryable) {
  const [list, categories] = await Promise.all([liveUsersWithCounts(db), findCategories(db)]);
  return { users: list, categories };
}

type UserFormValues = z.output<typeof UserForm>;

/**
 * The register/update modal. A new user gets a random temporary password by SMS (outbox, sent
 * after commit); an update keeps the password. The last admin cannot be made staff. Admin rights
 * are asked, not given (decision 056): a new admin is registered as staff, a user moved to admin
 * keeps their category, and the grant waits for a second admin's approval.
 */
export async function storeUser(
  deps: AppDeps,
  actor: Actor,
  form: UserFormValues,
  requestId: string,
): Promise<{ info: string; message?: string; popup?: boolean; user_id: number; admin_grant_id?: number }> {
  const asksAdmin = form.category_id === ADMIN_CATEGORY_ID;
  if (!form.user_id) {
    const { userId, grantId } = await deps.db.transaction(async (tx) => {
      const password = temporaryPassword();
      const id = await createUser(
        tx,
        {
          name: form.name,
          email: form.email,
          phone_number: form.phone_number,
          password,
          category_id: asksAdmin ? AGENT_CATEGORY_ID : form.category_id,
          gender: form.gender,
        },
        actor.userId,
      );
      const grant = asksAdmin ? await requestAdminGrant(tx, actor, id, 'new_user', requestId) : null;
      const template = await getSetting(tx, 'temporary_password_sms');
      await queueSms(tx, {
        intent: 'user.temporary-password',
        dedupeKey: `user.temporary-password:${id}`,
        to: form.phone_number,
        body: fill(template, { name: form.name, email: form.email, password }),
        createdBy: actor.userId,
      });
      return { userId: id, grantId: grant?.id };
    });
    await deps.jobs.nudge(QUEUES.smsDispatch);
    return {
      info: grantId ? adminGrantTexts.registeredPending : successTexts.userRegistered,
      message: userTexts.temporaryPasswordSent(localPhone(form.phone_number)),
      popup: true,
      user_id: userId,
      ...(grantId ? { admin_grant_id: grantId } : {}),
    };
  }
  const userId = form.user_id;
  const asked = await deps.db.transaction(async (tx) => {
    const liveAdmins = await lockLiveAdmins(tx);
    const before = await lockLiveUser(tx, userId);
    if (!before) throw notFound(refusalTexts.userNotFound);
    const sameEmail = await findLiveUserByEmail(tx, form.email);
    if (sameEmail && sameEmail.id !== userId) throw fieldError('email', userTexts.emailTaken);
    if (before.categoryId === ADMIN_CATEGORY_ID && form.category_id !== ADMIN_CATEGORY_ID && liveAdmins <= 1) {
      throw fieldError('category_id', userTexts.cannotDemoteLastAdmin);
    }
    // Moving a user to admin asks for the rights; until a second admin approves, they keep theirs.
    const promotes = asksAdmin && before.categoryId !== ADMIN_CATEGORY_ID;
    const after = {
      name: form.name,
      email: form.email,
      phoneNumber: form.phone_number,
      gender: form.gender,
      categoryId: promotes ? before.categoryId : form.category_id,
    };
    await updateUser(tx, userId, after);
    await audit(tx, 'user.update', userId, byStaff(actor, requestId), { before, after });
    return promotes ? requestAdminGrant(tx, actor, userId, 'promotion', requestId) : null;
  });
  if (!asked) return { info: successTexts.userUpdated, user_id: userId };
  return { info: asked.created ? adminGrantTexts.updatedPending : adminGrantTexts.alreadyPending, user_id: userId, admin_grant_id: asked.id };
}

/** Trashes a user: their sessions end and their clients become unassigned. */
export async function deleteUser(deps: AppDeps, actor: Actor, id: number, requestId: string): Promise<{ info: string }> {
  if (id === actor.userId) throw fieldError('id', userTexts.cannotDeleteSelf);
  await deps.db.transaction(async (tx) => {
    const liveAdmins = await lockLiveAdmins(tx);
    const user = await lockLiveUser(tx, id);
    if (!user) throw notFound(refusalTexts.userNotFound);
    if (user.categoryId === ADMIN_CATEGORY_ID && liveAdmins <= 1) {
      throw fieldError('id', userTexts.cannotDeleteLastAdmin);
    }
    await trashUser(tx, id);
    const unassigned = await unassignAllOf(tx, id);
    const cancelledGrants = await cancelPendingGrantsOf(tx, id);
    await audit(tx, 'user.delete', id, byStaff(actor, requestId), {
      before: { ...user, client_ids: unassigned },
      ...(cancelledGrants.length > 0 ? { after: { cancelled_admin_grant_ids: cancelledGrants } } : {}),
    });
  });
  return { info: userTexts.userDeleted };
}

export async function requireUser(db: Queryable, id: number): Promise<User> {
  const row = await findLiveUserById(db, id);
  if (!row) throw notFound(refusalTexts.userNotFound);
  return toUser(row, await countLiveClientsOf(db, id));
}

export async function userWithClients(db: Queryable, query: ListRequest<SortOf<'userClients'>> & { user_id: number }) {
  const user = await requireUser(db, query.user_id);
  return { user, ...(await clientsAssignedTo(db, query.user_id, query)) };
}

export async function dropClient(
  deps: AppDeps,
  actor: Actor,
  input: { user_id: number; client_id: number },
  requestId: string,
): Promise<{ info: string }> {
  await deps.db.transaction(async (tx) => {
    await requireUser(tx, input.user_id);
    if (!(await unassignClient(tx, input.user_id, input.client_id))) throw notFound(userTexts.notAssigned);
    await audit(tx, 'client.unassign', input.client_id, byStaff(actor, requestId), { before: { user_id: input.user_id }, after: { user_id: null } });
  });
  return { info: userTexts.clientDropped };
}

export async function assignmentChoices(db: Queryable, query: ListRequest<SortOf<'assignableClients'>>) {
  const [list, page] = await Promise.all([liveUsersWithCounts(db), assignableClients(db, query)]);
  return { users: list, ...page };
}

/** Assigns the ticked clients to the user (a client assigned elsewhere moves to them). */
export async function saveClientAssignments(
  deps: AppDeps,
  actor: Actor,
  input: { user_id: number; client_ids: number[] },
  requestId: string,
): Promise<{ info: string }> {
  const clientIds = [...new Set(input.client_ids)];
  if (clientIds.length === 0) {
    throw invalid({ client_ids: [errorTexts.noClientSelected] }, errorTexts.noClientSelected);
  }
  await deps.db.transaction(async (tx) => {
    const user = await findLiveUserById(tx, input.user_id);
    if (!user) throw fieldError('user_id', refusalTexts.userRequired);
    if ((await countKnownClients(tx, clientIds)) !== clientIds.length) {
      throw fieldError('client_ids', refusalTexts.clientsNotFound);
    }
    const previous = await assignClients(tx, input.user_id, clientIds, actor.userId);
    await audit(tx, 'client.assign', input.user_id, byStaff(actor, requestId), {
      before: previous.map((p) => ({ client_id: p.clientId, user_id: p.userId })),
      after: { user_id: input.user_id, client_ids: clientIds },
    });
  });
  return { info: successTexts.clientsAssigned };
}

export function usersCsv(db: Queryable): CsvTable<User> {
  return {
    filename: 'users',
    columns: [
      { header: 'Name', value: (u) => u.name },
      { header: 'Phone', value: (u) => csvPhone(u.phone_number) },
      { header: 'Email', value: (u) => u.email },
      { header: 'Category', value: (u) => u.category_name },
      { header: 'Assigned clients', value: (u) => u.total_clients },
      { header: 'Last login', value: (u) => csvDateTime(u.last_login) },
    ],
    // The users table is small: one batch holds it all.
    rows: (async function* () {
      yield await liveUsersWithCounts(db);
    })(),
  };
}

/** How many users can sign in (the first boot creates an admin when there is none). */
export function liveUserCount(db: Queryable): Promise<number> {
  return countLiveUsers(db);
}
