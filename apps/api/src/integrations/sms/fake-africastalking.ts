import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { smsParts } from '@betdesk/contract';

/**
 * A local stand-in for Africa's Talking that speaks its request and response formats
 * (INTEGRATIONS.md): form-encoded POST /version1/messaging answered 201 with `SMSMessageData` and a
 * status code per recipient, GET /version1/user for the balance, 401 for wrong credentials. It keeps
 * a record of what it accepted and can post delivery reports back. Used by the tests and the bench.
 */
export interface FakeAfricasTalkingOptions {
  username?: string;
  apiKey?: string;
  balanceKes?: number;
  /** Price of one part, KES. */
  costPerPartKes?: number;
}

/** One messaging request as the fake received it. */
export interface FakeCall {
  seq: number;
  to: string[];
  message: string;
  from: string | undefined;
  /** HTTP status answered; null while held. */
  answered: number | null;
}

/** One recipient the fake accepted (status 100-102) and would deliver. */
export interface FakeAccepted {
  messageId: string;
  number: string;
  message: string;
}

export type RecipientVerdict = { statusCode: number; status: string };

export interface FakeAfricasTalking {
  url: string;
  calls: FakeCall[];
  accepted: FakeAccepted[];
  balanceKes: number;
  /** The next `times` messaging calls are answered with this whole-call status (401, 500, 503 ...). */
  failNextCalls(status: number, times?: number): void;
  /**
   * The next `times` calls are answered HTTP 201 with this `SMSMessageData.Message` and no
   * recipients, as Africa's Talking refuses a whole call (e.g. "InsufficientBalance").
   */
  refuseNextCalls(message: string, times?: number): void;
  /**
   * Sender ids approved for the account; a call from another one is answered 201 with Message
   * "InvalidSenderId" and no recipients. Empty: any sender id goes.
   */
  senderIds: string[];
  /** Per-number answers, e.g. `+254700000001` -> 406 UserInBlacklist. */
  verdicts: Map<string, RecipientVerdict>;
  /** Called on every messaging request before it is answered; returning 'hold' never answers it. */
  onCall: ((call: FakeCall) => 'hold' | void) | null;
  /** Posts a delivery report, form-encoded as Africa's Talking does, and returns the HTTP status. */
  deliver(
    callbackUrl: string,
    report: { id: string; status: string; phoneNumber?: string; networkCode?: string; failureReason?: string },
  ): Promise<number>;
  /** Posts an incoming message (someone texted the short code), form-encoded as Africa's Talking does. */
  postInbound(
    callbackUrl: string,
    sms: { from: string; text: string; to?: string; id?: string; date?: string; linkId?: string; networkCode?: string },
  ): Promise<number>;
  /** Posts a bulk SMS opt-out notification (the phone opted out of the sender id). */
  postOptOut(callbackUrl: string, notice: { phoneNumber: string; senderId?: string }): Promise<number>;
  close(): Promise<void>;
}

const VALID_NUMBER = /^\+254[17]\d{8}$/;

