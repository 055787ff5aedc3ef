import type { FastifyBaseLogger } from 'fastify';
import { kesToCents } from '@betdesk/contract';
import { DND_CAUSE, type OutgoingSms, type SendOutcome, type SmsBalance, type SmsGateway } from './gateway.ts';

export interface AfricasTalkingOptions {
  username: string;
  apiKey: string;
  /** Alphanumeric sender id or short code; the account's default when absent. */
  senderId?: string | undefined;
  /** Sender id of promotional messages; `senderId` when absent. */
  promoSenderId?: string | undefined;
  /** https://api.africastalking.com, the sandbox, or a local fake. */
  baseUrl: string;
  /** How long one request may take before its outcome is treated as unknown. */
  timeoutMs?: number;
  logger: FastifyBaseLogger;
}

/**
 * Per-recipient status codes (INTEGRATIONS.md): accepted, worth trying again later, or final.
 * 405 InsufficientBalance clears with a top-up and 500/501 are Africa's Talking's own errors: retried.
 * 401 RiskHold (held by Africa's Talking's fraud checks) and 502 RejectedByGateway (the operator
 * refused it) do not clear by sending the same text again: final, resendable by hand (decision 013).
 */
const ACCEPTED = new Set([100, 101, 102]);
const TRANSIENT = new Set([405, 500, 501]);

/**
 * 409 DoNotDisturbRejection: the subscriber turned on Do Not Disturb with their network, which
 * refuses promotional traffic to them. Final for that recipient whatever the retry window (DND_CAUSE).
 */
const isDoNotDisturb = (code: number, status: string) => code === 409 || /do\s*not\s*disturb/i.test(status);

/**
 * A whole call refused with a cause (HTTP 401, or 201 with `SMSMessageData.Message` naming it and
 * no recipients). Causes only a person can fix (the sender id, the username or API key) fail the
 * batch at once, so the log and the admin banner say so; an empty balance is retried.
 */
export function wholeCallCause(text: string, senderId: string | undefined): { cause: string; final: boolean; reason: string } | null {
  if (/InvalidSenderId|invalid sender/i.test(text)) {
    return {
      cause: 'InvalidSenderId',
      final: true,
      reason: `Africa's Talking refused the sender id ${senderId ? `"${senderId}"` : '(account default)'} (InvalidSenderId)`,
    };
  }
  if (/insufficient\s*balance|InsufficientCredit/i.test(text)) {
    return { cause: 'InsufficientBalance', final: false, reason: "Africa's Talking balance is empty (InsufficientBalance)" };
  }
  if (/invalid\s*user\s*name|user\s*name\s+is\s+invalid|authentication is invalid|invalid\s*api\s*key|unauthori[sz]ed/i.test(text)) {
    return { cause: 'InvalidCredentials', final: true, reason: "Africa's Talking refused the username or API key" };
  }
  if (/RiskHold/i.test(text)) return { cause: 'RiskHold', final: true, reason: "Africa's Talking held the messages (RiskHold)" };
  return null;
}

/** Errors raised before a request left this machine: it certainly did not reach the gateway. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH']);

interface AtRecipient {
  statusCode?: number | string;
  number?: string;
  status?: string;
  cost?: string;
  messageId?: string;
  messageParts?: number | string;
}

/**
 * Africa's Talking bulk SMS (POST /version1/messaging, form-encoded). One request carries one text
 * to many recipients; each recipient's status code decides that message's fate.
 */
