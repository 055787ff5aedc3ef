import { z } from 'zod';
import { csvExport, endpoint } from './endpoint.ts';
import { ChoiceId, Id, Notice } from './common.ts';
import { KenyanPhone } from './phone.ts';
import { ListCounts, listFilterQuery, listQuery } from './lists.ts';
import { ADMIN_CATEGORY_ID, AGENT_CATEGORY_ID } from './constants.ts';
import { Gender, User } from './auth.ts';
import { Client } from './clients.ts';

export const UserCategory = z.object({ id: z.number(), name: z.string() });
export type UserCategory = z.infer<typeof UserCategory>;

export const listUsers = endpoint({
  method: 'GET',
  path: '/api/users',
  tag: 'users',
  summary: 'Staff users with their assigned-client counts, and the user categories (admin)',
  access: 'manage:users',
  response: z.object({ users: z.array(User), categories: z.array(UserCategory) }),
});

/** The register/update modal: one form, the mode being whether user_id is set. */
export const UserForm = z.object({
  user_id: Id.nullable().optional(),
  name: z.string({ message: 'The name is required' }).trim().min(2, 'The name is required').max(120, 'The name may not be longer than 120 characters'),
  phone_number: KenyanPhone,
  email: z
    .string({ message: 'The email is required' })
    .trim()
    .min(1, 'The email is required')
    .max(254)
    .pipe(z.email('Enter a valid email address'))
    .transform((e) => e.toLowerCase()),
  category_id: ChoiceId('Choose a category')
    .refine((c) => c === ADMIN_CATEGORY_ID || c === AGENT_CATEGORY_ID, 'Choose a category'),
  gender: Gender.nullable().optional().transform((g) => g ?? null),
});
export type UserForm = z.input<typeof UserForm>;

export const storeUser = endpoint({
  method: 'POST',
  path: '/api/users/store',
  tag: 'users',
  summary: 'Register a user (a temporary password goes to their phone by SMS) or update one (admin)',
  access: 'manage:users',
  body: UserForm,
  // Asking for admin rights (a new admin, or a user moved to category 1) registers or keeps the user
  // without them and opens a grant another admin approves: its id is here (decision 056).
  response: Notice.extend({ user_id: z.number(), admin_grant_id: z.number().optional() }),
});

export const deleteUser = endpoint({
  method: 'POST',
  path: '/api/users/delete',
  tag: 'users',
  summary: 'Trash a user: they lose their sessions and their clients become unassigned (admin)',
  access: 'manage:users',
  body: z.object({ id: Id }),
  response: Notice,
});

export const showUserClients = endpoint({
  method: 'GET',
  path: '/api/users/show-clients',
  tag: 'users',
  summary: 'A user and the clients assigned to them, by name, paged and searchable (admin)',
  access: 'manage:users',
  query: listQuery('userClients').and(z.object({ user_id: Id })),
  response: ListCounts.extend({ user: User, clients: z.array(Client) }),
});

export const dropClient = endpoint({
  method: 'POST',
  path: '/api/users/drop-client',
  tag: 'users',
  summary: 'Unassign a client from a user (admin)',
  access: 'assign:clients',
  body: z.object({ user_id: Id, client_id: Id }),
  response: Notice,
});

/** A client in the assignment list, with the user who looks after them now (if any). */
export const AssignableClient = z.object({
  id: z.number(),
  name: z.string(),
  phone: z.string(),
  status: z.number(),
  assigned_user_id: z.number().nullable(),
});
export type AssignableClient = z.infer<typeof AssignableClient>;

export const assignClientsForm = endpoint({
  method: 'GET',
  path: '/api/users/assign-clients',
  tag: 'users',
  summary: 'Users, and one page of the clients by name (searchable), for the assignment screen (admin)',
  access: 'assign:clients',
  query: listQuery('assignableClients'),
  response: ListCounts.extend({ users: z.array(User), clients: z.array(AssignableClient) }),
});

export const saveClientAssignments = endpoint({
  method: 'POST',
  path: '/api/users/save-clients',
  tag: 'users',
  summary: 'Assign the ticked clients to a user (a client has one user at most: it moves) (admin)',
  access: 'assign:clients',
  body: z.object({
    user_id: Id,
    client_ids: z.array(Id, { message: 'No client is selected' }).max(5000),
  }),
  response: Notice,
});

export const exportUsers = csvExport({
  path: '/api/users/export',
  tag: 'users',
  summary: 'CSV of the staff users',
  access: 'manage:users',
});

export const exportUserClients = csvExport({
  path: '/api/users/show-clients/export',
  tag: 'users',
  summary: 'CSV of the clients assigned to a user, searched and ordered as the list',
  access: 'manage:users',
  query: listFilterQuery('userClients').and(z.object({ user_id: Id })),
});

export const userTexts = {
  temporaryPasswordSent: (phone: string) => `A temporary password has been sent by SMS to ${phone}.`,
  userDeleted: 'User deleted successfully',
  clientDropped: 'Client dropped successfully',
  cannotDeleteSelf: 'You cannot delete your own account',
  cannotDeleteLastAdmin: 'The last admin cannot be deleted',
  cannotDemoteLastAdmin: 'The last admin must stay an admin',
  notAssigned: 'This client is not assigned to this user',
  emailTaken: 'A user with this email already exists',
} as const;
