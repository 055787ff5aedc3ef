import type { FastifyInstance } from 'fastify';
import {
  activeClients,
  clientSmsMessages,
  clientSubscriptions,
  exportActiveClients,
  exportClients,
  exportClientSubscriptions,
  listClients,
  searchClients,
  setClientLanguage,
  showClient,
  storeClient,
  clientTaxIdentity,
  saveClientTaxIdentity,
} from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { csvRoute } from '../../http/csv.ts';
import { pageOf } from '../../db/list.ts';
import { readDeps } from '../../http/reads.ts';
import { route } from '../../http/route.ts';
import { subscriptionsCsv, subscriptionsOfClient } from '../subscriptions/service.ts';
import { notFound } from '../../http/errors.ts';
import * as taxIdentity from '../tax/service.ts';
import { withSubscriptionInvoices } from '../tax/service.ts';
import * as clients from './service.ts';

/** The :id of a tax-identity path, else 404 with the screen's own words. */
const pathId = (params: unknown, missing: string): number => {
  const id = Number((params as { id?: string }).id);
  if (!Number.isSafeInteger(id) || id < 1) throw notFound(missing);
  return id;
};

export function clientRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db } = deps;
  route(app, activeClients, ({ actor, query }) => clients.activeClients(deps, actor, query));
  route(app, listClients, async ({ actor, query, request }) => clients.listClients(await readDeps(deps, request), actor, query));
  route(app, searchClients, async ({ actor, query, request }) => clients.listClients(await readDeps(deps, request), actor, query));
  route(app, showClient, ({ actor, query, request }) => clients.showClient(deps, actor, query.client_id, request.id));
  route(app, setClientLanguage, ({ actor, body, request }) => clients.setClientLanguage(deps, actor, body, request.id));
  route(app, clientSmsMessages, ({ actor, query }) => clients.clientMessages(deps.db, actor, query));
  route(app, storeClient, ({ actor, body, request }) => clients.storeClient(deps, actor, body, request.id));

  // A client's sub-lists: the client is looked up in the actor's scope first (404 otherwise). Its
  // bets and bonuses are listed by the bets and bonuses modules (their routes), which know clients.
  route(app, clientSubscriptions, async ({ actor, query }) => {
    const client = await clients.requireClient(db, actor, query.client_id);
    const { list, totalRecords } = await subscriptionsOfClient(db, client.id, pageOf(query));
    return { total_records: totalRecords, list: await withSubscriptionInvoices(deps, list), client };
  });

  csvRoute(app, exportClients, async ({ actor, query }) => clients.clientsCsv(deps, actor, query));
  csvRoute(app, exportActiveClients, async ({ actor, query }) =>
    clients.clientsCsv(deps, actor, { search: query.search, dir: query.dir, activeOnly: true }),
  );
  csvRoute(app, exportClientSubscriptions, async ({ actor, query }) => {
    await clients.requireClient(db, actor, query.client_id);
    return subscriptionsCsv(deps, { clientId: query.client_id });
  });
  // A buyer's KRA PIN (decision 074): of a client in the actor's scope (404 otherwise).
  const clientOf = async (actor: Parameters<typeof clients.requireClient>[1], params: unknown) => {
    const client = await clients.requireClient(deps.db, actor, pathId(params, clients.CLIENT_NOT_FOUND));
    return { clientId: client.id };
  };
  route(app, clientTaxIdentity, async ({ actor, request }) => taxIdentity.identityView(deps.db, await clientOf(actor, request.params)));
  route(app, saveClientTaxIdentity, async ({ actor, body, request }) =>
    taxIdentity.saveTaxIdentityByStaff(deps, actor, await clientOf(actor, request.params), body, request.id));
}
