import { privateDecrypt, constants as cryptoConstants } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { darajaTimestamp, type PulledTransaction } from './daraja.ts';

/** How the fake ends the next STK push: a ResultCode sent to the callback, or no callback at all. */
export type StkOutcome = {
  resultCode: number;
  callback: boolean;
  receipt?: string;
  /** The callback is kept until `releaseCallback` sends it (a callback that arrives very late). */
  hold?: boolean;
  /** STK query answers "The transaction is being processed" for this push, as Daraja does meanwhile. */
  queryPending?: boolean;
};

/**
 * How the fake ends the next Reversal or B2C request: the ResultCode of the transaction, and which
 * callback says so ('result', the queue 'timeout', or 'none' at all). A Transaction Status query
 * answers the transaction's true end whatever callback came.
 */
export type RefundOutcome = {
  resultCode: number;
  callback: 'result' | 'timeout' | 'none';
  receipt?: string;
  /** B2C's utility account balance after the payment, in KES. */
  utilityBalanceKes?: number;
  /** What M-Pesa actually paid, in KES, when not the amount asked (its results and status say so). */
  paidKes?: number;
  /** Who M-Pesa actually paid (B2C), when not the phone asked. */
  paidTo?: string;
  /**
   * How a Transaction Status query about it is answered: with the transaction's true end (the
   * default), or never ('silent': M-Pesa's queue times the query out, naming only the query).
   */
  statusQuery?: 'answers' | 'silent';
};

/** How the customer answers the next Ratiba standing order: a result code (0 approves) sent to the callback, or none. */
export type RatibaOutcome = { resultCode: number; callback: boolean };

/** A standing order the fake holds, by its responseRefID. */
export interface FakeStandingOrder {
  responseRefId: string;
  body: Record<string, unknown>;
  approved: boolean;
}

