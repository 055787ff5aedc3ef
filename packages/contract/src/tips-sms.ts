import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { Id, Kes, Notice } from './common.ts';

export const SMS_TIP_MAX = 1600;

/** How far a category's current SMS tip has gone out (from the SMS outbox). */
export const SmsTipDelivery = z.object({
  queued: z.number(),
  sent: z.number(),
  delivered: z.number(),
  failed: z.number(),
});
export type SmsTipDelivery = z.infer<typeof SmsTipDelivery>;

/** The current SMS tip of one bet category (spec 3, SMS tip: bet_category, content). */
export const SmsTip = z.object({
  bet_category_id: z.number(),
  bet_category: z.string(),
  code: z.string(),
  content: z.string(),
  /** When this text was saved; null while the category never had a tip. */
  updated_at: z.string().nullable(),
});
export type SmsTip = z.infer<typeof SmsTip>;

/** A tip as the editor reads it: with the people a changed text would go to, for the composer's cost. */
export const SmsTipForEditing = SmsTip.extend({
  /** Subscribers with a running SMS subscription of the category, opted-out phones left out. */
  recipients: z.number(),
});
export type SmsTipForEditing = z.infer<typeof SmsTipForEditing>;

export const SmsTipWithDelivery = SmsTip.extend({ delivery: SmsTipDelivery });
export type SmsTipWithDelivery = z.infer<typeof SmsTipWithDelivery>;

export const SmsTipInput = z.object({
  bet_category_id: Id,
  content: z
    .string({ message: 'The tip must be text' })
    .trim()
    .max(SMS_TIP_MAX, `An SMS tip may not be longer than ${SMS_TIP_MAX} characters`),
});

export const SmsTipsForm = z.object({
  posts: z
    .array(SmsTipInput, { message: 'Send the tips of each bet category' })
    .min(1, 'Send the tips of each bet category')
    .superRefine((tips, ctx) => {
      const seen = new Set<number>();
      tips.forEach((tip, index) => {
        if (seen.has(tip.bet_category_id)) {
          ctx.addIssue({
            code: 'custom',
            path: [index, 'bet_category_id'],
            message: 'This bet category appears twice',
          });
        }
        seen.add(tip.bet_category_id);
      });
    }),
});
export type SmsTipsForm = z.input<typeof SmsTipsForm>;

export const smsTipsForm = endpoint({
  method: 'GET',
  path: '/api/tips/posts/update-sms-tips',
  tag: 'tips-sms',
  summary: 'The current SMS tip of every bet category, for editing, with the number of subscribers a changed text would go to',
  access: 'manage:tips-content',
  response: z.object({ posts: z.array(SmsTipForEditing) }),
});

export const saveSmsTips = endpoint({
  method: 'POST',
  path: '/api/tips/posts/update-sms-tips',
  tag: 'tips-sms',
  summary:
    'Save the SMS tips; a changed text is queued once to every subscriber with an active SMS subscription of its category',
  access: 'manage:tips-content',
  body: SmsTipsForm,
  response: Notice.extend({ queued: z.number() }),
});

export const viewSmsTips = endpoint({
  method: 'GET',
  path: '/api/tips/posts/view-sms-tips',
  tag: 'tips-sms',
  summary: "The current SMS tip of every bet category with its delivery counts",
  access: 'manage:tips-content',
  response: z.object({ posts: z.array(SmsTipWithDelivery) }),
});

/** What saving these tips would send: per changed category, who receives it and what it costs. */
export const SmsTipsEstimate = z.object({
  tips: z.array(
    z.object({
      bet_category_id: z.number(),
      bet_category: z.string(),
      code: z.string(),
      /** Subscribers with a running SMS subscription of the category, opted-out phones left out. */
      recipients: z.number(),
      /** SMS parts of the text for one recipient (GSM-7 160/153, UCS-2 70/67). */
      parts: z.number(),
      estimated_parts: z.number(),
      estimated_cost: Kes,
    }),
  ),
  recipients: z.number(),
  estimated_parts: z.number(),
  estimated_cost: Kes,
});
export type SmsTipsEstimate = z.infer<typeof SmsTipsEstimate>;

export const estimateSmsTips = endpoint({
  method: 'POST',
  path: '/api/tips/posts/update-sms-tips/estimate',
  tag: 'tips-sms',
  summary:
    'What saving these SMS tips would send: for each changed text, its recipients, SMS parts and estimated cost (nothing is saved)',
  access: 'manage:tips-content',
  body: SmsTipsForm,
  response: SmsTipsEstimate,
});
