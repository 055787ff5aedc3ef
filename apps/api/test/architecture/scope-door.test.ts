import { describe, expect, it } from 'vitest';
import { unscopedReads, unscopedReadsOfModules } from './scope-door.ts';

// Issue 32, item 2 and decision 026: a read of a client-owned table (clients, bets, bonuses,
// bonus_payments, subscriptions, mpesa_payments) goes through the staff-scope door, src/db/scope.ts.
// Concretely: the function that holds the statement takes a `Scope`, a `ScopedWhere` (or a filter
// carrying a Scope: clients' `ClientFilter`), or is listed below with the reason no staff member's
// request can reach it with another staff member's client. A new unscoped read fails the test.

/** Functions that read client-owned rows without a scope, by group, each with its reason. */
const NOT_THROUGH_THE_DOOR: { reason: string; functions: string[] }[] = [
  {
    reason: "the punter's own purchase on the portal, signed in by their phone: whether that phone bought before (a first-purchase-only promo code, decision 077), whether it paid from a referral code owner's M-Pesa name (decision 088)",
    functions: ['promo-codes/queries.ts#hasBoughtBefore', 'promo-codes/queries.ts#paidFromSameName'],
  },
  {
    reason: "one client's rows, read after requireClient / requireClientFacts found the client in the actor's scope (404 otherwise)",
    functions: [
      'subscriptions/queries.ts#findClientSubscriptions',
      'subscriptions/queries.ts#clientSubscriptionsExportQuery',
      'subscriptions/queries.ts#countClientSubscriptions',
      'bonuses/queries.ts#pendingBonusOfClient',
      // A buyer's invoices on the client's (or subscriber's) tax identity card, after requireClient (decision 074).
      'tax/queries/identity.ts#invoicesOfBuyer',
      'bonuses/queries.ts#lockBonusesOldestFirst',
      'sms/queries/messages.ts#pageSql',
    ],
  },
  {
    reason: 'a row locked or looked up by id inside a write whose service checked the scope first (requireClientFacts) or that admins alone call',
    functions: [
      'bets/queries.ts#lockBet',
      'clients/queries.ts#lockClient',
      'mpesa/queries/claims.ts#lockPayment',
      'mpesa/queries/claims.ts#lockPaymentByReceipt',
      'mpesa/queries/lists.ts#paymentById',
      'mpesa/queries/claims.ts#paymentRecord',
      'mpesa/queries/matching.ts#clientExists',
      'mpesa/queries/matching.ts#liveClientExists',
      'mpesa/queries/matching.ts#clientNameAndPhone',
      'mpesa/queries/matching.ts#receiptOf',
      'mpesa/queries/payment-requests.ts#paymentRequestRows',
      // A sale's buyer and its PIN, read inside the invoice's own write (decision 074).
      'tax/queries/identity.ts#identityOfSale',
      'tax/queries/identity.ts#buyerOfInvoice',
      'tax/queries.ts#insertDeviceInvoice',
    ],
  },
  {
    reason: 'admin-only screens (permission matrix): the staff assignment form, the payments and deposits lists, the money check, tax, reports, refunds, broadcasts, the SMS inbox, data protection',
    functions: [
      // The search's refund by number: asked only for an admin (manage:refunds, decision 067).
      'search/queries.ts#refundFound',
      // The promotion report (manage:promo-codes, admins only; decision 077).
      'promo-codes/queries.ts#reportBetween',
      // An agent's statement (manage:agents, admins only; decision 088): tips sales, no client's.
      'referrals/queries.ts#statementLines',
      // The agents' report (view:reports, admins only; decision 094): referees' tips payments, no client's.
      'referrals/queries.ts#agentReportBetween',
      'clients/queries.ts#findAssignableClients',
      'clients/queries.ts#countLiveClientsAmong',
      'clients/queries.ts#countLiveClientsOf',
      'clients/queries.ts#countLiveClientsPerStaff',
      'mpesa/queries/lists.ts#withPeople',
      'mpesa/queries/lists.ts#searchSql',
      'mpesa/queries/lists.ts#listPayments',
      'mpesa/queries/lists.ts#paymentsExportQuery',
      'mpesa/queries/lists.ts#listTipsDeposits',
      'mpesa/queries/lists.ts#tipsDepositsExportQuery',
      'mpesa/queries/claims.ts#claimCandidatesFor',
      'mpesa/queries/claims.ts#paidBy',
      'reconciliation/queries.ts#notOnStatementSql',
      'reconciliation/queries.ts#statementSummary',
      'reconciliation/queries.ts#statementRowsOfKind',
      'reconciliation/queries.ts#missingLines',
      'reconciliation/queries.ts#dailyFigures',
      'reconciliation/queries.ts#rowsOfFigure',
      'reconciliation/queries.ts#unbalancedDays',
      'reconciliation/queries.ts#untracedRefunds',
      'reconciliation/queries.ts#unbalancedPaymentLedgers',
      'reconciliation/queries.ts#purchasesOfUnclaimedPayments',
      'reconciliation/queries.ts#unbalancedHolders',
      'reconciliation/queries.ts#refundsAwaitingMpesa',
      'reconciliation/queries.ts#receiptsStored',
      'recovery/queries.ts#recoveryFigures',
      'refunds/queries.ts#subscriptionBoughtBy',
      'refunds/queries.ts#purchaseOf',
      'refunds/queries.ts#refundForAnswer',
      'reports/queries.ts#subscriptionsMadeQuery',
      'reports/queries.ts#moneyBridgeFigures',
      'reports/queries.ts#latePostings',
      'reports/queries.ts#reconcilingDocuments',
      'reports/queries.ts#subscriptionsLapsedQuery',
      'reports/queries.ts#manualIncomeQuery',
      'reports/queries.ts#subscriptionsOfSubscribers',
      'reports/queries.ts#leverHistory', // admins' retention figures split by lever: every subscriber's sales
      'reports/queries.ts#subscriberIdsAfter',
      'tax/queries.ts#invoicesSql',
      'tax/queries.ts#invoiceById',
      'tax/queries.ts#dayCheckRows',
      'tax/queries.ts#dayTotals',
      'broadcasts/queries.ts#recipientsOf',
      'self-service/queries.ts#inboxPage',
      'privacy/queries.ts#peopleOfPhone',
      'privacy/queries.ts#subjectRecords',
      'privacy/queries.ts#paymentIdsOf',
      'privacy/queries.ts#quietPhones',
    ],
  },
  {
    reason: 'the system acting on its own: M-Pesa callbacks and claims, jobs (expiry, recovery, tips SMS), the sale invoice, a payment reversed or refunded',
    functions: [
      // The referrals job (decision 088): referrers' free days and the agents' commission ledger, tips sales only.
      'referrals/queries.ts#dueReferrals',
      'referrals/queries.ts#lastPackageOf',
      'referrals/queries.ts#accrueCommissions',
      'referrals/queries.ts#clawBackRefunded',
      'mpesa/queries/first-read.ts#receiptlessStkPaymentAndCategory',
      'mpesa/queries/claims.ts#attachCallbackReceipt',
      'mpesa/queries/matching.ts#onlyLiveClientWith',
      'mpesa/queries/settlement.ts#saleLookupColumn',
      'mpesa/queries/settlement.ts#subscriptionBought',
      'clients/queries.ts#findLiveClientByPhone',
      'bonuses/queries.ts#bonusesStillPaidByPayment',
      'subscriptions/queries.ts#subscriptionsDueReminder',
      'subscriptions/queries.ts#markExpiredSubscriptionsLapsed',
      'subscriptions/queries.ts#stackedSubscriptionInsert',
      'subscriptions/queries.ts#lockSubscriptionsBoughtWith',
      'subscriptions/queries.ts#lockSubscription',
      'recovery/queries.ts#paidSince',
      'recovery/queries.ts#coveredNow',
      'tax/queries.ts#payerPhoneOf',
      'auto-renew/queries.ts#subscriptionWithPackage',
      'auto-renew/queries.ts#subscriptionOfPayment',
      'tips-sms/queries.ts#activeSmsRecipients',
      'tips-sms/queries.ts#runningSmsCategories',
      'self-service/queries.ts#peopleByPhone',
    ],
  },
  {
    reason: "tips subscribers' subscriptions (no client: no owner), whom every staff member serves (NOT_CLIENT_OWNED in test/clients/scope.test.ts)",
    functions: [
      'tips-subscriptions/queries.ts#countSubscriptions',
      'tips-subscribers/queries.ts#pageSubscribers',
    ],
  },
  {
    reason: "a subscriber's own rows on their own side (portal session, USSD phone), never a staff request",
    functions: ['portal/queries.ts#subscriptionsOf', 'portal/queries.ts#subscribedTo', 'portal/queries.ts#purchaseOf', 'ussd/queries.ts#runningSubscriptions'],
  },
  {
    reason: "a pause of a tips subscription (no client: no owner): the subscriber's own running subscriptions and the sale after their pause (decision 090)",
    functions: ['pauses/queries.ts#runningSubscriptions', 'pauses/queries.ts#saleAfterPause'],
  },
];

