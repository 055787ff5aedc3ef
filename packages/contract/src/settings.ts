import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { Notice } from './common.ts';

/** A value as stored: numbers stay numbers, switches booleans, texts strings. */
export const SettingValue = z.union([z.number(), z.boolean(), z.string()]);
export type SettingValue = z.infer<typeof SettingValue>;

/** One business constant of BUSINESS-RULES.md an admin may tune. */
export const Setting = z.object({
  key: z.string(),
  value: SettingValue,
  description: z.string(),
  updated_at: z.string(),
  /** Null while the seeded default is untouched. */
  updated_by_name: z.string().nullable(),
  /** The value is (part of) an SMS text: its editor shows the encoding and parts as the admin types. */
  sms: z.boolean(),
  /**
   * The setting is a safeguard for customers (responsible gambling, decision 065): on by default,
   * and turning it off needs a reason, kept beside the value and in the audit log.
   */
  safeguard: z.boolean(),
  /** Why a safeguard stands off, as the admin who turned it off wrote it; null while it is on. */
  reason: z.string().nullable(),
  /**
   * What the system adds at the end of this text when it leaves (a promotional template's
   * responsible-gambling lines, decision 061), counted with it by the editor; absent: nothing.
   */
  appended: z.string().optional(),
});
export type Setting = z.infer<typeof Setting>;

/** Edit modal. Which values a key accepts is the server's rule (bounds, placeholders). */
export const SettingForm = z.object({
  key: z.string({ message: 'Choose a setting' }).trim().min(1, 'Choose a setting').max(100),
  value: z.union([z.number(), z.boolean(), z.string().max(10_000, 'The value may not be longer than 10,000 characters')], {
    message: 'The value is required',
  }),
  /** Required when a safeguard is turned off (at least 10 characters); ignored otherwise. */
  reason: z.string().trim().max(500, 'The reason may not be longer than 500 characters').optional(),
});
export type SettingForm = z.input<typeof SettingForm>;

export const settingTexts = {
  saved: 'Setting saved successfully',
  unknownKey: 'There is no such setting',
  safeguardReasonRequired: 'Say why this safeguard is turned off (at least 10 characters): it is kept with the setting and in the audit log',
} as const;

export const listSettings = endpoint({
  method: 'GET',
  path: '/api/settings',
  tag: 'settings',
  summary: 'The business constants an admin may tune, with who changed each last',
  access: 'manage:settings',
  response: z.object({ settings: z.array(Setting) }),
});

export const updateSetting = endpoint({
  method: 'POST',
  path: '/api/settings/update',
  tag: 'settings',
  summary: 'Change one setting; the value is checked against the rule of its key (audited)',
  access: 'manage:settings',
  body: SettingForm,
  response: Notice,
});
