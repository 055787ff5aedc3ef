import type { FastifyBaseLogger } from 'fastify';
import type { OutgoingSms, PulledReport, SendOutcome, SmsBalance, SmsGateway } from './gateway.ts';

export interface AdvantaOptions {
  /** https://quicksms.advantasms.com (or Celcom Africa's, TextSMS', Roamtech's host), or a local fake. */
  baseUrl: string;
  apiKey: string;
  partnerId: string;
  /** Sender id (`shortcode`) of transactional and service texts, registered with this provider. */
  senderId: string;
  /** Sender id of promotional texts; without one, promotional texts never go through this provider. */
  promoSenderId?: string | undefined;
  timeoutMs?: number;
  logger: FastifyBaseLogger;
}

/**
 * Response codes of the Advanta family's API (INTEGRATIONS.md). A whole call answered with one of
 * these took nothing: credentials, balance and sender id need a person (the circuit opens at once);
 * 4090 and the system errors clear by themselves (counted towards the circuit).
 */
const CALL_REFUSALS: Record<number, { cause: string; reason: string; opensCircuit: boolean }> = {
  1001: { cause: 'InvalidSenderId', reason: 'Advanta refused the sender id (1001)', opensCircuit: true },
  1004: { cause: 'LowBalance', reason: 'Advanta bulk credit is too low (1004)', opensCircuit: true },
  1006: { cause: 'InvalidCredentials', reason: 'Advanta refused the API key or partner id (1006)', opensCircuit: true },
  4091: { cause: 'InvalidCredentials', reason: 'Advanta: no partner id set (4091)', opensCircuit: true },
  4092: { cause: 'InvalidCredentials', reason: 'Advanta: no API key given (4092)', opensCircuit: true },
  1005: { cause: 'SystemError', reason: 'Advanta system error (1005)', opensCircuit: false },
  1007: { cause: 'SystemError', reason: 'Advanta system error (1007)', opensCircuit: false },
  4090: { cause: 'InternalError', reason: 'Advanta internal error, try again after 5 minutes (4090)', opensCircuit: false },
};

/** Errors raised before a request left this machine: it certainly did not reach the provider. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH']);

/** At most this many messages in one sendbulk request (the API's limit). */
const BULK_LIMIT = 1000;

interface AdvantaResponse {
  'response-code'?: number | string;
  'response-description'?: string;
  mobile?: string | number;
  messageid?: string | number;
  clientsmsid?: string | number;
  networkid?: string | number;
}

/**
 * The Advanta family (Advanta, Celcom Africa, TextSMS, Roamtech: one API, decision 062): POST
 * /api/services/sendbulk with one `clientsmsid` per message (our outbox id), so each answer is
 * matched to its message whatever the order; GET-able /getbalance and /getdlr with apikey and
 * partnerID.
 */
