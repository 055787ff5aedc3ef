import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { Notice } from './common.ts';

export const Gender = z.enum(['male', 'female']);

/** A staff user as the spec's screens read it (section 3, User). */
export const User = z.object({
  id: z.number(),
  user_id: z.number(),
  name: z.string(),
  phone_number: z.string(),
  email: z.string(),
  gender: Gender.nullable(),
  category_id: z.number(),
  category_name: z.string(),
  total_clients: z.number(),
  last_login: z.string().nullable(),
  photo: z.string().nullable(),
});
export type User = z.infer<typeof User>;

/** The signed-in user: the same fields plus the admin flag. */
export const SessionUser = User.extend({ is_admin: z.boolean() });
export type SessionUser = z.infer<typeof SessionUser>;

export const Credentials = z.object({
  email: z.string({ message: 'The email is required' }).trim().min(1, 'The email is required').max(254),
  password: z.string({ message: 'The password is required' }).min(1, 'The password is required').max(200),
});
export type Credentials = z.infer<typeof Credentials>;

export const MIN_PASSWORD_LENGTH = 8;

export const NewPassword = z
  .object({
    password: z
      .string({ message: 'The password is required' })
      .min(MIN_PASSWORD_LENGTH, `The password must be at least ${MIN_PASSWORD_LENGTH} characters`)
      .max(200, 'The password may not be longer than 200 characters'),
    password_confirmation: z.string({ message: 'Retype the password' }).min(1, 'Retype the password'),
  })
  .refine((v) => v.password === v.password_confirmation, {
    path: ['password_confirmation'],
    message: 'The passwords do not match',
  });
export type NewPassword = z.infer<typeof NewPassword>;

export const login = endpoint({
  method: 'POST',
  path: '/api/auth/login',
  tag: 'auth',
  summary: 'Sign in with email and password; returns an opaque bearer token and the user',
  access: 'public',
  body: Credentials,
  // A user with a second factor gets a challenge instead; everyone else the spec's exact shape.
  response: z.union([
    z.object({ token: z.string(), user: SessionUser }),
    z.object({ two_factor_required: z.literal(true), challenge: z.string() }),
  ]),
});

/** The spec's login response: what a sign-in ends with, after the second factor when there is one. */
export const SignedIn = z.object({ token: z.string(), user: SessionUser });
export type SignedIn = z.infer<typeof SignedIn>;

export const refresh = endpoint({
  method: 'POST',
  path: '/api/auth/refresh',
  tag: 'auth',
  summary: "Slide the session's expiry and return the user",
  access: 'use:profile',
  response: z.object({ user: SessionUser }),
});

export const me = endpoint({
  method: 'POST',
  path: '/api/auth/me',
  tag: 'auth',
  summary: 'The signed-in user',
  access: 'use:profile',
  response: z.object({ user: SessionUser }),
});

export const logout = endpoint({
  method: 'POST',
  path: '/api/auth/logout',
  tag: 'auth',
  summary: 'Revoke the session of the bearer token',
  access: 'use:profile',
  response: Notice,
});

export const savePassword = endpoint({
  method: 'POST',
  path: '/api/auth/save-password',
  tag: 'auth',
  summary: "Change the signed-in user's password; revokes all their sessions",
  access: 'use:profile',
  body: NewPassword,
  response: Notice,
});

export const health = endpoint({
  method: 'GET',
  path: '/api/health',
  tag: 'system',
  summary: 'Liveness and database check: 200 ok, or 503 unavailable with the reason',
  access: 'public',
  response: z.object({
    status: z.enum(['ok', 'unavailable']),
    database: z.enum(['pglite', 'postgres']),
    reason: z.string().optional(),
  }),
});
