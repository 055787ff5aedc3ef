import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  adminGrantTexts,
  approveAdminGrant,
  assignClientsForm,
  declineAdminGrant,
  Id,
  listAdminGrants,
  deleteUser,
  dropClient,
  exportUserClients,
  exportUsers,
  listUsers,
  saveClientAssignments,
  showUserClients,
  storeUser,
} from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { csvRoute } from '../../http/csv.ts';
import { fieldError } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { clientsCsv } from '../clients/service.ts';
import * as users from './service.ts';
import * as grants from './admin-grant-decisions.ts';

function grantId(request: FastifyRequest): number {
  const parsed = Id.safeParse((request.params as { id?: string }).id);
  if (!parsed.success) throw fieldError('id', adminGrantTexts.noSuchGrant);
  return parsed.data;
}

export function userRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(app, listUsers, () => users.usersAndCategories(deps.db));
  route(app, storeUser, ({ actor, body, request }) => users.storeUser(deps, actor, body, request.id));
  route(app, deleteUser, ({ actor, body, request }) => users.deleteUser(deps, actor, body.id, request.id));
  route(app, showUserClients, ({ query }) => users.userWithClients(deps.db, query));
  route(app, dropClient, ({ actor, body, request }) => users.dropClient(deps, actor, body, request.id));
  route(app, assignClientsForm, ({ query }) => users.assignmentChoices(deps.db, query));
  route(app, saveClientAssignments, ({ actor, body, request }) => users.saveClientAssignments(deps, actor, body, request.id));
  route(app, listAdminGrants, () => users.adminGrantsOverview(deps.db));
  route(app, approveAdminGrant, ({ actor, body, request }) => grants.approveAdminGrant(deps, actor, grantId(request), body.code, request.id));
  route(app, declineAdminGrant, ({ actor, request }) => grants.declineAdminGrant(deps, actor, grantId(request), request.id));
  csvRoute(app, exportUsers, async () => users.usersCsv(deps.db));
  csvRoute(app, exportUserClients, async ({ actor, query }) => {
    await users.requireUser(deps.db, query.user_id);
    return clientsCsv(deps, actor, {
      assignedTo: query.user_id,
      search: query.search,
      sort: query.sort ?? 'name',
      dir: query.dir ?? (query.sort ? 'desc' : 'asc'),
    });
  });
}
