import type { FastifyInstance } from 'fastify';
import {
  subscriberSmsMessages,
  activeSubscribers,
  newSubscriberForm,
  sendSubscriberSms,
  setSubscriberLanguage,
  showSubscriber,
  storeSubscriber,
  refusalTexts,
  subscriberTaxIdentity,
  saveSubscriberTaxIdentity,
} from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../http/route.ts';
import { languageOf } from '../sms/service.ts';
import { notFound } from '../../http/errors.ts';
import * as taxIdentity from '../tax/service.ts';
import { withSubscriptionInvoices } from '../tax/service.ts';
import * as subscribers from './service.ts';

/** The :id of a tax-identity path, else 404 with the screen's own words. */
const pathId = (params: unknown, missing: string): number => {
  const id = Number((params as { id?: string }).id);
  if (!Number.isSafeInteger(id) || id < 1) throw notFound(missing);
  return id;
};

export function tipsSubscribersRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(app, subscriberSmsMessages, ({ query }) => subscribers.subscriberMessages(deps.db, query));
  route(app, newSubscriberForm, () => subscribers.newSubscriberChoices(deps.db));
  route(app, storeSubscriber, ({ actor, body, request }) => subscribers.storeSubscriber(deps, actor, body, request.id));
  route(app, activeSubscribers, ({ actor, query }) => subscribers.subscribersPage(deps.db, actor, query));
  route(app, showSubscriber, async ({ query }) => {
    const subscriber = await subscribers.subscriberById(deps.db, query.subscriber_id);
    return {
      subscriber: {
        ...subscriber,
        subscriptions: await withSubscriptionInvoices(deps, subscriber.subscriptions),
        last_portal_sign_in: await subscribers.lastPortalSignIn(deps.db, subscriber.phone),
        language: await languageOf(deps.db, subscriber.phone),
      },
    };
  });
  route(app, setSubscriberLanguage, ({ actor, body, request }) => subscribers.setSubscriberLanguage(deps, actor, body, request.id));
  route(app, sendSubscriberSms, ({ actor, body, request }) =>
    subscribers.sendSmsToSubscriber(deps, actor, body, request.id),
  );
  // A buyer's KRA PIN (decision 074): of a subscriber as its screen reads it.
  const subscriberOf = async (params: unknown) => {
    const subscriber = await subscribers.subscriberById(deps.db, pathId(params, refusalTexts.subscriberNotFound));
    return { subscriberId: subscriber.id };
  };
  route(app, subscriberTaxIdentity, async ({ request }) => taxIdentity.identityView(deps.db, await subscriberOf(request.params)));
  route(app, saveSubscriberTaxIdentity, async ({ actor, body, request }) =>
    taxIdentity.saveTaxIdentityByStaff(deps, actor, await subscriberOf(request.params), body, request.id));
}
