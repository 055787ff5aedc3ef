import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  Id,
  PORTAL_COOKIE,
  PortalPageQuery,
  PortalPhone,
  PortalVerify,
  RECORD_BLOCK_PERIODS,
  kesToCents,
  localPhone,
  portalAutoRenew,
  portalStartTrial,
  portalPause,
  portalLogout,
  portalStopAutoRenew,
  portalLanguage,
  portalMe,
  portalPackages,
  portalPost,
  portalPrice,
  portalPurchase,
  portalPurchaseStatus,
  portalRecord,
  portalRequestCode,
  portalSms,
  portalTaxIdentity,
  portalInvoiceDocument,
  TaxIdentityForm,
  portalExclusion,
  portalTexts,
  portalTips,
  portalVerify,
  presetRange,
  statusTexts,
  type RecordBlockPeriod,
  refusalTexts,
} from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import type { PortalSession } from '../../http/actor.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { invoicePdf, openInvoiceTicket, sendInvoicePdf } from '../tax/service.ts';
import { getSetting, settingDefaults } from '../settings/service.ts';
import { categoryByCode, proofChainCsv, proofChainHead, publicTickets, recordOfCategoryCode, recordsByCategory } from '../tips-record/service.ts';
import { isLanguage, type CustomerTextId, type Language } from '../../customer-texts/catalogue.ts';
import { fixedText } from '../../customer-texts/texts.ts';
import * as pages from './pages.ts';
import { excludeFromPortal, saleRefused } from '../exclusions/service.ts';
import * as portal from './service.ts';
import { pauseSubscription } from '../pauses/service.ts';
import { sendCsv } from '../../http/csv.ts';

const NO_SUCH_PAGE = fixedText('portal.not_found.text', 'en');
const portalScript = readFileSync(new URL('./assets/portal.js', import.meta.url), 'utf8');

/** The id in a path (`/posts/:id`): a 404 for anything that is not one of ours. */
function pathId(request: FastifyRequest): number {
  const parsed = Id.safeParse((request.params as { id?: string }).id);
  if (!parsed.success) throw notFound();
  return parsed.data;
}

const origin = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers['user-agent']?.slice(0, 300) ?? null });

