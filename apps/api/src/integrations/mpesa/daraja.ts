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

export interface DarajaClient {
  registerUrls(): Promise<{ responseDescription: string; confirmationUrl: string; validationUrl: string }>;
  stkPush(request: StkPushRequest): Promise<StkPushAnswer>;
  stkQuery(checkoutRequestId: string): Promise<StkQueryAnswer>;
}

/** Callback URLs under the secret segment; Daraja refuses URLs naming M-Pesa, so the paths avoid it. */
export function webhookUrls(callbackBaseUrl: string, secret: string) {
  return {
    validation: `${callbackBaseUrl}/api/hooks/c2b/validation/${secret}`,
    confirmation: `${callbackBaseUrl}/api/hooks/c2b/confirmation/${secret}`,
    stk: `${callbackBaseUrl}/api/hooks/stk/${secret}`,
  };
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
        Amount: request.amountKes,
        PartyA: request.phone,
        PartyB: api.shortcode,
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
