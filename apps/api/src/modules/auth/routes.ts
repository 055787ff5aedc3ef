import type { FastifyInstance } from 'fastify';
import {
  devices,
  endDevice,
  login,
  logout,
  me,
  refresh,
  savePassword,
  twoFactorDisable,
  twoFactorEnable,
  twoFactorSetup,
  twoFactorStatus,
  twoFactorVerify,
} from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../http/route.ts';
import * as auth from './service.ts';
import * as twoFactor from './two-factor.ts';

export function authRoutes(app: FastifyInstance, deps: AppDeps): void {
  const originOf = (request: { ip: string; headers: { 'user-agent'?: string } }) => ({
    ip: request.ip,
    userAgent: request.headers['user-agent'] ?? null,
  });
  route(app, login, ({ body, request }) => auth.signIn(deps, body, originOf(request)));
  route(app, twoFactorVerify, ({ body, request }) => auth.finishSignIn(deps, body, originOf(request)));
  route(app, refresh, async ({ actor }) => ({ user: await auth.refreshSession(deps, actor) }));
  route(app, me, async ({ actor }) => ({ user: await auth.sessionUser(deps, actor.userId) }));
  route(app, logout, async ({ actor }) => {
    await auth.signOut(deps, actor);
    return { message: 'Signed out' };
  });
  route(app, savePassword, ({ actor, body, request }) => auth.changePassword(deps, actor, body, request.id));

  route(app, twoFactorStatus, ({ actor }) => twoFactor.twoFactorStatusOf(deps, actor));
  route(app, twoFactorSetup, async ({ actor }) => {
    const user = await auth.sessionUser(deps, actor.userId);
    return twoFactor.setUpSecondFactor(deps, actor, user.email);
  });
  route(app, twoFactorEnable, ({ actor, body, request }) => twoFactor.enableSecondFactor(deps, actor, body.code, request.id));
  route(app, twoFactorDisable, ({ actor, body, request }) => twoFactor.disableSecondFactor(deps, actor, body, request.id));

  route(app, devices, ({ actor }) => auth.devicesOf(deps, actor));
  route(app, endDevice, ({ actor, body, request }) => auth.endDevice(deps, actor, body.session_id, request.id));
}