export function africasTalkingGateway(options: AfricasTalkingOptions): SmsGateway {
  const base = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 30_000;
  const headers = { apiKey: options.apiKey, Accept: 'application/json' };

  async function sendOneText(body: string, batch: OutgoingSms[]): Promise<SendOutcome[]> {
    const form = new URLSearchParams({
      username: options.username,
      to: batch.map((sms) => `+${sms.recipient}`).join(','),
      message: body,
      bulkSMSMode: '1',
    });
    const from = batch[0]?.promotional ? (options.promoSenderId ?? options.senderId) : options.senderId;
    if (from) form.set('from', from);
    if (batch.length > 1) form.set('enqueue', '1');
    const all = (outcome: { status: 'retry' | 'unconfirmed' | 'failed'; reason: string; cause?: string }): SendOutcome[] =>
      batch.map((sms) => ({ id: sms.id, ...outcome }) as SendOutcome);
    // Refused before accepting anything: another provider may carry the batch (decision 062).
    const refused = (found: { cause: string; final: boolean; reason: string }): SendOutcome[] =>
      batch.map((sms) => ({
        id: sms.id,
        status: found.final ? 'failed' : 'retry',
        reason: found.reason,
        cause: found.cause,
        refused: { opensCircuit: true },
      }));

    let response: Response;
    try {
      response = await fetch(`${base}/version1/messaging`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: form,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const code = errorCode(error);
      if (code && NOT_SENT_CODES.has(code)) {
        options.logger.warn({ code }, "Africa's Talking could not be reached");
        return batch.map((sms) => ({ id: sms.id, status: 'retry', reason: `Gateway unreachable (${code})`, refused: { opensCircuit: false } }));
      }
      options.logger.error({ code, recipients: batch.length }, "Africa's Talking request ended without an answer");
      return all({ status: 'unconfirmed', reason: `No answer from the gateway (${code ?? 'connection lost'})` });
    }

    if (response.status === 401) {
      const text = (await response.text().catch(() => '')).slice(0, 200);
      const found = wholeCallCause(text, from) ?? wholeCallCause('authentication is invalid', from)!;
      options.logger.error({ cause: found.cause }, "Africa's Talking refused the whole request (401)");
      return refused({ ...found, reason: `${found.reason} (HTTP 401)` });
    }
    if (response.status !== 200 && response.status !== 201) {
      const text = (await response.text().catch(() => '')).slice(0, 200);
      options.logger.warn({ status: response.status, text }, "Africa's Talking answered with an error");
      const found = wholeCallCause(text, from);
      if (found) return refused(found);
      return batch.map((sms) => ({
        id: sms.id,
        status: 'retry',
        reason: `Gateway error (HTTP ${response.status})`,
        cause: `HTTP ${response.status}`,
        refused: { opensCircuit: false },
      }));
    }

    const payload = (await response.json().catch(() => null)) as {
      SMSMessageData?: { Message?: string; Recipients?: AtRecipient[] };
    } | null;
    const recipients = payload?.SMSMessageData?.Recipients;
    const message = String(payload?.SMSMessageData?.Message ?? '').slice(0, 200);
    if (!Array.isArray(recipients) || recipients.length === 0) {
      // Nobody was taken: the Message says why (e.g. "InvalidSenderId").
      const found = wholeCallCause(message, from);
      if (found) {
        options.logger.error({ cause: found.cause }, "Africa's Talking refused the whole request");
        return refused(found);
      }
      if (Array.isArray(recipients) && message) {
        return all({ status: 'failed', reason: `Africa's Talking sent none: "${message}"`, cause: message.replace(/\s+/g, '').slice(0, 40) });
      }
      return all({ status: 'unconfirmed', reason: `Gateway answer without recipients${message ? `: "${message}"` : ''}` });
    }
    const byNumber = new Map(recipients.map((r) => [String(r.number ?? '').replace(/^\+/, ''), r]));
    return batch.map((sms) => {
      const r = byNumber.get(sms.recipient);
      if (!r) return { id: sms.id, status: 'unconfirmed', reason: 'The gateway did not report on this number' };
      return recipientOutcome(sms.id, r);
    });
  }

  return {
    name: 'africastalking',
    carriesPromotional: true,
    async send(batch) {
      const outcomes: SendOutcome[] = [];
      for (const [body, group] of requestsOf(batch)) outcomes.push(...(await sendOneText(body, group)));
      return outcomes;
    },
    async balance() {
      try {
        const url = `${base}/version1/user?username=${encodeURIComponent(options.username)}`;
        const response = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
        if (!response.ok) {
          options.logger.warn({ status: response.status }, "Africa's Talking balance request failed");
          return null;
        }
        const payload = (await response.json()) as { UserData?: { balance?: string } };
        return parseAmount(payload.UserData?.balance);
      } catch (error) {
        options.logger.warn({ code: errorCode(error) }, "Africa's Talking balance request failed");
        return null;
      }
    },
  };
}

function recipientOutcome(id: number, r: AtRecipient): SendOutcome {
  const code = Number(r.statusCode);
  const status = r.status ?? `Status ${r.statusCode ?? 'unknown'}`;
  const messageId = r.messageId && r.messageId !== 'None' ? r.messageId : null;
  if (ACCEPTED.has(code) || (!Number.isFinite(code) && messageId)) {
    const cost = parseAmount(r.cost);
    const parts = Number(r.messageParts);
    return {
      id,
      status: 'sent',
      providerMessageId: messageId ?? '',
      costCents: cost ? kesToCents(cost.amount) : null,
      ...(Number.isInteger(parts) && parts > 0 ? { parts } : {}),
      providerStatus: status,
    };
  }
  if (isDoNotDisturb(code, status)) {
    return { id, status: 'failed', reason: `${DND_CAUSE}: the subscriber's Do Not Disturb setting refused it`, providerStatus: status, cause: DND_CAUSE };
  }
  if (TRANSIENT.has(code)) return { id, status: 'retry', reason: status, cause: status };
  return { id, status: 'failed', reason: status, providerStatus: status, cause: status };
}

/**
 * Splits a batch into requests: one per distinct text, and never the same number twice in one
 * request (its answer is keyed by number).
 */
function requestsOf(batch: OutgoingSms[]): [string, OutgoingSms[]][] {
  const requests: { body: string; numbers: Set<string>; group: OutgoingSms[] }[] = [];
  const byBody = new Map<string, typeof requests>();
  for (const sms of batch) {
    // One request has one sender: promotional messages (their own sender id) never share it.
    const key = `${sms.promotional ? 'promotional' : 'other'}:${sms.body}`;
    const sameText = byBody.get(key) ?? [];
    byBody.set(key, sameText);
    let open = sameText.find((r) => !r.numbers.has(sms.recipient));
    if (!open) {
      open = { body: sms.body, numbers: new Set(), group: [] };
      sameText.push(open);
      requests.push(open);
    }
    open.numbers.add(sms.recipient);
    open.group.push(sms);
  }
  return requests.map((r) => [r.body, r.group]);
}

/** "KES 1785.50" -> { amount: 1785.5, currency: 'KES' }. */
export function parseAmount(text: string | undefined): SmsBalance | null {
  const match = /^\s*([A-Z]{3})\s+(-?[\d,]+(?:\.\d+)?)\s*$/.exec(text ?? '');
  if (!match) return null;
  return { currency: match[1]!, amount: Number(match[2]!.replace(/,/g, '')) };
}

function errorCode(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const cause = (error as Error & { cause?: { code?: string } }).cause;
  if (cause?.code) return cause.code;
  return error.name === 'TimeoutError' || error.name === 'AbortError' ? 'timeout' : undefined;
}
