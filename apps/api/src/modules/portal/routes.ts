import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  Id,
  PORTAL_COOKIE,
  PortalPageQuery,
  PortalPhone,
  PortalVerify,
  RECORD_BLOCK_PERIOD_LABELS,
  RECORD_BLOCK_PERIODS,
  localPhone,
  portalLogout,
  portalLanguage,
  portalMe,
  portalPackages,
  portalPost,
  portalPurchase,
  portalPurchaseStatus,
  portalRequestCode,
  portalSms,
  portalTexts,
  portalTips,
  portalVerify,
  presetRange,
  statusTexts,
} from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import type { PortalSession } from '../../http/actor.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { getSetting } from '../settings/service.ts';
import { languageOf } from '../sms/service.ts';
import { recordsByCategory } from '../tips-record/service.ts';
import * as pages from './pages.ts';
import * as portal from './service.ts';

const portalScript = readFileSync(new URL('./assets/portal.js', import.meta.url), 'utf8');

/** The id in a path (`/posts/:id`): a 404 for anything that is not one of ours. */
function pathId(request: FastifyRequest): number {
  const parsed = Id.safeParse((request.params as { id?: string }).id);
  if (!parsed.success) throw notFound();
  return parsed.data;
}

const origin = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers['user-agent']?.slice(0, 300) ?? null });

/** Only a page of the portal itself may be a place to go back to after signing in. */
function safeNext(raw: unknown): string {
  return typeof raw === 'string' && /^\/portal(\/[\w\-/.?=&%]*)?$/.test(raw) ? raw : '/portal/tips';
}

/**
 * The subscriber portal: its JSON interface under /api/portal (contract endpoints with the 'portal'
 * access, answering only the portal cookie) and its server-rendered pages under /portal, which the
 * staff SPA's fallback never answers.
 */
