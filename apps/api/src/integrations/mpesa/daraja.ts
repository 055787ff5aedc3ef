import type { MpesaConfig } from '../../config.ts';

type DarajaApi = NonNullable<MpesaConfig['api']>;

/** Daraja refused or could not be reached; `code` is Daraja's errorCode or ResponseCode when given. */
export class DarajaError extends Error {
  constructor(
    message: string,
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

export interface StkPushRequest {
  /** E.164 digits, 2547XXXXXXXX. */
  phone: string;
  /** Whole shillings: Daraja takes no cents. */
  amountKes: number;
  /** At most 12 characters. */
  accountReference: string;
  /** At most 13 characters. */
  description: string;
}

export interface StkPushAnswer {
  merchantRequestId: string;
  checkoutRequestId: string;
  customerMessage: string;
}

export interface StkQueryAnswer {
  /** Daraja's ResultCode of the push, as text; null while it is still being processed. */
  resultCode: string | null;
  resultDesc: string;
}

/** One C2B transaction as Pull Transactions reports it (field names as Daraja spells them). */
export interface PulledTransaction {
  transactionId: string;
  /** ISO time, e.g. "2020-08-05T10:13:00Z". */
  trxDate: string;
  msisdn: string | number | null;
  sender: string | null;
  transactiontype: string | null;
  billreference: string | null;
  amount: string | number;
  organizationname?: string | null;
}

export interface PullPage {
  transactions: PulledTransaction[];
  /** Daraja's ResponseCode: 1000 found, 1001 nothing in the period. */
  responseCode: string;
}

/** What Reversal, B2C and Transaction Status need beyond the app's keys: the initiator (decision 036). */
export interface Initiator {
  name: string;
  /** The initiator password encrypted with M-Pesa's certificate (securityCredential()). */
  securityCredential: string;
}

export interface RefundSend {
  initiator: Initiator;
  /** Whose ResultURLs Daraja answers to: a refund's (the default) or an agent's payout's (decision 093). */
  for?: 'refund' | 'payout';
  /** Ours, unique per refund. */
  originatorConversationId: string;
  /** Whole shillings. */
  amountKes: number;
  remarks: string;
}

/** Daraja's acknowledgement of an asynchronous request: the result comes later to ResultURL. */
export interface Acknowledgement {
  conversationId: string;
  originatorConversationId: string;
  responseDescription: string;
}

/** An M-Pesa Ratiba standing order to create (Frequency 2 daily, 3 weekly, 4 monthly). */
export interface StandingOrderRequest {
  /** Unique per customer; a repeat is refused (1050). */
  name: string;
  phone: string;
  /** Whole shillings. */
  amountKes: number;
  accountReference: string;
  frequency: '2' | '3' | '4';
  /** Nairobi days, YYYY-MM-DD. */
  startDate: string;
  endDate: string;
}

export interface StandingOrderAnswer {
  /** Daraja's responseRefID: the approval callback carries it back. */
  responseRefId: string;
  responseDescription: string;
}

export interface DarajaClient {
  /** Asks M-Pesa Ratiba to create a standing order; the customer approves it with their PIN (callback). */
  createStandingOrder(request: StandingOrderRequest): Promise<StandingOrderAnswer>;
  /** Reverses a C2B/STK payment by its receipt (CommandID TransactionReversal). */
  reversal(request: RefundSend & { transactionId: string }): Promise<Acknowledgement>;
  /** Pays a phone from the utility account (B2C v3, CommandID BusinessPayment). */
  b2cPayment(request: RefundSend & { phone: string }): Promise<Acknowledgement>;
  /** Asks how a request ended; the answer comes to the status ResultURL. */
  transactionStatus(request: { initiator: Initiator; originatorConversationId: string; transactionId: string | null; for?: 'refund' | 'payout' }): Promise<Acknowledgement>;
  registerUrls(): Promise<{ responseDescription: string; confirmationUrl: string; validationUrl: string }>;
  stkPush(request: StkPushRequest): Promise<StkPushAnswer>;
  stkQuery(checkoutRequestId: string): Promise<StkQueryAnswer>;
  /** Registers the shortcode for Pull Transactions (once); "already registered" counts as done. */
  registerPull(nominatedNumber: string): Promise<{ responseDescription: string; callbackUrl: string }>;
  /** One page of the C2B transactions between two times (at most 48 hours back), from `offset`. */
  pullTransactions(from: Date, to: Date, offset: number): Promise<PullPage>;
}

/** Callback URLs under the secret segment; Daraja refuses URLs naming M-Pesa, so the paths avoid it. */
export function webhookUrls(callbackBaseUrl: string, secret: string) {
  return {
    validation: `${callbackBaseUrl}/api/hooks/c2b/validation/${secret}`,
    confirmation: `${callbackBaseUrl}/api/hooks/c2b/confirmation/${secret}`,
    stk: `${callbackBaseUrl}/api/hooks/stk/${secret}`,
    pull: `${callbackBaseUrl}/api/hooks/pull/${secret}`,
    reversalResult: `${callbackBaseUrl}/api/hooks/mpesa/reversal/result/${secret}`,
    reversalTimeout: `${callbackBaseUrl}/api/hooks/mpesa/reversal/timeout/${secret}`,
    b2cResult: `${callbackBaseUrl}/api/hooks/mpesa/b2c/result/${secret}`,
    b2cTimeout: `${callbackBaseUrl}/api/hooks/mpesa/b2c/timeout/${secret}`,
    statusResult: `${callbackBaseUrl}/api/hooks/mpesa/status/result/${secret}`,
    // An agent's payout (decision 093) names its own ResultURLs: its answers settle payouts, never refunds.
    payoutResult: `${callbackBaseUrl}/api/hooks/mpesa/payouts/b2c/result/${secret}`,
    payoutTimeout: `${callbackBaseUrl}/api/hooks/mpesa/payouts/b2c/timeout/${secret}`,
    payoutStatusResult: `${callbackBaseUrl}/api/hooks/mpesa/payouts/status/result/${secret}`,
    ratiba: `${callbackBaseUrl}/api/hooks/ratiba/${secret}`,
  };
}

/** Pull Transactions' "2019-07-31 20:35:21", in Nairobi time. */
export function pullTime(at: Date): string {
  return new Date(at.getTime() + 3 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
}

/** The page's transactions: Daraja nests them (`Response: [[...]]`); a flat list is read too. */
function pulledRows(response: unknown): PulledTransaction[] {
  if (!Array.isArray(response)) return [];
  return response
    .flatMap((item: unknown) => (Array.isArray(item) ? (item as unknown[]) : [item]))
    .filter((t): t is PulledTransaction => typeof t === 'object' && t !== null && 'transactionId' in t);
}

/** Daraja's "YYYYMMDDHHmmss" in Nairobi time (UTC+3 all year). */
export function darajaTimestamp(at: Date = new Date()): string {
  return new Date(at.getTime() + 3 * 3_600_000).toISOString().replace(/\D/g, '').slice(0, 14);
}

const TOKEN_REFRESH_MARGIN_MS = 60_000;

/**
 * The Daraja HTTP client. One OAuth token is cached per client and refreshed a minute before it
 * expires (or at once when Daraja says it is stale, errorCode 404.001.03).
 */
export function createDarajaClient(
  api: DarajaApi,
  webhookSecret: string,
  fetchImpl: typeof fetch = fetch,
): DarajaClient {
  let token: { value: string; expiresAt: number } | null = null;
  let pending: Promise<string> | null = null;

  async function fetchToken(): Promise<string> {
    const basic = Buffer.from(`${api.consumerKey}:${api.consumerSecret}`).toString('base64');
    const res = await fetchImpl(`${api.baseUrl}/oauth/v1/generate?grant_type=client_credentials`, {
      headers: { authorization: `Basic ${basic}` },
      signal: AbortSignal.timeout(15_000),
    });
    const body = (await res.json().catch(() => ({}))) as { access_token?: string; expires_in?: string | number };
    if (!res.ok || !body.access_token) {
      throw new DarajaError(`Daraja OAuth failed with HTTP ${res.status}`);
    }
    const seconds = Number(body.expires_in ?? 3599);
    token = {
      value: body.access_token,
      expiresAt: Date.now() + (Number.isFinite(seconds) ? seconds : 3599) * 1000 - TOKEN_REFRESH_MARGIN_MS,
    };
    return token.value;
  }

  async function accessToken(): Promise<string> {
    if (token && token.expiresAt > Date.now()) return token.value;
    // Concurrent callers share one refresh: a new token may invalidate the previous one.
    pending ??= fetchToken().finally(() => {
      pending = null;
    });
    return pending;
  }

  async function post<T>(path: string, payload: unknown, retried = false): Promise<T> {
    const res = await fetchImpl(`${api.baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await accessToken()}`, 'content-type': 'application/json' },
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout(30_000),
    });
    const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (body.errorCode === '404.001.03' && !retried) {
      token = null;
      return post<T>(path, payload, true);
    }
    if (!res.ok || body.errorCode) {
      throw new DarajaError(
        String(body.errorMessage ?? `Daraja answered HTTP ${res.status}`),
        body.errorCode ? String(body.errorCode) : null,
      );
    }
    return body as T;
  }

  function stkPassword(timestamp: string): string {
    if (!api.passkey) throw new DarajaError('MPESA_PASSKEY is not set: STK push needs it');
    return Buffer.from(`${api.shortcode}${api.passkey}${timestamp}`).toString('base64');
  }

  const urls = webhookUrls(api.callbackBaseUrl, webhookSecret);

  /** The acknowledgement of Reversal, B2C and Transaction Status: ResponseCode "0" or a refusal. */
  async function acknowledged(path: string, payload: Record<string, unknown>): Promise<Acknowledgement> {
    const body = await post<{ ConversationID?: string; OriginatorConversationID?: string; ResponseCode?: string | number; ResponseDescription?: string }>(
      path,
      payload,
    );
    if (String(body.ResponseCode ?? '') !== '0') {
      throw new DarajaError(body.ResponseDescription ?? 'Daraja refused the request', String(body.ResponseCode ?? '') || null);
    }
    return {
      conversationId: body.ConversationID ?? '',
      originatorConversationId: body.OriginatorConversationID ?? '',
      responseDescription: body.ResponseDescription ?? '',
    };
  }

  return {
    async registerUrls() {
      const body = await post<{ ResponseCode?: string; ResponseDescription?: string }>('/mpesa/c2b/v2/registerurl', {
        ShortCode: api.shortcode,
        ResponseType: 'Completed',
        ConfirmationURL: urls.confirmation,
        ValidationURL: urls.validation,
      });
      if (String(body.ResponseCode ?? '0') !== '0') {
        throw new DarajaError(body.ResponseDescription ?? 'Daraja refused the URLs', String(body.ResponseCode));
      }
      return {
        responseDescription: body.ResponseDescription ?? 'Success',
        confirmationUrl: urls.confirmation,
        validationUrl: urls.validation,
      };
    },

    async stkPush(request) {
      const timestamp = darajaTimestamp();
      const body = await post<{
        MerchantRequestID?: string;
        CheckoutRequestID?: string;
        ResponseCode?: string;
        ResponseDescription?: string;
        CustomerMessage?: string;
      }>('/mpesa/stkpush/v1/processrequest', {
        BusinessShortCode: api.shortcode,
        Password: stkPassword(timestamp),
        Timestamp: timestamp,
        TransactionType: api.transactionType,
        // Daraja takes whole shillings; callers ask whole amounts, this only guards the wire.
        Amount: Math.ceil(request.amountKes),
        PartyA: request.phone,
        // CustomerBuyGoodsOnline pays the till, not the store number ("The operator does not exist").
        PartyB: api.partyB,
        PhoneNumber: request.phone,
        CallBackURL: urls.stk,
        AccountReference: request.accountReference.slice(0, 12),
        TransactionDesc: request.description.slice(0, 13),
      });
      if (String(body.ResponseCode) !== '0' || !body.CheckoutRequestID) {
        throw new DarajaError(body.ResponseDescription ?? 'Daraja refused the STK push', String(body.ResponseCode ?? ''));
      }
      return {
        merchantRequestId: body.MerchantRequestID ?? '',
        checkoutRequestId: body.CheckoutRequestID,
        customerMessage: body.CustomerMessage ?? '',
      };
    },

    reversal(r) {
      return acknowledged('/mpesa/reversal/v1/request', {
        Initiator: r.initiator.name,
        SecurityCredential: r.initiator.securityCredential,
        CommandID: 'TransactionReversal',
        TransactionID: r.transactionId,
        Amount: Math.round(r.amountKes),
        ReceiverParty: api.shortcode,
        // 11: the organisation's shortcode received the payment being reversed.
        RecieverIdentifierType: '11',
        ResultURL: urls.reversalResult,
        QueueTimeOutURL: urls.reversalTimeout,
        Remarks: r.remarks.slice(0, 100),
        Occasion: r.originatorConversationId,
        OriginatorConversationID: r.originatorConversationId,
      });
    },

    b2cPayment(r) {
      return acknowledged('/mpesa/b2c/v3/paymentrequest', {
        OriginatorConversationID: r.originatorConversationId,
        InitiatorName: r.initiator.name,
        SecurityCredential: r.initiator.securityCredential,
        CommandID: 'BusinessPayment',
        Amount: Math.round(r.amountKes),
        PartyA: api.shortcode,
        PartyB: r.phone,
        Remarks: r.remarks.slice(0, 100),
        QueueTimeOutURL: r.for === 'payout' ? urls.payoutTimeout : urls.b2cTimeout,
        ResultURL: r.for === 'payout' ? urls.payoutResult : urls.b2cResult,
        Occasion: r.originatorConversationId,
      });
    },

    transactionStatus(r) {
      return acknowledged('/mpesa/transactionstatus/v1/query', {
        Initiator: r.initiator.name,
        SecurityCredential: r.initiator.securityCredential,
        CommandID: 'TransactionStatusQuery',
        // The receipt when M-Pesa gave one, else the request's own id (OriginalConversationID).
        ...(r.transactionId ? { TransactionID: r.transactionId } : { OriginalConversationID: r.originatorConversationId }),
        PartyA: api.shortcode,
        IdentifierType: '4',
        ResultURL: r.for === 'payout' ? urls.payoutStatusResult : urls.statusResult,
        QueueTimeOutURL: r.for === 'payout' ? urls.payoutStatusResult : urls.statusResult,
        Remarks: r.for === 'payout' ? 'Payout status' : 'Refund status',
        Occasion: r.originatorConversationId,
      });
    },

    async createStandingOrder(r) {
      const body = await post<{ ResponseHeader?: { responseRefID?: string; responseCode?: string | number; responseDescription?: string; ResultDesc?: string } }>(
        '/standingorder/v1/createStandingOrderExternal',
        {
          StandingOrderName: r.name,
          StartDate: r.startDate.replace(/-/g, ''),
          EndDate: r.endDate.replace(/-/g, ''),
          BusinessShortCode: api.shortcode,
          TransactionType: 'Standing Order Customer Pay Bill',
          ReceiverPartyIdentifierType: '4',
          Amount: String(Math.ceil(r.amountKes)),
          PartyA: r.phone,
          CallBackURL: urls.ratiba,
          AccountReference: r.accountReference.slice(0, 12),
          TransactionDesc: 'Tips renewal',
          Frequency: r.frequency,
        },
      );
      const header = body.ResponseHeader ?? {};
      if (String(header.responseCode ?? '') !== '200' || !header.responseRefID) {
        throw new DarajaError(header.responseDescription ?? header.ResultDesc ?? 'M-Pesa Ratiba refused the standing order', String(header.responseCode ?? '') || null);
      }
      return { responseRefId: header.responseRefID, responseDescription: header.responseDescription ?? '' };
    },

    async registerPull(nominatedNumber) {
      const body = await post<Record<string, unknown>>('/pulltransactions/v1/register', {
        ShortCode: api.shortcode,
        RequestType: 'Pull',
        NominatedNumber: nominatedNumber,
        CallBackURL: urls.pull,
      });
      // Daraja spells these with a space: "Response Status" 1000 registered, 1001 already registered.
      const code = String(body['Response Status'] ?? body.ResponseCode ?? '');
      const description = String(body['Response Description'] ?? body.ResponseDescription ?? body.ResponseMessage ?? '');
      if (code !== '1000' && code !== '1001') throw new DarajaError(description || 'Daraja refused the Pull registration', code || null);
      return { responseDescription: description, callbackUrl: urls.pull };
    },

    async pullTransactions(from, to, offset) {
      const body = await post<{ ResponseCode?: string | number; ResponseMessage?: string; Response?: unknown }>(
        '/pulltransactions/v1/query',
        { ShortCode: api.shortcode, StartDate: pullTime(from), EndDate: pullTime(to), OffSetValue: String(offset) },
      );
      const code = String(body.ResponseCode ?? '');
      if (code === '1001') return { transactions: [], responseCode: code };
      // Failures come back with HTTP 200 and another ResponseCode (e.g. 500).
      if (code !== '1000') throw new DarajaError(body.ResponseMessage ?? 'Pull Transactions failed', code || null);
      return { transactions: pulledRows(body.Response), responseCode: code };
    },

    async stkQuery(checkoutRequestId) {
      const timestamp = darajaTimestamp();
      try {
        const body = await post<{ ResultCode?: string | number; ResultDesc?: string }>('/mpesa/stkpushquery/v1/query', {
          BusinessShortCode: api.shortcode,
          Password: stkPassword(timestamp),
          Timestamp: timestamp,
          CheckoutRequestID: checkoutRequestId,
        });
        return {
          resultCode: body.ResultCode === undefined ? null : String(body.ResultCode),
          resultDesc: body.ResultDesc ?? '',
        };
      } catch (error) {
        // "The transaction is being processed" comes back as an error body: not settled yet.
        if (error instanceof DarajaError && error.code === '500.001.1001') {
          return { resultCode: null, resultDesc: error.message };
        }
        throw error;
      }
    },
  };
}

const clients = new WeakMap<DarajaApi, DarajaClient>();

/**
 * The process's Daraja client for this configuration (one token cache per process), or null when
 * M-Pesa is not configured: then nothing is ever called.
 */
export function darajaFor(mpesa: MpesaConfig, webhookSecret: string): DarajaClient | null {
  if (!mpesa.api) return null;
  let client = clients.get(mpesa.api);
  if (!client) {
    client = createDarajaClient(mpesa.api, webhookSecret);
    clients.set(mpesa.api, client);
  }
  return client;
}