export function advantaGateway(options: AdvantaOptions): SmsGateway {
  const base = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 30_000;
  const credentials = { apikey: options.apiKey, partnerID: options.partnerId };

  async function post(path: string, body: unknown): Promise<Response> {
    return fetch(`${base}/api/services/${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  }

  async function sendChunk(batch: OutgoingSms[]): Promise<SendOutcome[]> {
    const smslist = batch.map((sms) => ({
      ...credentials,
      pass_type: 'plain',
      clientsmsid: sms.id,
      mobile: sms.recipient,
      message: sms.body,
      shortcode: sms.promotional ? (options.promoSenderId ?? options.senderId) : options.senderId,
    }));
    const refused = (reason: string, opensCircuit: boolean, cause?: string): SendOutcome[] =>
      batch.map((sms) => ({ id: sms.id, status: 'retry', reason, ...(cause ? { cause } : {}), refused: { opensCircuit } }));

    let response: Response;
    try {
      response = await post('sendbulk', { count: smslist.length, smslist });
    } catch (error) {
      const code = errorCode(error);
      if (code && NOT_SENT_CODES.has(code)) {
        options.logger.warn({ code }, 'Advanta could not be reached');
        return refused(`Advanta unreachable (${code})`, false);
      }
      options.logger.error({ code, recipients: batch.length }, 'Advanta request ended without an answer');
      return batch.map((sms) => ({ id: sms.id, status: 'unconfirmed', reason: `No answer from Advanta (${code ?? 'connection lost'})` }));
    }
    const payload = (await response.json().catch(() => null)) as (AdvantaResponse & { responses?: AdvantaResponse[] }) | null;
    if (!response.ok && !payload) return refused(`Advanta error (HTTP ${response.status})`, false, `HTTP ${response.status}`);
    const responses = payload?.responses;
    if (!Array.isArray(responses)) {
      const code = Number(payload?.['response-code']);
      const known = CALL_REFUSALS[code];
      if (known) return refused(known.reason, known.opensCircuit, known.cause);
      if (response.status >= 400) return refused(`Advanta error (HTTP ${response.status})`, false, `HTTP ${response.status}`);
      return batch.map((sms) => ({ id: sms.id, status: 'unconfirmed', reason: `Advanta answered without responses (${code || 'no code'})` }));
    }
    const byClientId = new Map(responses.map((r) => [String(r.clientsmsid ?? ''), r]));
    return batch.map((sms): SendOutcome => {
      const r = byClientId.get(String(sms.id));
      if (!r) return { id: sms.id, status: 'unconfirmed', reason: 'Advanta did not report on this message' };
      const code = Number(r['response-code']);
      const description = String(r['response-description'] ?? `Code ${code}`);
      if (code === 200 && r.messageid != null) {
        return { id: sms.id, status: 'sent', providerMessageId: String(r.messageid), costCents: null, providerStatus: description };
      }
      const known = CALL_REFUSALS[code];
      if (known) return { id: sms.id, status: 'retry', reason: known.reason, cause: known.cause, refused: { opensCircuit: known.opensCircuit } };
      // 1002 network not allowed, 1003 invalid mobile number: final for this recipient.
      const cause = code === 1003 ? 'InvalidPhoneNumber' : code === 1002 ? 'NetworkNotAllowed' : description.replace(/\s+/g, '');
      return { id: sms.id, status: 'failed', reason: `${description} (${code})`, providerStatus: description, cause: cause.slice(0, 40) };
    });
  }

  return {
    name: 'advanta',
    carriesPromotional: Boolean(options.promoSenderId),
    async send(batch) {
      const outcomes: SendOutcome[] = [];
      for (let i = 0; i < batch.length; i += BULK_LIMIT) outcomes.push(...(await sendChunk(batch.slice(i, i + BULK_LIMIT))));
      return outcomes;
    },
    async balance(): Promise<SmsBalance | null> {
      try {
        const response = await post('getbalance', credentials);
        const payload = (await response.json().catch(() => null)) as { 'response-code'?: number; credit?: string } | null;
        if (Number(payload?.['response-code']) !== 200) {
          options.logger.warn({ code: payload?.['response-code'] }, 'Advanta balance request refused');
          return null;
        }
        const amount = Number(String(payload?.credit ?? '').replace(/,/g, ''));
        return Number.isFinite(amount) ? { amount, currency: 'KES' } : null;
      } catch (error) {
        options.logger.warn({ code: errorCode(error) }, 'Advanta balance request failed');
        return null;
      }
    },
    async deliveryReport(providerMessageId: string): Promise<PulledReport | null> {
      const response = await post('getdlr', { ...credentials, messageID: providerMessageId });
      const payload = (await response.json().catch(() => null)) as { 'response-code'?: number; 'delivery-description'?: string } | null;
      if (Number(payload?.['response-code']) !== 200 || !payload?.['delivery-description']) return null;
      return { status: payload['delivery-description'] };
    },
  };
}

/**
 * Advanta's delivery descriptions (INTEGRATIONS.md): DeliveredToTerminal is delivered;
 * SentToNetwork and Scheduled are on the way; AbsentSubscriber, DeliveryImpossible, Unknown and
 * SenderName Blacklisted are final failures.
 */
export function advantaOutcomeOf(description: string): 'delivered' | 'failed' | 'in-progress' {
  const word = description.replace(/\s+/g, '').toLowerCase();
  if (word === 'deliveredtoterminal' || word === 'delivered') return 'delivered';
  if (word === 'senttonetwork' || word === 'scheduled' || word === 'pending' || word === 'submitted') return 'in-progress';
  return 'failed';
}

/** A per-recipient refusal that means the phone wants none of our messages (opted out like a STOP). */
export const isBlacklistedSender = (description: string): boolean => /sender\s*name\s*blacklisted/i.test(description);

function errorCode(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const cause = (error as Error & { cause?: { code?: string } }).cause;
  if (cause?.code) return cause.code;
  return error.name === 'TimeoutError' || error.name === 'AbortError' ? 'timeout' : undefined;
}
