import type { FastifyInstance } from 'fastify';
import { login, logout, me, refresh, savePassword } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../http/route.ts';
import * as auth from './service.ts';

export function authRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(app, login, ({ body, request }) =>
    auth.signIn(deps, body, { ip: request.ip, userAgent: request.headers['user-agent'] ?? null }),
  );
  route(app, refresh, async ({ actor }) => ({ user: await auth.refreshSession(deps, actor) }));
  route(app, me, async ({ actor }) => ({ user: await auth.sessionUser(deps, actor.userId) }));
  route(app, logout, async ({ actor }) => {
    await auth.signOut(deps, actor);
    return { message: 'Signed out' };
  });
  route(app, savePassword, ({ actor, body, request }) => auth.changePassword(deps, actor, body, request.id));
}
