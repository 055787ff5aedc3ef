import { z } from 'zod';
import { parsePhoneNumberFromString } from 'libphonenumber-js/mobile';

/*
 * Parsing a typed phone needs libphonenumber; reading a stored one (`localPhone`, in common.ts)
 * does not. Kept apart so the browser loads the parser with the forms that take a phone, not with
 * every screen (the sign-in form and the dashboard have none).
 */

/** Kenyan mobile number as staff type it (07.., 01.., +254.., 254..), normalised to 2547XXXXXXXX. */
export const KenyanPhone = z
  .string({ message: 'The phone number is required' })
  .trim()
  .min(1, 'The phone number is required')
  .transform((value, ctx) => {
    const normalised = normaliseKenyanPhone(value);
    if (!normalised) {
      ctx.addIssue({ code: 'custom', message: 'Enter a Kenyan mobile number like 0712345678' });
      return z.NEVER;
    }
    return normalised;
  });

export function normaliseKenyanPhone(value: string): string | null {
  const parsed = parsePhoneNumberFromString(value.replace(/[\s-]/g, ''), 'KE');
  if (!parsed || parsed.country !== 'KE' || !parsed.isValid()) return null;
  const type = parsed.getType();
  if (type !== 'MOBILE' && type !== undefined) return null;
  return parsed.number.replace('+', '');
}