const allowed = NOT_THROUGH_THE_DOOR.flatMap((group) => group.functions);

describe('reads of client-owned rows go through the scope door (decision 026, issue 32)', () => {
  const found = unscopedReadsOfModules();

  it('has no unscoped read that is not listed with its reason', () => {
    expect(found.filter((key) => !allowed.includes(key))).toEqual([]);
  });

  it('lists only functions that still read unscoped (the list does not go stale)', () => {
    expect(allowed.filter((key) => !found.includes(key))).toEqual([]);
    expect(new Set(allowed).size).toBe(allowed.length);
  });

  it('finds an unscoped read and accepts a scoped one (the check can fail)', () => {
    const source = `
      export function openBets(db: Queryable, page: Page) {
        return rows(db, sql\`select * from bets b order by b.opened_at limit \${page.limit}\`);
      }
      export async function paidOf(db: Queryable, clientId: number) {
        return db.select().from(bonusPayments).where(eq(bonusPayments.clientId, clientId));
      }
      export const joined = (db: Queryable) => rows(db, sql\`select 1 from users u join \${clients} c on c.id = u.id\`);
      export function scopedBets(db: Queryable, where: ScopedWhere) {
        return rows(db, sql\`select * from bets b where \${where}\`);
      }
      export function clientsOf(db: Queryable, scope: Scope) {
        return rows(db, sql\`select * from clients c where \${scopedWhere(scope, 'c')}\`);
      }
      export function users(db: Queryable) {
        return rows(db, sql\`select * from users\`);
      }`;
    expect(unscopedReads('m/queries.ts', source)).toEqual(['m/queries.ts#openBets', 'm/queries.ts#paidOf', 'm/queries.ts#joined']);
  });
});
