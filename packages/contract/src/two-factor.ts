import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { Notice } from './common.ts';
import { SignedIn } from './auth.ts';

/**
 * The second factor (TOTP, RFC 6238: SHA-1, 6 digits, 30 s) and the signed-in devices. Every
 * endpoint here is `use:profile`: a user manages only their own account, and these stay open to an
 * admin who must enrol before anything else (REQUIRE_ADMIN_2FA).
 */

/** The code of the 403 every other route answers while an admin must enrol a second factor. */
export const TWO_FACTOR_ENROLMENT_REQUIRED = 'two_factor_enrolment_required';

export const RECOVERY_CODE_COUNT = 10;

const code = z
  .string({ message: 'The code is required' })
  .trim()
  .min(1, 'The code is required')
  .max(32, 'The code is too long');

export const twoFactorStatus = endpoint({
  method: 'GET',
  path: '/api/auth/2fa',
  tag: 'auth',
  summary: 'Whether the signed-in user has a second factor, and whether one is required of them',
  access: 'use:profile',
  response: z.object({
    enabled: z.boolean(),
    required: z.boolean(),
    recovery_codes_left: z.number(),
  }),
});

export const twoFactorSetup = endpoint({
  method: 'POST',
  path: '/api/auth/2fa/setup',
  tag: 'auth',
  summary: 'Start enrolment: a new base32 TOTP secret and its otpauth:// URL (for the QR code)',
  access: 'use:profile',
  response: z.object({ secret: z.string(), otpauth_url: z.string() }),
});

export const TwoFactorCode = z.object({ code });
export type TwoFactorCode = z.infer<typeof TwoFactorCode>;

export const twoFactorEnable = endpoint({
  method: 'POST',
  path: '/api/auth/2fa/enable',
  tag: 'auth',
  summary: 'Confirm enrolment with a code from the app; answers the recovery codes, shown once',
  access: 'use:profile',
  body: TwoFactorCode,
  response: z.object({ recovery_codes: z.array(z.string()) }),
});

export const TwoFactorPassword = z.object({
  password: z.string({ message: 'The password is required' }).min(1, 'The password is required').max(200),
});
export type TwoFactorPassword = z.infer<typeof TwoFactorPassword>;

export const twoFactorDisable = endpoint({
  method: 'POST',
  path: '/api/auth/2fa/disable',
  tag: 'auth',
  summary: "Turn the second factor off; needs the user's password",
  access: 'use:profile',
  body: TwoFactorPassword,
  response: Notice,
});

export const TwoFactorVerify = z.object({
  challenge: z.string({ message: 'Sign in again' }).min(20, 'Sign in again').max(200, 'Sign in again'),
  code,
});
export type TwoFactorVerify = z.infer<typeof TwoFactorVerify>;

export const twoFactorVerify = endpoint({
  method: 'POST',
  path: '/api/auth/2fa/verify',
  tag: 'auth',
  summary: "Second step of a sign-in: the login's challenge and a TOTP or recovery code; answers the login response",
  access: 'public',
  body: TwoFactorVerify,
  response: SignedIn,
});

export const Device = z.object({
  id: z.number(),
  device: z.string(),
  ip: z.string().nullable(),
  signed_in_at: z.string(),
  last_seen: z.string(),
  current: z.boolean(),
});
export type Device = z.infer<typeof Device>;

export const devices = endpoint({
  method: 'GET',
  path: '/api/auth/devices',
  tag: 'auth',
  summary: "The signed-in user's live sessions, most recently seen first",
  access: 'use:profile',
  response: z.object({ items: z.array(Device) }),
});

export const endDevice = endpoint({
  method: 'POST',
  path: '/api/auth/devices/end',
  tag: 'auth',
  summary: 'End one of your own sessions (sign that device out)',
  access: 'use:profile',
  body: z.object({ session_id: z.coerce.number({ message: 'Choose a session' }).int().positive('Choose a session') }),
  response: Notice,
});