export function portalRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.decorateRequest('portal', null);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/portal/') && !request.url.startsWith('/portal')) return;
    const token = request.cookies[PORTAL_COOKIE];
    request.portal = token && /^[A-Za-z0-9_-]{20,200}$/.test(token) ? await portal.sessionForToken(deps.db, token) : null;
  });

  const setSessionCookie = (reply: FastifyReply, token: string) =>
    reply.setCookie(PORTAL_COOKIE, token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: deps.config.production,
      path: '/',
      maxAge: portal.SESSION_TTL_DAYS * 86_400,
    });
  const clearSessionCookie = (reply: FastifyReply) =>
    reply.clearCookie(PORTAL_COOKIE, { httpOnly: true, sameSite: 'lax', secure: deps.config.production, path: '/' });
  const session = (request: FastifyRequest): PortalSession => request.portal!;

  // ---- the interface ----------------------------------------------------------------------------

  route(app, portalRequestCode, async ({ body, request }) => portal.requestCode(deps, body.phone, origin(request)));

  route(app, portalVerify, async ({ body, request, reply }) => {
    const { token } = await portal.verifyCode(deps, body, origin(request));
    setSessionCookie(reply, token);
    return { info: portalTexts.signedIn, phone: localPhone(body.phone) };
  });

  route(app, portalLogout, async ({ request, reply }) => {
    if (request.portal) await portal.signOut(deps.db, request.portal);
    clearSessionCookie(reply);
    return { info: portalTexts.signedOut };
  });

  route(app, portalMe, async ({ request }) => portal.me(deps, session(request)));
  route(app, portalTips, async ({ query, request }) => portal.myTips(deps.db, session(request), query));

  route(app, portalPost, async ({ request, reply }) => {
    try {
      return await portal.postFor(deps.db, request.portal, pathId(request));
    } catch (error) {
      if (!(error instanceof portal.PostLocked)) throw error;
      return reply.status(403).send({ message: statusTexts[403], info: error.info, code: 'subscribe', post: error.teaser }) as never;
    }
  });

  route(app, portalPackages, async () => portal.packages(deps.db));
  route(app, portalPurchase, async ({ body, request }) => portal.purchase(deps, session(request), body.package_id, request.id));
  route(app, portalPurchaseStatus, async ({ request }) => portal.purchaseStatus(deps, session(request), pathId(request)));
  route(app, portalLanguage, async ({ body, request }) => portal.setPortalLanguage(deps.db, session(request), body.language));
  route(app, portalSms, async ({ body, request }) => portal.setSmsPreference(deps, session(request), body.receive, request.id));

  // ---- the pages --------------------------------------------------------------------------------

  const shellOf = async (request: FastifyRequest): Promise<pages.Shell> => {
    const facts = await portal.publicFacts(deps);
    return { business: facts.business, support: facts.support, phone: request.portal ? localPhone(request.portal.phone) : null };
  };
  const send = (request: FastifyRequest, reply: FastifyReply, body: string, status = 200) =>
    reply
      .status(status)
      .type('text/html; charset=utf-8')
      // A signed-in page names the phone: never kept by a shared cache.
      .header('cache-control', request.portal ? 'private, no-store' : 'no-cache')
      .header('vary', 'cookie')
      .send(body);
  const signInFirst = (reply: FastifyReply, next: string) => reply.redirect(`/portal/sign-in?next=${encodeURIComponent(next)}`, 303);

  /** A page handler whose refusals (unknown id, M-Pesa down) become a readable page, not JSON. */
  const htmlPage =
    (handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        return await handler(request, reply);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        const title = error.status === 404 ? 'Not found' : 'Something went wrong';
        return send(request, reply, pages.messagePage(await shellOf(request), { title, text: error.info }), error.status);
      }
    };
  const hidden = { schema: { hide: true } };

  app.get('/portal/assets/portal.js', hidden, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(portalScript),
  );

  app.get(
    '/portal',
    hidden,
    htmlPage(async (request, reply) => {
      const facts = await portal.publicFacts(deps);
      const content = await portal.homeContent(deps.db);
      return send(request, reply, pages.homePage(await shellOf(request), { description: facts.description, ...content }));
    }),
  );

  app.get(
    '/portal/record',
    hidden,
    htmlPage(async (request, reply) => {
      const asked = (request.query as { period?: string }).period;
      const period = RECORD_BLOCK_PERIODS.find((p) => p === asked) ?? 'all';
      const records = await recordsByCategory(deps.db, period === 'all' ? {} : presetRange(period));
      const periods = RECORD_BLOCK_PERIODS.map((p) => ({ period: p, label: RECORD_BLOCK_PERIOD_LABELS[p] }));
      return send(request, reply, pages.recordPage(await shellOf(request), { period, periods, records }));
    }),
  );

  app.get(
    '/portal/packages',
    hidden,
    htmlPage(async (request, reply) => {
      const { category, medium } = request.query as { category?: string; medium?: string };
      const all = (await portal.packages(deps.db)).packages;
      const chosen = all.filter((p) => (!category || p.bet_category_code === category.toUpperCase()) && (!medium || p.medium === medium));
      return send(request, reply, pages.packagesPage(await shellOf(request), chosen.length > 0 ? chosen : all));
    }),
  );

  app.get(
    '/portal/packages/:id',
    hidden,
    htmlPage(async (request, reply) => {
      const found = await portal.packageById(deps.db, pathId(request));
      const facts = await portal.publicFacts(deps);
      const paybill = await portal.paybillInstructions(deps, { code: found.package.bet_category_code, priceCents: Math.round(found.package.price * 100) });
      return send(request, reply, pages.packagePage(await shellOf(request), { ...found, stkAvailable: facts.stkAvailable, paybill }));
    }),
  );

  app.get(
    '/portal/help',
    hidden,
    htmlPage(async (request, reply) => {
      const facts = await portal.publicFacts(deps);
      const onSale = (await portal.packages(deps.db)).packages;
      const categories = [...new Map(onSale.map((p) => [p.bet_category_code, { code: p.bet_category_code, name: p.bet_category }])).values()];
      const optOutText = await getSetting(deps.db, 'sms_opt_out_text');
      return send(request, reply, pages.helpPage(await shellOf(request), { paybill: facts.paybill, categories, optOutText }));
    }),
  );

  app.get(
    '/portal/sign-in',
    hidden,
    htmlPage(async (request, reply) => {
      const next = safeNext((request.query as { next?: string }).next);
      if (request.portal) return reply.redirect(next, 303);
      return send(request, reply, pages.signInPage(await shellOf(request), { next }));
    }),
  );

  app.post(
    '/portal/sign-in',
    hidden,
    htmlPage(async (request, reply) => {
      const form = (request.body ?? {}) as Record<string, unknown>;
      const next = safeNext(form.next);
      const typed = typeof form.phone === 'string' ? form.phone : '';
      const parsed = PortalPhone.safeParse({ phone: typed });
      const shell = await shellOf(request);
      if (!parsed.success) {
        return send(request, reply, pages.signInPage(shell, { next, phone: typed, error: parsed.error.issues[0]?.message }), 422);
      }
      try {
        const { info } = await portal.requestCode(deps, parsed.data.phone, origin(request));
        return send(request, reply, pages.signInPage(shell, { next, phone: localPhone(parsed.data.phone), codeSent: info }));
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        return send(request, reply, pages.signInPage(shell, { next, phone: typed, error: error.info }), error.status);
      }
    }),
  );

  app.post(
    '/portal/verify',
    hidden,
    htmlPage(async (request, reply) => {
      const form = (request.body ?? {}) as Record<string, unknown>;
      const next = safeNext(form.next);
      const parsed = PortalVerify.safeParse({ phone: form.phone, code: form.code ?? '' });
      const shell = await shellOf(request);
      const phone = typeof form.phone === 'string' ? form.phone : '';
      if (!parsed.success) {
        const phoneWrong = parsed.error.issues.some((i) => i.path[0] === 'phone');
        if (phoneWrong) return reply.redirect('/portal/sign-in', 303);
        return send(request, reply, pages.signInPage(shell, { next, phone, codeError: parsed.error.issues[0]?.message }), 422);
      }
      try {
        const { token } = await portal.verifyCode(deps, parsed.data, origin(request));
        setSessionCookie(reply, token);
        return reply.redirect(next, 303);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        return send(request, reply, pages.signInPage(shell, { next, phone, codeError: error.info }), error.status);
      }
    }),
  );

  app.post('/portal/sign-out', hidden, async (request, reply) => {
    if (request.portal) await portal.signOut(deps.db, request.portal);
    clearSessionCookie(reply);
    return reply.redirect('/portal', 303);
  });

  app.get(
    '/portal/tips',
    hidden,
    htmlPage(async (request, reply) => {
      if (!request.portal) return signInFirst(reply, '/portal/tips');
      const query = PortalPageQuery.safeParse(request.query);
      const paging = query.success ? query.data : { page: 1, perPage: 10 };
      const found = await portal.myTips(deps.db, request.portal, paging);
      return send(request, reply, pages.myTipsPage(await shellOf(request), { posts: found.posts, total: found.total_records, ...paging }));
    }),
  );

  app.get(
    '/portal/posts/:id',
    hidden,
    htmlPage(async (request, reply) => {
      const shell = await shellOf(request);
      try {
        const { post } = await portal.postFor(deps.db, request.portal, pathId(request));
        return send(request, reply, pages.postPage(shell, { post }));
      } catch (error) {
        if (!(error instanceof portal.PostLocked)) throw error;
        return send(request, reply, pages.postPage(shell, { teaser: error.teaser }), 403);
      }
    }),
  );

  app.get(
    '/portal/account',
    hidden,
    htmlPage(async (request, reply) => {
      if (!request.portal) return signInFirst(reply, '/portal/account');
      const notice = (request.query as { done?: string }).done;
      const notices: Record<string, string> = {
        stopped: portalTexts.smsStopped,
        restarted: portalTexts.smsRestarted,
        'offers-on': 'You will receive our offers by SMS. Untick the box to stop them.',
        'offers-off': 'You will receive no offers by SMS.',
      };
      const text = notice ? notices[notice] : undefined;
      return send(request, reply, pages.accountPage(await shellOf(request), await portal.me(deps, request.portal), text));
    }),
  );

  app.get(
    '/portal/sms',
    hidden,
    htmlPage(async (request, reply) => {
      if (!request.portal) return signInFirst(reply, '/portal/account');
      const receive = (request.query as { receive?: string }).receive === '1';
      return send(request, reply, pages.smsConfirmPage(await shellOf(request), receive));
    }),
  );

  app.post(
    '/portal/sms',
    hidden,
    htmlPage(async (request, reply) => {
      if (!request.portal) return signInFirst(reply, '/portal/account');
      const receive = (request.body as { receive?: string } | undefined)?.receive === 'true';
      await portal.setSmsPreference(deps, request.portal, receive, request.id);
      return reply.redirect(`/portal/account?done=${receive ? 'restarted' : 'stopped'}`, 303);
    }),
  );

  app.post(
    '/portal/offers',
    hidden,
    htmlPage(async (request, reply) => {
      if (!request.portal) return signInFirst(reply, '/portal/account');
      const given = (request.body as { offers?: string } | undefined)?.offers === 'yes';
      await portal.setOffersConsent(deps, request.portal, given, request.id);
      return reply.redirect(`/portal/account?done=${given ? 'offers-on' : 'offers-off'}`, 303);
    }),
  );

  app.post(
    '/portal/buy',
    hidden,
    htmlPage(async (request, reply) => {
      const packageId = Id.safeParse((request.body as { package_id?: string } | undefined)?.package_id);
      if (!packageId.success) throw notFound('This package is not on sale.');
      if (!request.portal) return signInFirst(reply, `/portal/packages/${packageId.data}`);
      try {
        const { payment_request_id } = await portal.purchase(deps, request.portal, packageId.data, request.id);
        return reply.redirect(`/portal/purchases/${payment_request_id}`, 303);
      } catch (error) {
        if (!(error instanceof AppError) || error.options.code !== 'paybill') throw error;
        const shell = await shellOf(request);
        return send(request, reply, pages.messagePage(shell, { title: 'Pay by M-Pesa Pay Bill', text: error.info, status: 'notice' }), 503);
      }
    }),
  );

  app.get(
    '/portal/purchases/:id',
    hidden,
    htmlPage(async (request, reply) => {
      if (!request.portal) return signInFirst(reply, request.url);
      const { purchase } = await portal.purchaseStatus(deps, request.portal, pathId(request));
      const language = await languageOf(deps.db, request.portal.phone);
      return send(request, reply, pages.purchasePage(await shellOf(request), purchase, language));
    }),
  );

  // Any other /portal address is the portal's own 404, never the staff app.
  app.get(
    '/portal/*',
    hidden,
    htmlPage(async () => {
      throw notFound('There is no such page. Start again from the home page.');
    }),
  );
}
