import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { ChoiceId, Id, Kes, Notice } from './common.ts';
import { KenyanPhone } from './phone.ts';
import { ListCounts, listQuery } from './lists.ts';
import { BetCategory } from './tips-posts.ts';
import { TIPS_MEDIA_LABELS } from './tips-prices.ts';
import { TipsSubscription } from './tips-subscriptions.ts';

/** The new-subscriber form (spec 3): the medium and duration are keys of the offered maps. */
export const NewSubscriberForm = z.object({
  name: z
    .string({ message: 'The name is required' })
    .trim()
    .min(1, 'The name is required')
    .max(100, 'The name may not be longer than 100 characters'),
  phone: KenyanPhone,
  bet_category_id: ChoiceId('Choose a bet category'),
  transmission_medium_id: z.enum(Object.keys(TIPS_MEDIA_LABELS) as ['sms', 'web'], {
    message: 'Choose how the tips are sent: SMS or Web',
  }),
  duration: ChoiceId('Choose a duration').pipe(z.number().max(3660, 'Choose a duration')),
});
export type NewSubscriberForm = z.input<typeof NewSubscriberForm>;

/** A row of the subscribers tables. */
export const SubscriberRow = z.object({
  id: z.number(),
  name: z.string(),
  phone: z.string(),
  joined_on: z.string(),
  number_of_subscriptions: z.number(),
});
export type SubscriberRow = z.infer<typeof SubscriberRow>;

export const SubscriberSubscription = TipsSubscription.omit({ subscriber_id: true, name: true, phone: true });
export type SubscriberSubscription = z.infer<typeof SubscriberSubscription>;

/** A tips subscriber as the view reads it (spec 3). */
export const Subscriber = SubscriberRow.extend({
  account_balance: Kes,
  subscriptions: z.array(SubscriberSubscription),
});
export type Subscriber = z.infer<typeof Subscriber>;

/** The languages a customer reads their SMS, USSD screens and portal in. */
export const CustomerLanguage = z.enum(['en', 'sw'], { message: 'Choose English (en) or Kiswahili (sw)' });
export type CustomerLanguage = z.infer<typeof CustomerLanguage>;
export const CUSTOMER_LANGUAGE_LABELS: Record<CustomerLanguage, string> = { en: 'English', sw: 'Kiswahili' };

export const SubscriberLanguageForm = z.object({ subscriber_id: Id, language: CustomerLanguage });
export type SubscriberLanguageForm = z.input<typeof SubscriberLanguageForm>;

export const SMS_MESSAGE_MAX = 1600;

export const SubscriberSmsForm = z.object({
  subscriber_id: Id,
  message: z
    .string({ message: 'The message is required' })
    .trim()
    .min(1, 'The message is required')
    .max(SMS_MESSAGE_MAX, `The message may not be longer than ${SMS_MESSAGE_MAX} characters`),
});
export type SubscriberSmsForm = z.input<typeof SubscriberSmsForm>;

export const newSubscriberForm = endpoint({
  method: 'GET',
  path: '/api/tips/subscribers/new',
  tag: 'tips-subscribers',
  summary: 'Choices of the new-subscriber form: durations and media as key-to-label maps, bet categories',
  access: 'manage:tips-subscribers',
  response: z.object({
    durations: z.record(z.string(), z.string()),
    media: z.record(z.string(), z.string()),
    bet_categories: z.array(BetCategory),
  }),
});

export const storeSubscriber = endpoint({
  method: 'POST',
  path: '/api/tips/subscribers/store',
  tag: 'tips-subscribers',
  summary:
    'Add a subscriber by hand (found by phone when known) with a manual subscription at the package price',
  access: 'manage:tips-subscribers',
  body: NewSubscriberForm,
  response: Notice.extend({ subscriber: z.object({ id: z.number() }) }),
});

export const activeSubscribers = endpoint({
  method: 'GET',
  path: '/api/tips/subscribers/active',
  tag: 'tips-subscribers',
  summary:
    'Subscribers with an active subscription, newest first; status=all (admins, the All Subscribers screen) lists everyone',
  access: 'manage:tips-subscribers',
  query: listQuery('tipsSubscribers').and(z.object({ status: z.enum(['active', 'all']).default('active') })),
  response: ListCounts.extend({ subscribers: z.array(SubscriberRow) }),
});

export const showSubscriber = endpoint({
  method: 'GET',
  path: '/api/tips/subscribers/show',
  tag: 'tips-subscribers',
  summary: 'One subscriber with their subscriptions and account balance',
  access: 'manage:tips-subscribers',
  query: z.object({ subscriber_id: Id }),
  /**
   * `last_portal_sign_in`: when the phone last signed in to the subscriber portal, null if never.
   * `language`: what every message to the phone is written in (its choice, else the business default).
   */
  response: z.object({ subscriber: Subscriber.extend({ last_portal_sign_in: z.string().nullable(), language: CustomerLanguage }) }),
});

export const setSubscriberLanguage = endpoint({
  method: 'POST',
  path: '/api/tips/subscribers/language',
  tag: 'tips-subscribers',
  summary: "Set the language of a subscriber's phone (what the person asked for by phone or in person); audited",
  access: 'manage:tips-subscribers',
  body: SubscriberLanguageForm,
  response: Notice,
});

export const sendSubscriberSms = endpoint({
  method: 'POST',
  path: '/api/tips/subscribers/send-sms',
  tag: 'tips-subscribers',
  summary: 'Queue an SMS to a subscriber',
  access: 'manage:tips-subscribers',
  body: SubscriberSmsForm,
  response: Notice,
});
