import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  c2bConfirmation,
  c2bValidation,
  claimCandidates,
  claimPreview,
  claimPayment,
  exportMpesaTransactions,
  exportTipsDeposits,
  exportUnclaimedMpesaTransactions,
  mpesaTransactions,
  paymentRequestOptions,
  requestPayment,
  searchMpesaTransactions,
  showPaymentRequest,
  stkCallback,
  tipsDeposits,
  unclaimedMpesaTransactions,
  unclaimPayment,
  refusalTexts,
} from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { notFound } from '../../http/errors.ts';
import { readDeps } from '../../http/reads.ts';
import { route } from '../../http/route.ts';
import { requireWebhookSecret } from '../../http/webhook.ts';
import { getSetting } from '../settings/service.ts';
import * as claims from './claims.ts';
import { receiveC2bConfirmation, validateC2b } from './c2b-confirmation.ts';
import { notSettledWarning } from './ingest.ts';
import { receiveStkCallback } from './stk-callback.ts';
import * as requests from './payment-requests.ts';
import * as claimsQ from './queries/claims.ts';
import * as listsQ from './queries/lists.ts';
import { paymentsCsv, tipsDepositsCsv } from './exports.ts';
import { csvRoute } from '../../http/csv.ts';
import { invoicesOfPayments } from '../tax/service.ts';
import { dayRangeOf } from '../../db/list.ts';

/**
 * Daraja's callbacks. Their bodies are read leniently (a body that is not JSON is kept as text and
 * stored as rejected) so that every confirmation is answered and none is lost.
 */
function webhookRoutes(app: FastifyInstance, deps: AppDeps): void {
  void app.register(async (hooks) => {
    hooks.removeAllContentTypeParsers();
    hooks.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
      const text = String(body);
      try {
        done(null, text.trim() === '' ? {} : JSON.parse(text));
      } catch {
        done(null, { unreadable_body: text.slice(0, 10_000) });
      }
    });

    route(hooks, c2bValidation, async ({ request, body }) => {
      requireWebhookSecret(request, deps.config.webhookSecret);
      const strict = await getSetting(deps.db, 'mpesa_validate_account');
      return validateC2b(deps, body, strict === true);
    }, { callback: true });

    route(hooks, c2bConfirmation, async ({ request, body }) => {
      requireWebhookSecret(request, deps.config.webhookSecret);
      const receipt = await receiveC2bConfirmation(deps, body, request.id);
      if (receipt.settleError) {
        // The warning's words (a database code or an error's kind), never the error itself: a driver's
        // message and detail can carry the row's values (a phone, a name).
        const where = receipt.settleError instanceof Error ? receipt.settleError.stack?.split('\n').slice(1, 6).join('\n') : undefined;
        request.log.error({ paymentId: receipt.paymentId, reason: notSettledWarning(receipt.settleError), where }, 'payment stored but not settled');
      }
      if (receipt.warning) {
        request.log.warn({ paymentId: receipt.paymentId }, 'C2B confirmation stored unclaimed with a warning');
      }
      if (receipt.status === 'rejected') {
        request.log.warn({ paymentId: receipt.paymentId }, 'C2B confirmation stored as rejected');
      }
      void receipt.queued?.then((err) => {
        if (err) request.log.warn({ err, paymentId: receipt.paymentId }, 'the notice or the job nudges after a C2B confirmation failed; the live screens refetch and the crons run the jobs');
      });
      return { ResultCode: 0, ResultDesc: 'Success' };
    }, { callback: true });

    route(hooks, stkCallback, async ({ request, body }) => {
      requireWebhookSecret(request, deps.config.webhookSecret);
      await receiveStkCallback(deps, body, request.id);
      return { ResultCode: 0, ResultDesc: 'Success' };
    }, { callback: true });
  });
}

export function mpesaRoutes(app: FastifyInstance, deps: AppDeps): void {
  webhookRoutes(app, deps);

  // The payments' list reads where the request's read routing says (the replica, decision 073).
  const page = async (request: FastifyRequest, filter: listsQ.PaymentFilter & { page: number; perPage: number }) => {
    const reads = await readDeps(deps, request);
    const [list, totals] = await Promise.all([listsQ.listPayments(reads.db, filter), listsQ.paymentTotals(reads.db, dayRangeOf(filter))]);
    const invoices = await invoicesOfPayments(reads, list.transactions.map((t) => t.id));
    const transactions = list.transactions.map((t) => ({ ...t, invoice: invoices.get(t.id) ?? null }));
    return { ...list, transactions, total_unclaimed: totals.unclaimed, total_deposit: totals.deposit };
  };
  route(app, mpesaTransactions, ({ query, request }) => page(request, query));
  route(app, searchMpesaTransactions, ({ query, request }) => page(request, query));
  route(app, unclaimedMpesaTransactions, ({ query, request }) => page(request, { ...query, status: 'unclaimed' }));

  route(app, claimCandidates, async ({ query }) => {
    const payment = await claimsQ.paymentRecord(deps.db, query.transaction_id);
    if (!payment) throw notFound(refusalTexts.paymentNotFound);
    return {
      transaction: (await listsQ.paymentById(deps.db, payment.id))!,
      candidates: await claimsQ.claimCandidatesFor(deps.db, payment, query.search),
    };
  });
  route(app, claimPreview, ({ query }) => claims.previewClaim(deps, query));
  route(app, claimPayment, ({ actor, body, request }) => claims.claimPayment(deps, actor, body, request.id));
  route(app, unclaimPayment, ({ actor, body, request }) =>
    claims.unclaimPayment(deps, actor, body.transaction_id, request.id),
  );

  route(app, tipsDeposits, ({ query }) => listsQ.listTipsDeposits(deps.db, query));

  csvRoute(app, exportMpesaTransactions, async ({ query }) => paymentsCsv(deps, 'mpesa-transactions', query));
  csvRoute(app, exportUnclaimedMpesaTransactions, async ({ query }) =>
    paymentsCsv(deps, 'unclaimed-mpesa-transactions', { ...query, status: 'unclaimed' }),
  );
  csvRoute(app, exportTipsDeposits, async ({ query }) => tipsDepositsCsv(deps, query));

  route(app, paymentRequestOptions, ({ actor, query }) => requests.paymentRequestOptions(deps, actor, query));
  route(app, requestPayment, ({ actor, body, request }) => requests.requestPayment(deps, actor, body, request.id));
  route(app, showPaymentRequest, ({ actor, query }) => requests.showPaymentRequest(deps, actor, query.request_id));
}