export async function startFakeAfricasTalking(options: FakeAfricasTalkingOptions = {}): Promise<FakeAfricasTalking> {
  const username = options.username ?? 'sandbox';
  const apiKey = options.apiKey ?? 'fake-api-key';
  const costPerPart = options.costPerPartKes ?? 0.8;
  const failures: number[] = [];
  const refusals: string[] = [];
  const held = new Set<ServerResponse>();

  const fake: FakeAfricasTalking = {
    url: '',
    calls: [],
    accepted: [],
    balanceKes: options.balanceKes ?? 1000,
    failNextCalls(status, times = 1) {
      for (let i = 0; i < times; i += 1) failures.push(status);
    },
    refuseNextCalls(message, times = 1) {
      for (let i = 0; i < times; i += 1) refusals.push(message);
    },
    senderIds: [],
    verdicts: new Map(),
    onCall: null,
    deliver: postForm,
    postInbound(callbackUrl, sms) {
      return postForm(callbackUrl, {
        to: '22384',
        id: `ATin_${randomBytes(8).toString('hex')}`,
        date: new Date().toISOString().replace('T', ' ').slice(0, 19),
        linkId: '',
        networkCode: '63902',
        ...sms,
      });
    },
    postOptOut: postForm,
    async close() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  function authorised(req: IncomingMessage, user: string | null): boolean {
    return req.headers.apikey === apiKey && user === username;
  }

  function messaging(req: IncomingMessage, res: ServerResponse, form: URLSearchParams): void {
    const call: FakeCall = {
      seq: fake.calls.length + 1,
      to: (form.get('to') ?? '').split(',').map((n) => n.trim()).filter(Boolean),
      message: form.get('message') ?? '',
      from: form.get('from') ?? undefined,
      answered: null,
    };
    fake.calls.push(call);
    if (fake.onCall?.(call) === 'hold') {
      held.add(res);
      return;
    }
    const answer = (status: number, body: unknown) => {
      call.answered = status;
      send(res, status, body);
    };
    if (!authorised(req, form.get('username'))) return answer(401, 'The supplied authentication is invalid');
    const failure = failures.shift();
    if (failure) return answer(failure, failure === 401 ? 'The supplied authentication is invalid' : 'Internal Server Error');
    if (call.to.length === 0 || !call.message) return answer(400, 'Missing required parameters');
    const refusal = refusals.shift();
    if (refusal) return answer(201, { SMSMessageData: { Message: refusal, Recipients: [] } });
    if (fake.senderIds.length > 0 && !fake.senderIds.includes(call.from ?? '')) {
      return answer(201, { SMSMessageData: { Message: 'InvalidSenderId', Recipients: [] } });
    }

    const parts = smsParts(call.message);
    let total = 0;
    const recipients = call.to.map((number) => {
      const verdict =
        fake.verdicts.get(number) ??
        (VALID_NUMBER.test(number) ? undefined : { statusCode: 403, status: 'InvalidPhoneNumber' });
      const cost = parts * costPerPart;
      if (!verdict && fake.balanceKes < cost) {
        return { statusCode: 405, number, status: 'InsufficientBalance', cost: '0', messageId: 'None' };
      }
      if (verdict && verdict.statusCode >= 200) {
        return { ...verdict, number, cost: '0', messageId: 'None' };
      }
      fake.balanceKes -= cost;
      total += cost;
      const messageId = `ATXid_${randomBytes(16).toString('hex')}`;
      fake.accepted.push({ messageId, number, message: call.message });
      return {
        statusCode: verdict?.statusCode ?? 101,
        number,
        status: verdict?.status ?? 'Success',
        cost: `KES ${cost.toFixed(4)}`,
        messageId,
        messageParts: parts,
      };
    });
    const sent = recipients.filter((r) => r.messageId !== 'None').length;
    answer(201, {
      SMSMessageData: {
        Message: `Sent to ${sent}/${recipients.length} Total Cost: KES ${total.toFixed(4)}`,
        Recipients: recipients,
      },
    });
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      if (req.method === 'POST' && url.pathname === '/version1/messaging') {
        return messaging(req, res, new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      }
      if (req.method === 'GET' && url.pathname === '/version1/user') {
        if (!authorised(req, url.searchParams.get('username'))) {
          return send(res, 401, 'The supplied authentication is invalid');
        }
        return send(res, 200, { UserData: { balance: `KES ${fake.balanceKes.toFixed(2)}` } });
      }
      send(res, 404, 'Not Found');
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

async function postForm(callbackUrl: string, fields: Record<string, string | undefined>): Promise<number> {
  const form = new URLSearchParams(
    Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  const response = await fetch(callbackUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: form,
  });
  return response.status;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': typeof body === 'string' ? 'text/plain' : 'application/json' });
  res.end(text);
}