export interface FakeDaraja {
  /** Outcomes for the next Ratiba requests, in order; when empty the customer approves. */
  ratibaOutcomes: RatibaOutcome[];
  /** Every Ratiba create request body, in order. */
  ratibaRequests: Record<string, unknown>[];
  standingOrders: Map<string, FakeStandingOrder>;
  /** Where a standing order's run is confirmed (the C2B ConfirmationURL); the last registered one by default. */
  c2bConfirmationUrl: string | null;
  /**
   * One run of a standing order on its due day: M-Pesa pays the paybill from the customer's wallet
   * and confirms it as an ordinary C2B payment (BillRefNumber = the order's AccountReference). A
   * failed run (too little money) reaches the business as nothing at all. Returns the receipt.
   */
  runStandingOrder(responseRefId: string, run?: { fails?: boolean; transId?: string }): Promise<string | null>;
  /** Outcomes for the next Reversal/B2C requests, in order; when empty one succeeds with a result. */
  refundOutcomes: RefundOutcome[];
  /** Every Reversal and B2C request body accepted or refused, in order, with its path. */
  refundRequests: { path: string; body: Record<string, unknown> }[];
  /** Every Transaction Status query body. */
  statusQueries: Record<string, unknown>[];
  /**
   * The initiator's key and password: a SecurityCredential that does not decrypt to the password
   * fails as Daraja's 2001 "The initiator information is invalid." (null: not checked).
   */
  initiator: { privateKeyPem: string; password: string } | null;
  baseUrl: string;
  consumerKey: string;
  consumerSecret: string;
  /** Every OAuth token handed out, newest last. */
  tokens: string[];
  registered: Record<string, unknown>[];
  pushes: Record<string, unknown>[];
  queries: string[];
  /** Outcomes for the next pushes, in order; when empty a push succeeds with a callback. */
  outcomes: StkOutcome[];
  /** Pull Transactions registrations received. */
  pullRegistered: Record<string, unknown>[];
  /** The C2B transactions M-Pesa holds for the shortcode, as Pull Transactions answers them. */
  pullTransactions: PulledTransaction[];
  /** Rows a Pull Transactions page holds at most. */
  pullPageSize: number;
  /** Every Pull Transactions query body, in order. */
  pullQueries: Record<string, unknown>[];
  /** The next this many pull queries fail with HTTP 200 and ResponseCode 500, as Daraja does. */
  pullFailures: number;
  /** Tills the store number owns: a CustomerBuyGoodsOnline push must name one as PartyB. */
  tills: string[];
  /** Callbacks held back (`hold`), by CheckoutRequestID. */
  heldCallbacks: Map<string, { url: string; body: unknown }>;
  /** Sends a held callback now. */
  releaseCallback(checkoutRequestId: string): Promise<void>;
  /** How long the "payer" takes before the callback is sent. */
  callbackDelayMs: number;
  /** How a callback reaches the app: a POST to CallBackURL unless replaced (tests use app.inject). */
  deliver: (url: string, body: unknown) => Promise<void>;
  /** Resolves when every callback sent so far has been delivered. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

const RESULT_TEXTS = {
  0: 'The service request is processed successfully.',
  1: 'The balance is insufficient for the transaction.',
  1032: 'Request cancelled by user',
  1037: 'DS timeout user cannot be reached',
  2001: 'The initiator information is invalid.',
  2032: 'The transaction was not found.',
} as Record<number, string>;

/** A Result callback of Reversal, B2C and Transaction Status, as Daraja sends it. */
function resultBody(r: {
  resultCode: number;
  originatorConversationId: string;
  conversationId: string;
  transactionId: string;
  parameters: Record<string, string | number>;
  resultDesc?: string;
}) {
  return {
    Result: {
      ResultType: 0,
      ResultCode: r.resultCode,
      ResultDesc: r.resultDesc ?? RESULT_TEXTS[r.resultCode] ?? 'Failed',
      OriginatorConversationID: r.originatorConversationId,
      ConversationID: r.conversationId,
      TransactionID: r.transactionId,
      ...(Object.keys(r.parameters).length
        ? { ResultParameters: { ResultParameter: Object.entries(r.parameters).map(([Key, Value]) => ({ Key, Value })) } }
        : {}),
      ReferenceData: { ReferenceItem: { Key: 'QueueTimeoutURL', Value: 'https://internalsandbox.safaricom.co.ke/mpesa/results/v1/submit' } },
    },
  };
}

/** Whether a SecurityCredential is the initiator password encrypted (RSA PKCS#1 v1.5) for this key. */
function credentialMatches(credential: string, initiator: { privateKeyPem: string; password: string }): boolean {
  try {
    // Node refuses PKCS#1 v1.5 private decryption (CVE-2023-46809), so the fake undoes the raw RSA
    // and reads the v1.5 block itself: 00 02 <non-zero padding, 8+ bytes> 00 <message>.
    const block = privateDecrypt({ key: initiator.privateKeyPem, padding: cryptoConstants.RSA_NO_PADDING }, Buffer.from(credential, 'base64'));
    const end = block.indexOf(0, 2);
    if (block[0] !== 0 || block[1] !== 2 || end < 10) return false;
    return block.subarray(end + 1).toString('utf8') === initiator.password;
  } catch {
    return false;
  }
}

/** Pull Transactions' "2019-07-31 20:35:21" (Nairobi) -> epoch ms; null when unreadable. */
function nairobiPullTime(value: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!m) return null;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]) - 3, Number(m[5]), Number(m[6] ?? 0));
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
  } catch {
    return {};
  }
}

/**
 * A local stand-in for Safaricom Daraja speaking its real paths and bodies: OAuth, C2B register
 * URL, STK push (which calls the callback back with the scripted outcome) and STK query, and
 * M-Pesa Ratiba (the customer's approval callback, and each run as a C2B confirmation).
 */