/** Only a page of the portal itself may be a place to go back to after signing in. */
function safeNext(raw: unknown, fallback = '/portal/tips'): string {
  return typeof raw === 'string' && /^\/portal(\/[\w\-/.?=&%#]*)?(\?[\w\-/.?=&%]*)?$/.test(raw) ? raw : fallback;
}

/** The cookie remembering a signed-out visitor's language (the switch on every page). */
export const LANGUAGE_COOKIE = 'betdesk_lang';

/**
 * The portal's page while the database does not answer (the error handler's 503), for a request of
 * a page under /portal; null for any other request (the JSON interface answers JSON). The reader's
 * language is the one their browser keeps (the language cookie), else the one their browser asks
 * for, else the install's default: a signed-in reader's own choice is in the database.
 */
export function portalUnavailablePage(request: FastifyRequest): string | null {
  if (!/^\/portal(\/|\?|$)/.test(request.url) || request.url.startsWith('/portal/assets/')) return null;
  const cookie = request.cookies?.[LANGUAGE_COOKIE];
  const asked = /^\s*sw\b/i.test(request.headers['accept-language'] ?? '') ? 'sw' : null;
  const language: Language = isLanguage(cookie) ? cookie : (asked ?? settingDefaults.customer_language_default.value);
  return pages.unavailablePage(language);
}

/**
 * The service's English notices (contract portalTexts, the phone's validation) as the reader's
 * language says them; any other text is shown as it came.
 */
const noticeIds: Record<string, CustomerTextId> = {
  [portalTexts.codeSent]: 'portal.notice.code_sent',
  [portalTexts.wrongCode]: 'portal.notice.wrong_code',
  [portalTexts.triesSpent]: 'portal.notice.tries_spent',
  [portalTexts.tooManyCodes]: 'portal.notice.too_many_codes',
  [portalTexts.smsStopped]: 'portal.notice.sms_stopped',
  [portalTexts.smsRestarted]: 'portal.notice.sms_restarted',
  'Enter a Kenyan mobile number like 0712345678': 'portal.notice.phone_wrong',
  'Enter the 6-digit code from the SMS': 'portal.notice.code_wrong_form',
  'Enter the 6-digit code': 'portal.notice.code_wrong_form',
  [NO_SUCH_PAGE]: 'portal.not_found.text',
  'This package is not on sale.': 'portal.notice.package_gone',
  'This tip does not exist.': 'portal.notice.no_tip',
  'No such purchase.': 'portal.notice.no_purchase',
  [portalTexts.ageRequired]: 'portal.package.age_required',
  [portalTexts.dailyDays]: 'portal.package.days_invalid',
  [portalTexts.invoiceLinkInvalid]: 'portal.notice.invoice_link_invalid',
  [portalTexts.invoiceLinkExpired]: 'portal.notice.invoice_link_expired',
};
const inLanguage = (text: string | undefined, language: Language): string | undefined => {
  if (text === undefined) return undefined;
  const id = noticeIds[text];
  return id ? fixedText(id, language) : text;
};

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
  route(app, portalPurchase, async ({ body, request }) =>
    portal.purchase(deps, session(request), body.package_id, request.id, body.adult !== undefined && body.adult !== false, body.code ?? ''),
  );
  route(app, portalPrice, async ({ body, request }) => portal.priceAsked(deps, session(request), body.package_id, body.code, body.days));
  route(app, portalPurchaseStatus, async ({ request }) => ({ purchase: (await portal.purchaseStatus(deps, session(request), pathId(request))).purchase }));
  route(app, portalStartTrial, async ({ body, request }) => portal.startPortalTrial(deps, session(request), body, request.id));
  route(app, portalAutoRenew, async ({ body, request }) => portal.turnOnAutoRenewal(deps, session(request), body.subscription_id, request.id));
  route(app, portalStopAutoRenew, async ({ request }) => portal.stopAutoRenewal(deps, session(request), pathId(request), request.id));
  route(app, portalPause, async ({ body, request }) =>
    pauseSubscription(deps, { phone: session(request).phone, subscriptionId: body.subscription_id, days: body.days, via: 'portal', requestId: request.id }),
  );
  route(app, portalLanguage, async ({ body, request }) => portal.setPortalLanguage(deps.db, session(request), body.language));
  route(app, portalRecord, async ({ query }) => portal.publicRecord(deps.db, query));
  route(app, portalSms, async ({ body, request }) => portal.setSmsPreference(deps, session(request), body.receive, request.id));
  route(app, portalTaxIdentity, async ({ body, request }) => portal.setPortalTaxIdentity(deps, session(request), body, request.id));
  // The punter's own invoice as a PDF (decision 074): another's is "not found".
  route(app, portalInvoiceDocument, async ({ query, reply, request }) => {
    const id = pathId(request);
    if (!(await portal.ownInvoice(deps, session(request), id))) throw notFound(refusalTexts.invoiceNotFound);
    return sendInvoicePdf(reply, await invoicePdf(deps, id, { size: query.size, lang: query.lang })) as never;
  });

  // ---- the pages --------------------------------------------------------------------------------

  /** The reader's language, worked out once per request. */
  const languages = new WeakMap<FastifyRequest, Language>();
  const languageOfPage = async (request: FastifyRequest): Promise<Language> => {
    let language = languages.get(request);
    if (!language) {
      language = await portal.pageLanguage(deps.db, request.portal, request.cookies[LANGUAGE_COOKIE]);
      languages.set(request, language);
    }
    return language;
  };
  const shellOf = async (request: FastifyRequest): Promise<pages.Shell> => {
    const facts = await portal.publicFacts(deps);
    const language = await languageOfPage(request);
    const lines = await portal.trustLines(deps.db, language);
    return {
      business: facts.business,
      support: facts.support,
      phone: request.portal ? localPhone(request.portal.phone) : null,
      language,
      // After a form (sign-in, a refused purchase) the switch comes back to a page that answers GET.
      path: request.method === 'GET' ? safeNext(request.url, '/portal') : /^\/portal\/(sign-in|verify)/.test(request.url) ? '/portal/sign-in' : '/portal',
      ...lines,
    };
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
        const language = await languageOfPage(request);
        const title = fixedText(error.status === 404 ? 'portal.not_found.title' : 'portal.error.title', language);
        return send(request, reply, pages.messagePage(await shellOf(request), { title, text: inLanguage(error.info, language)! }), error.status);
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
      const description = await portal.portalDescription(deps.db, await languageOfPage(request));
      const content = await portal.homeContent(deps.db);
      const pay = await portal.payFacts(deps, content.packages);
      return send(request, reply, pages.homePage(await shellOf(request), { description, ...content, pay }));
    }),
  );

  // The proof chain of every publication (decision 071), for anyone to check the record's hashes.
  app.get('/portal/record.csv', hidden, async (_request, reply) => sendCsv(reply, await proofChainCsv(deps.db)));

  app.get(
    '/portal/record',
    hidden,
    htmlPage(async (request, reply) => {
      const asked = request.query as { period?: string; category?: string; page?: string; perPage?: string };
      const period: RecordBlockPeriod = RECORD_BLOCK_PERIODS.find((p) => p === asked.period) ?? 'all';
      const range = period === 'all' ? {} : presetRange(period);
      const records = await recordsByCategory(deps.db, range);
      // An unknown category code lists every category's tickets.
      const category = typeof asked.category === 'string' && /^[A-Za-z0-9]{1,20}$/.test(asked.category) ? await categoryByCode(deps.db, asked.category) : null;
      const chosen = (category && (records.find((r) => r.code === category.code) ?? (await recordOfCategoryCode(deps.db, category.code, range)))) || records[0]!;
      const paging = PortalPageQuery.safeParse({ page: asked.page, perPage: asked.perPage });
      const { page, perPage } = paging.success ? paging.data : { page: 1, perPage: 10 };
      const listed = await publicTickets(deps.db, { betCategoryId: category?.id, ...range }, { limit: perPage, offset: (page - 1) * perPage });
      return send(
        request,
        reply,
        pages.recordPage(await shellOf(request), {
          period,
          periods: [...RECORD_BLOCK_PERIODS],
          records,
          chosen,
          tickets: listed.tickets,
          total: listed.total,
          page,
          perPage,
          chainHead: await proofChainHead(deps.db),
        }),
      );
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
      const paybill = await portal.paybillInstructions(
        deps,
        { code: found.package.bet_category_code, priceCents: kesToCents(found.package.price), billing: found.package.billing },
        await languageOfPage(request),
      );
      const asksAge = await portal.asksAgeDeclaration(deps, request.portal);
      const trial = await portal.trialOfPage(deps, request.portal, found.package.id);
      return send(request, reply, pages.packagePage(await shellOf(request), { ...found, stkAvailable: facts.stkAvailable, paybill, asksAge, trial }));
    }),
  );

  // A document sent by SMS (decision 087): the signed link opens a page with its two PDFs (the 80 mm
  // receipt and A4), without signing in; a forged, altered or expired one says so in the reader's language.
  const ticketed = async (request: FastifyRequest) => {
    const ticket = String((request.params as { ticket?: string }).ticket ?? '');
    const opened = await openInvoiceTicket(deps, ticket);
    if (opened === 'invalid') throw new AppError(404, portalTexts.invoiceLinkInvalid);
    if (opened === 'expired') throw new AppError(410, portalTexts.invoiceLinkExpired);
    return { ticket, ...opened };
  };
  app.get(
    '/portal/i/:ticket',
    hidden,
    htmlPage(async (request, reply) => {
      const { ticket, number } = await ticketed(request);
      const facts = await portal.publicFacts(deps);
      const base = `/portal/i/${ticket}/pdf`;
      reply.header('referrer-policy', 'no-referrer');
      return send(request, reply, pages.invoiceLinkPage(await shellOf(request), { number, business: facts.business, receiptHref: `${base}?size=receipt`, a4Href: `${base}?size=a4` }));
    }),
  );
  app.get(
    '/portal/i/:ticket/pdf',
    hidden,
    htmlPage(async (request, reply) => {
      const { invoiceId } = await ticketed(request);
      const asked = (request.query as { size?: string; lang?: string }) ?? {};
      return sendInvoicePdf(reply, await invoicePdf(deps, invoiceId, { size: asked.size === 'a4' ? 'a4' : 'receipt', lang: asked.lang ?? (await languageOfPage(request)) }));
    }),
  );

  app.get(
    '/portal/help',
    hidden,
    htmlPage(async (request, reply) => {
      const onSale = (await portal.packages(deps.db)).packages;
      const pay = await portal.payFacts(deps, onSale);
      const optOutText = await getSetting(deps.db, 'sms_opt_out_text');
      return send(request, reply, pages.helpPage(await shellOf(request), { pay, optOutText }));
    }),
  );

  const trustRoute = (which: pages.TrustPage) =>
    app.get(
      `/portal/${which}`,
      hidden,
      htmlPage(async (request, reply) => {
        const text = await portal.trustPageText(deps, which, await languageOfPage(request));
        return send(request, reply, pages.trustPage(await shellOf(request), which, text));
      }),
    );
  trustRoute('terms');
  trustRoute('refunds');
  trustRoute('privacy');

  /**
   * The language switch on every page (a form: it works without JavaScript). The choice is kept in
   * a cookie for a visitor; for a signed-in phone it is also stored with the phone (once: choosing
   * the same language again writes nothing), so SMS and USSD follow it.
   */
  app.post(
    '/portal/language',
    hidden,
    htmlPage(async (request, reply) => {
      const form = (request.body ?? {}) as Record<string, unknown>;
      const next = safeNext(form.next, '/portal');
      if (!isLanguage(form.language)) return reply.redirect(next, 303);
      reply.setCookie(LANGUAGE_COOKIE, form.language, {
        httpOnly: true,
        sameSite: 'lax',
        secure: deps.config.production,
        path: '/',
        maxAge: 365 * 86_400,
      });
      if (request.portal) await portal.setPortalLanguage(deps.db, request.portal, form.language);
      return reply.redirect(next, 303);
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
        return send(request, reply, pages.signInPage(shell, { next, phone: typed, error: inLanguage(parsed.error.issues[0]?.message, shell.language) }), 422);
      }
      try {
        const { info } = await portal.requestCode(deps, parsed.data.phone, origin(request));
        return send(request, reply, pages.signInPage(shell, { next, phone: localPhone(parsed.data.phone), codeSent: inLanguage(info, shell.language) }));
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        return send(request, reply, pages.signInPage(shell, { next, phone: typed, error: inLanguage(error.info, shell.language) }), error.status);
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
        return send(request, reply, pages.signInPage(shell, { next, phone, codeError: inLanguage(parsed.error.issues[0]?.message, shell.language) }), 422);
      }
      try {
        const { token } = await portal.verifyCode(deps, parsed.data, origin(request));
        setSessionCookie(reply, token);
        return reply.redirect(next, 303);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        return send(request, reply, pages.signInPage(shell, { next, phone, codeError: inLanguage(error.info, shell.language) }), error.status);
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
      const notices: Record<string, CustomerTextId> = {
        stopped: 'portal.notice.sms_stopped',
        restarted: 'portal.notice.sms_restarted',
        'offers-on': 'portal.notice.offers_on',
        'offers-off': 'portal.notice.offers_off',
        'auto-renew-on': 'portal.notice.auto_renew_on',
        'auto-renew-stopped': 'portal.notice.auto_renew_stopped',
        'tax-identity': 'portal.tax_identity.saved',
        'tax-identity-invalid': 'portal.tax_identity.invalid',
      };
      const id = notice && Object.hasOwn(notices, notice) ? notices[notice] : undefined;
      const text = id ? fixedText(id, await languageOfPage(request)) : undefined;
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

  /** The punter's KRA PIN from My account (decision 074): a form, so it works without JavaScript. */
  app.post(
    '/portal/tax-identity',
    hidden,
    htmlPage(async (request, reply) => {
      if (!request.portal) return signInFirst(reply, '/portal/account');
      const form = TaxIdentityForm.safeParse(request.body ?? {});
      if (!form.success) return reply.redirect('/portal/account?done=tax-identity-invalid#tax-identity', 303);
      await portal.setPortalTaxIdentity(deps, request.portal, form.data, request.id);
      return reply.redirect('/portal/account?done=tax-identity#tax-identity', 303);
    }),
  );

  /** Self-exclusion from My account (decision 059): a form, so it works without JavaScript. */
  app.post(
    '/portal/exclusion',
    hidden,
    htmlPage(async (request, reply) => {
      if (!request.portal) return signInFirst(reply, '/portal/account');
      const period = portalExclusion.body!.shape.period.safeParse((request.body as { period?: string } | undefined)?.period);
      if (!period.success) return reply.redirect('/portal/account#exclusion', 303);
      const { info } = await excludeFromPortal(deps, request.portal, period.data, request.id);
      return send(request, reply, pages.accountPage(await shellOf(request), await portal.me(deps, request.portal), info));
    }),
  );

  /** Automatic renewal from My account or a paid purchase's page: forms, so they work without JavaScript. */
  app.post(
    '/portal/auto-renew',
    hidden,
    htmlPage(async (request, reply) => {
      if (!request.portal) return signInFirst(reply, '/portal/account');
      const subscriptionId = Id.safeParse((request.body as { subscription_id?: string } | undefined)?.subscription_id);
      if (!subscriptionId.success) throw notFound(refusalTexts.autoRenewSubscriptionNotFound);
      await portal.turnOnAutoRenewal(deps, request.portal, subscriptionId.data, request.id);
      return reply.redirect('/portal/account?done=auto-renew-on', 303);
    }),
  );

  app.post(
    '/portal/auto-renew/stop',
    hidden,
    htmlPage(async (request, reply) => {
      if (!request.portal) return signInFirst(reply, '/portal/account');
      const orderId = Id.safeParse((request.body as { id?: string } | undefined)?.id);
      if (!orderId.success) throw notFound(refusalTexts.autoRenewNotFound);
      await portal.stopAutoRenewal(deps, request.portal, orderId.data, request.id);
      return reply.redirect('/portal/account?done=auto-renew-stopped', 303);
    }),
  );

  /**
   * A pause from My account (decision 090): a form, so it works without JavaScript on any phone. The
   * page comes back with what was done (the new end, the days without tips) or why it was refused.
   */
  app.post(
    '/portal/pause',
    hidden,
    htmlPage(async (request, reply) => {
      if (!request.portal) return signInFirst(reply, '/portal/account');
      const form = (request.body ?? {}) as { subscription_id?: string; days?: string };
      const shell = await shellOf(request);
      const account = async (text: string, tone: 'notice' | 'warn', status = 200) =>
        send(request, reply, pages.accountPage(shell, await portal.me(deps, request.portal!), text, tone), status);
      const subscriptionId = Id.safeParse(form.subscription_id);
      if (!subscriptionId.success) return account(fixedText('pause.refused.not_found', shell.language), 'warn', 404);
      const days = /^\s*\d{1,3}\s*$/.test(String(form.days ?? '')) ? Number(form.days) : Number.NaN;
      try {
        const { info } = await pauseSubscription(deps, { phone: request.portal.phone, subscriptionId: subscriptionId.data, days, via: 'portal', requestId: request.id });
        return account(info, 'notice');
      } catch (error) {
        if (!(error instanceof AppError) || error.status >= 500) throw error;
        return account(Object.values(error.options.errors ?? {}).flat()[0] ?? error.info, 'warn', error.status);
      }
    }),
  );

  /** "Start a free trial" on a package page (decision 089): a form, so it works without JavaScript. */
  app.post(
    '/portal/trial',
    hidden,
    htmlPage(async (request, reply) => {
      const form = request.body as { package_id?: string; adult?: string; auto_renew?: string } | undefined;
      const packageId = Id.safeParse(form?.package_id);
      if (!packageId.success) throw notFound(refusalTexts.packageNotOnSale);
      if (!request.portal) return signInFirst(reply, `/portal/packages/${packageId.data}`);
      const shell = await shellOf(request);
      const title = fixedText('portal.trial.start', shell.language);
      try {
        const body = { package_id: packageId.data, adult: form?.adult === '1', auto_renew: form?.auto_renew === '1' };
        const { info } = await portal.startPortalTrial(deps, request.portal, body, request.id);
        const link = { href: '/portal/account', label: fixedText('portal.nav.account', shell.language) };
        return send(request, reply, pages.messagePage(shell, { title, text: info, status: 'notice', link }));
      } catch (error) {
        if (!(error instanceof AppError) || error.status >= 500) throw error;
        const said = Object.values(error.options.errors ?? {}).flat()[0] ?? error.info;
        const text = inLanguage(said, shell.language) ?? said;
        const link = { href: `/portal/packages/${packageId.data}`, label: fixedText('portal.nav.packages', shell.language) };
        return send(request, reply, pages.messagePage(shell, { title, text, status: 'warn', link }), error.status);
      }
    }),
  );

  app.post(
    '/portal/buy',
    hidden,
    htmlPage(async (request, reply) => {
      const form = request.body as { package_id?: string; adult?: string; code?: string; days?: string } | undefined;
      const packageId = Id.safeParse(form?.package_id);
      if (!packageId.success) throw notFound(refusalTexts.packageNotOnSale);
      if (!request.portal) return signInFirst(reply, `/portal/packages/${packageId.data}`);
      // No sale to a self-excluded or under-18 person (decision 059): said on My account, in their words.
      if (await saleRefused(deps.db, request.portal.phone, 'portal')) {
        const notice = fixedText('portal.sale_refused', await languageOfPage(request));
        return send(request, reply, pages.accountPage(await shellOf(request), await portal.me(deps, request.portal), notice));
      }
      try {
        const { payment_request_id } = await portal.purchase(
          deps,
          request.portal,
          packageId.data,
          request.id,
          form?.adult === '1',
          String(form?.code ?? '').slice(0, 40),
          form?.days,
        );
        return reply.redirect(`/portal/purchases/${payment_request_id}`, 303);
      } catch (error) {
        if (!(error instanceof AppError) || error.options.code !== 'paybill') throw error;
        const shell = await shellOf(request);
        const chosen = await portal.packageById(deps.db, packageId.data);
        const text = await portal.paybillInstructions(
          deps,
          { code: chosen.package.bet_category_code, priceCents: kesToCents(chosen.package.price), billing: chosen.package.billing },
          shell.language,
        );
        return send(request, reply, pages.messagePage(shell, { title: fixedText('portal.paybill.title', shell.language), text, status: 'notice' }), 503);
      }
    }),
  );

  app.get(
    '/portal/purchases/:id',
    hidden,
    htmlPage(async (request, reply) => {
      if (!request.portal) return signInFirst(reply, request.url);
      const { purchase, paymentId } = await portal.purchaseStatus(deps, request.portal, pathId(request));
      const offer = purchase.status === 'paid' ? await portal.autoRenewOfPurchase(deps, request.portal, paymentId) : null;
      return send(request, reply, pages.purchasePage(await shellOf(request), purchase, offer?.autoRenew ?? null, offer?.subscriptionId));
    }),
  );

  // Any other /portal address is the portal's own 404, never the staff app.
  app.get(
    '/portal/*',
    hidden,
    htmlPage(async () => {
      throw notFound(NO_SUCH_PAGE);
    }),
  );
}