export async function startFakeDaraja(): Promise<FakeDaraja> {
  const consumerKey = 'fake-consumer-key';
  const consumerSecret = 'fake-consumer-secret';
  const settledPushes = new Map<string, { resultCode: number; pending: boolean }>();
  const inFlight = new Set<Promise<void>>();
  let seq = 0;

  /** The true end of each Reversal/B2C request, by OriginatorConversationID (what a status query reads). */
  const refundEnds = new Map<
    string,
    { resultCode: number; receipt: string; amount: number; conversationId: string; paidTo: string; reversal: boolean; statusQuery: 'answers' | 'silent' }
  >();

  const fake: FakeDaraja = {
    ratibaOutcomes: [],
    ratibaRequests: [],
    standingOrders: new Map(),
    c2bConfirmationUrl: null,
    async runStandingOrder(responseRefId, run = {}) {
      const order = fake.standingOrders.get(responseRefId);
      if (!order?.approved) throw new Error(`No approved standing order ${responseRefId}`);
      if (run.fails) return null;
      const url = fake.c2bConfirmationUrl ?? (fake.registered.at(-1)?.ConfirmationURL as string | undefined);
      if (!url) throw new Error('No C2B confirmation URL: register URLs or set c2bConfirmationUrl');
      seq += 1;
      const transId = run.transId ?? `SO${String(seq).padStart(8, '0')}`;
      await fake.deliver(url, {
        TransactionType: 'Pay Bill',
        TransID: transId,
        TransTime: darajaTimestamp(),
        TransAmount: `${String(order.body.Amount)}.00`,
        BusinessShortCode: String(order.body.BusinessShortCode),
        BillRefNumber: String(order.body.AccountReference),
        InvoiceNumber: '',
        OrgAccountBalance: '',
        ThirdPartyTransID: '',
        MSISDN: String(order.body.PartyA),
        FirstName: 'RATIBA',
        MiddleName: '',
        LastName: 'PAYER',
      });
      return transId;
    },
    refundOutcomes: [],
    refundRequests: [],
    statusQueries: [],
    initiator: null,
    baseUrl: '',
    consumerKey,
    consumerSecret,
    tokens: [],
    registered: [],
    pushes: [],
    queries: [],
    outcomes: [],
    pullRegistered: [],
    pullTransactions: [],
    pullPageSize: 1000,
    pullQueries: [],
    pullFailures: 0,
    tills: [],
    heldCallbacks: new Map(),
    async releaseCallback(checkoutRequestId) {
      const held = fake.heldCallbacks.get(checkoutRequestId);
      if (!held) throw new Error(`No callback held for ${checkoutRequestId}`);
      fake.heldCallbacks.delete(checkoutRequestId);
      await fake.deliver(held.url, held.body);
    },
    callbackDelayMs: 100,
    deliver: async (url, body) => {
      await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    },
    async settled() {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  const authorised = (req: IncomingMessage) => {
    const given = req.headers.authorization?.replace(/^Bearer /, '');
    return given !== undefined && given === fake.tokens.at(-1);
  };

  const server: Server = createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const url = new URL(req.url ?? '/', 'http://fake');
    void (async () => {
      if (req.method === 'GET' && url.pathname === '/oauth/v1/generate') {
        const expected = `Basic ${Buffer.from(`${consumerKey}:${consumerSecret}`).toString('base64')}`;
        if (req.headers.authorization !== expected) return send(400, { errorCode: '400.008.01', errorMessage: 'Invalid Authentication passed' });
        seq += 1;
        const token = `fake-token-${seq}`;
        fake.tokens.push(token);
        return send(200, { access_token: token, expires_in: '3599' });
      }
      const body = await readJson(req);
      if (!authorised(req)) return send(404, { requestId: `r-${seq}`, errorCode: '404.001.03', errorMessage: 'Invalid Access Token' });

      if (req.method === 'POST' && /^\/mpesa\/c2b\/v[12]\/registerurl$/.test(url.pathname)) {
        fake.registered.push(body);
        return send(200, { OriginatorCoversationID: `reg-${seq}`, ResponseCode: '0', ResponseDescription: 'Success' });
      }

      if (req.method === 'POST' && url.pathname === '/mpesa/stkpush/v1/processrequest') {
        fake.pushes.push(body);
        seq += 1;
        // Daraja takes whole shillings only.
        if (!Number.isInteger(body.Amount) && !/^\d+$/.test(String(body.Amount))) {
          return send(400, { requestId: `r-${seq}`, errorCode: '400.002.02', errorMessage: 'Bad Request - Invalid Amount' });
        }
        // Buy Goods pays a till: the store number itself (or any other number) is no operator.
        if (body.TransactionType === 'CustomerBuyGoodsOnline' && !fake.tills.includes(String(body.PartyB))) {
          return send(500, { requestId: `r-${seq}`, errorCode: '500.001.1001', errorMessage: 'The operator does not exist' });
        }
        const merchantRequestId = `29115-${seq}`;
        const checkoutRequestId = `ws_CO_${darajaTimestamp()}${String(seq).padStart(6, '0')}`;
        const outcome = fake.outcomes.shift() ?? { resultCode: 0, callback: true };
        settledPushes.set(checkoutRequestId, { resultCode: outcome.resultCode, pending: outcome.queryPending === true });
        send(200, {
          MerchantRequestID: merchantRequestId,
          CheckoutRequestID: checkoutRequestId,
          ResponseCode: '0',
          ResponseDescription: 'Success. Request accepted for processing',
          CustomerMessage: 'Success. Request accepted for processing',
        });
        if (!outcome.callback) return;
        const callback = {
          Body: {
            stkCallback: {
              MerchantRequestID: merchantRequestId,
              CheckoutRequestID: checkoutRequestId,
              ResultCode: outcome.resultCode,
              ResultDesc: RESULT_TEXTS[outcome.resultCode] ?? 'Failed',
              ...(outcome.resultCode === 0
                ? {
                    CallbackMetadata: {
                      Item: [
                        { Name: 'Amount', Value: Number(body.Amount) },
                        { Name: 'MpesaReceiptNumber', Value: outcome.receipt ?? `SK${String(seq).padStart(8, '0')}` },
                        { Name: 'Balance' },
                        { Name: 'TransactionDate', Value: Number(darajaTimestamp()) },
                        { Name: 'PhoneNumber', Value: Number(body.PhoneNumber) },
                      ],
                    },
                  }
                : {}),
            },
          },
        };
        if (outcome.hold) {
          fake.heldCallbacks.set(checkoutRequestId, { url: String(body.CallBackURL), body: callback });
          return;
        }
        // The payer needs a moment to enter their PIN: the callback never beats the push's answer.
        const delivery = new Promise((resolve) => setTimeout(resolve, fake.callbackDelayMs))
          .then(() => fake.deliver(String(body.CallBackURL), callback))
          .finally(() => inFlight.delete(delivery));
        inFlight.add(delivery);
        return;
      }

      if (req.method === 'POST' && (url.pathname === '/mpesa/reversal/v1/request' || url.pathname === '/mpesa/b2c/v3/paymentrequest')) {
        fake.refundRequests.push({ path: url.pathname, body });
        seq += 1;
        const reversal = url.pathname.includes('reversal');
        const originatorId = String(body.OriginatorConversationID ?? `fake-orig-${seq}`);
        if (!reversal && refundEnds.has(originatorId)) {
          return send(400, { requestId: `r-${seq}`, errorCode: '400.002.02', errorMessage: 'Bad Request - Duplicate OriginatorConversationID' });
        }
        if (!/^\d+$/.test(String(body.Amount))) {
          return send(400, { requestId: `r-${seq}`, errorCode: '400.002.02', errorMessage: 'Bad Request - Invalid Amount' });
        }
        const conversationId = `AG_${darajaTimestamp()}_${String(seq).padStart(12, '0')}`;
        let outcome = fake.refundOutcomes.shift() ?? { resultCode: 0, callback: 'result' as const };
        if (fake.initiator && !credentialMatches(String(body.SecurityCredential ?? ''), fake.initiator)) {
          outcome = { resultCode: 2001, callback: 'result' };
        }
        const receipt = outcome.receipt ?? `RF${String(seq).padStart(8, '0')}`;
        const amount = outcome.paidKes ?? Number(body.Amount);
        // A Reversal returns the money to whoever paid the receipt; the fake does not know them.
        const paidTo = reversal ? '254700000000' : (outcome.paidTo ?? String(body.PartyB));
        refundEnds.set(originatorId, {
          resultCode: outcome.resultCode,
          receipt,
          amount,
          conversationId,
          paidTo,
          reversal,
          statusQuery: outcome.statusQuery ?? 'answers',
        });
        send(200, {
          OriginatorConversationID: originatorId,
          ConversationID: conversationId,
          ResponseCode: '0',
          ResponseDescription: 'Accept the service request successfully.',
        });
        if (outcome.callback === 'none') return;
        const ok = outcome.resultCode === 0;
        const callbackUrl = String(outcome.callback === 'timeout' ? body.QueueTimeOutURL : body.ResultURL);
        const callback =
          outcome.callback === 'timeout'
            ? { Result: { ResultType: 0, ResultCode: 1, ResultDesc: 'The request timed out in the queue.', OriginatorConversationID: originatorId, ConversationID: conversationId } }
            : resultBody({
                resultCode: outcome.resultCode,
                originatorConversationId: originatorId,
                conversationId,
                transactionId: ok ? receipt : '',
                parameters: !ok
                  ? {}
                  : reversal
                    ? {
                        DebitAccountBalance: 'Utility Account|KES|51661.00|51661.00|0.00|0.00',
                        Amount: amount,
                        TransCompletedTime: Number(darajaTimestamp()),
                        OriginalTransactionID: String(body.TransactionID),
                        Charge: 0,
                        CreditPartyPublicName: `${paidTo} - Payer`,
                        DebitPartyPublicName: `${String(body.ReceiverParty)} - Betdesk`,
                      }
                    : {
                        TransactionAmount: amount,
                        TransactionReceipt: receipt,
                        B2CRecipientIsRegisteredCustomer: 'Y',
                        B2CChargesPaidAccountAvailableFunds: 0,
                        ReceiverPartyPublicName: `${paidTo} - Payer`,
                        TransactionCompletedDateTime: '17.07.2017 10:54:57',
                        B2CUtilityAccountAvailableFunds: outcome.utilityBalanceKes ?? 50_000,
                        B2CWorkingAccountAvailableFunds: 0,
                      },
              });
        const delivery = new Promise((resolve) => setTimeout(resolve, fake.callbackDelayMs))
          .then(() => fake.deliver(callbackUrl, callback))
          .finally(() => inFlight.delete(delivery));
        inFlight.add(delivery);
        return;
      }

      if (req.method === 'POST' && url.pathname === '/mpesa/transactionstatus/v1/query') {
        fake.statusQueries.push(body);
        seq += 1;
        const originatorId = String(body.OriginalConversationID ?? body.Occasion ?? '');
        const end = refundEnds.get(originatorId);
        // The result's own ids are the query's; the transaction asked about is in its parameters.
        const queryOriginatorId = `${String(seq).padStart(5, '0')}-${seq}-1`;
        const conversationId = `AG_${darajaTimestamp()}_${String(seq).padStart(12, '0')}`;
        send(200, { OriginatorConversationID: queryOriginatorId, ConversationID: conversationId, ResponseCode: '0', ResponseDescription: 'Accept the service request successfully.' });
        const now = Number(darajaTimestamp());
        const callback =
          end?.statusQuery === 'silent'
            ? { Result: { ResultType: 0, ResultCode: 1, ResultDesc: 'The request timed out in the queue.', OriginatorConversationID: queryOriginatorId, ConversationID: conversationId } }
            : end
              ? resultBody({
                  resultCode: 0,
                  originatorConversationId: queryOriginatorId,
                  conversationId,
                  transactionId: end.receipt,
                  parameters: {
                    DebitPartyName: `${String(body.PartyA)} - Betdesk`,
                    CreditPartyName: `${end.paidTo} - Payer`,
                    OriginatorConversationID: originatorId,
                    InitiatedTime: now,
                    DebitAccountType: 'Utility Account',
                    DebitPartyCharges: end.reversal ? '' : 'Fee For B2C Payment|KES|22.40',
                    TransactionReason: '',
                    ReasonType: end.resultCode === 0 ? (end.reversal ? 'Reversal' : 'Business Payment to Customer via API') : (RESULT_TEXTS[end.resultCode] ?? 'Failed'),
                    TransactionStatus: end.resultCode === 0 ? 'Completed' : 'Failed',
                    FinalisedTime: now,
                    Amount: end.amount,
                    ConversationID: end.conversationId,
                    ReceiptNo: end.resultCode === 0 ? end.receipt : '',
                  },
                })
              : // M-Pesa knows no such transaction: the result names only the query.
                resultBody({ resultCode: 2032, originatorConversationId: queryOriginatorId, conversationId, transactionId: '', parameters: {} });
        const delivery = new Promise((resolve) => setTimeout(resolve, fake.callbackDelayMs))
          .then(() => fake.deliver(String(end?.statusQuery === 'silent' ? body.QueueTimeOutURL : body.ResultURL), callback))
          .finally(() => inFlight.delete(delivery));
        inFlight.add(delivery);
        return;
      }

      if (req.method === 'POST' && url.pathname === '/standingorder/v1/createStandingOrderExternal') {
        fake.ratibaRequests.push(body);
        seq += 1;
        const refused = (code: string, description: string) =>
          send(200, { ResponseHeader: { responseRefID: '', responseCode: code, responseDescription: description, ResultDesc: description }, ResponseBody: {} });
        const names = [...fake.standingOrders.values()].filter((o) => o.body.PartyA === body.PartyA).map((o) => o.body.StandingOrderName);
        if (names.includes(body.StandingOrderName)) return refused('1050', 'Standing order name already exists');
        if (!/^\d+$/.test(String(body.Amount)) || !/^\d{8}$/.test(String(body.StartDate)) || !/^\d{8}$/.test(String(body.EndDate))) {
          return refused('400', 'Invalid request');
        }
        const responseRefId = `${String(seq).padStart(4, '0')}-${darajaTimestamp()}-ratiba`;
        const order: FakeStandingOrder = { responseRefId, body, approved: false };
        fake.standingOrders.set(responseRefId, order);
        send(200, {
          ResponseHeader: { responseRefID: responseRefId, responseCode: '200', responseDescription: 'Request accepted for processing', ResultDesc: 'The service request is processed successfully.' },
          ResponseBody: { responseDescription: 'Request accepted for processing', responseCode: '200' },
        });
        const outcome = fake.ratibaOutcomes.shift() ?? { resultCode: 0, callback: true };
        if (!outcome.callback) return;
        const approved = outcome.resultCode === 0;
        const phone = String(body.PartyA);
        const callback = {
          ResponseHeader: {
            responseRefID: responseRefId,
            requestRefID: `req-${seq}`,
            responseCode: String(outcome.resultCode),
            responseDescription: approved ? 'The service request is processed successfully' : RESULT_TEXTS[outcome.resultCode] ?? 'Failed',
          },
          ResponseBody: {
            ResponseData: [
              { Name: 'TransactionID', Value: approved ? `SC${String(seq).padStart(8, '0')}` : '' },
              { Name: 'responseCode', Value: String(outcome.resultCode) },
              { Name: 'Status', Value: approved ? 'OKAY' : 'ERROR' },
              { Name: 'Msisdn', Value: `${phone.slice(0, 6)}***${phone.slice(-3)}` },
            ],
          },
        };
        const delivery = new Promise((resolve) => setTimeout(resolve, fake.callbackDelayMs))
          .then(() => {
            order.approved = approved;
            return fake.deliver(String(body.CallBackURL), callback);
          })
          .finally(() => inFlight.delete(delivery));
        inFlight.add(delivery);
        return;
      }

      if (req.method === 'POST' && url.pathname === '/pulltransactions/v1/register') {
        fake.pullRegistered.push(body);
        const again = fake.pullRegistered.filter((r) => r.ShortCode === body.ShortCode).length > 1;
        return send(200, {
          ResponseRefID: `pull-reg-${seq}`,
          'Response Status': again ? '1001' : '1000',
          ShortCode: body.ShortCode,
          'Response Description': again ? 'ShortCode already Registered' : 'Short code Registered Successfully',
        });
      }

      if (req.method === 'POST' && url.pathname === '/pulltransactions/v1/query') {
        fake.pullQueries.push(body);
        seq += 1;
        if (fake.pullFailures > 0) {
          fake.pullFailures -= 1;
          return send(200, { ResponseRefID: `pull-${seq}`, ResponseCode: '500', ResponseMessage: 'Failed to retrieve transactions' });
        }
        const from = nairobiPullTime(String(body.StartDate));
        const to = nairobiPullTime(String(body.EndDate));
        const offset = Number(body.OffSetValue ?? 0);
        const inWindow = fake.pullTransactions.filter((t) => {
          const at = Date.parse(t.trxDate);
          return from !== null && to !== null && at >= from && at <= to;
        });
        const page = inWindow.slice(offset, offset + fake.pullPageSize);
        if (page.length === 0) {
          return send(200, { ResponseRefID: `pull-${seq}`, ResponseCode: '1001', ResponseMessage: 'No transactions available', Response: [[]] });
        }
        return send(200, { ResponseRefID: `pull-${seq}`, ResponseCode: '1000', ResponseMessage: 'Success', Response: [page] });
      }

      if (req.method === 'POST' && url.pathname === '/mpesa/stkpushquery/v1/query') {
        const id = String(body.CheckoutRequestID);
        fake.queries.push(id);
        const push = settledPushes.get(id);
        if (!push) return send(400, { requestId: `q-${seq}`, errorCode: '400.002.02', errorMessage: 'Bad Request - Invalid CheckoutRequestID' });
        if (push.pending) {
          return send(500, { requestId: `q-${seq}`, errorCode: '500.001.1001', errorMessage: 'The transaction is being processed' });
        }
        return send(200, {
          ResponseCode: '0',
          ResponseDescription: 'The service request has been accepted successsfully',
          MerchantRequestID: '',
          CheckoutRequestID: id,
          ResultCode: String(push.resultCode),
          ResultDesc: RESULT_TEXTS[push.resultCode] ?? 'Failed',
        });
      }
      return send(404, { errorCode: '404.000.01', errorMessage: 'Resource not found' });
    })().catch(() => send(500, { errorCode: '500.000.00', errorMessage: 'Fake Daraja failed' }));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
