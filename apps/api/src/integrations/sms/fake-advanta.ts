import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { smsParts } from '@betdesk/contract';

/**
 * A local stand-in for the Advanta family's API (INTEGRATIONS.md): POST /api/services/sendbulk
 * (`count`, `smslist` with `clientsmsid`), /getbalance and /getdlr (GET or POST, `apikey`,
 * `partnerID`), their response codes (1006 invalid credentials, 1004 low bulk credits, 4090 ...),
 * delivery reports pushed to a callback URL or pulled. Used by the tests and the demo
 * (SMS_FAILOVER_PROVIDER=advanta-fake).
 */
export interface FakeAdvantaOptions {
  apiKey?: string;
  partnerId?: string;
  creditKes?: number;
  costPerPartKes?: number;
  /** Every accepted message's getdlr answers DeliveredToTerminal (the demo). */
  autoDeliver?: boolean;
}

export interface FakeAdvantaAccepted {
  messageId: string;
  clientSmsId: number;
  mobile: string;
  message: string;
  shortcode: string;
}

export interface FakeAdvanta {
  url: string;
  apiKey: string;
  partnerId: string;
  creditKes: number;
  accepted: FakeAdvantaAccepted[];
  /** sendbulk requests received (answered or held). */
  calls: number;
  /** Sender ids registered; a message from another is answered 1001. Empty: any goes. */
  shortcodes: string[];
  /** The next `times` sendbulk calls are answered with this whole-call code (1006, 1004, 4090 ...). */
  refuseNextCalls(code: number, times?: number): void;
  /** Sendbulk calls are never answered while set (the client times out after hand-over). */
  hold: boolean;
  /** Called with each sendbulk call's number (from 1) and its mobiles; 'hold' never answers it. */
  onCall: ((seq: number, mobiles: string[]) => 'hold' | void) | null;
  /** The mobiles of calls held unanswered. */
  heldMobiles: string[];
  /** Delivery descriptions getdlr answers (and `push` sends) by message id. */
  dlrs: Map<string, string>;
  /** Posts a delivery report to the callback as Advanta does (JSON). */
  push(callbackUrl: string, messageId: string, description: string): Promise<number>;
  close(): Promise<void>;
}

const DESCRIPTIONS: Record<number, string> = {
  1001: 'Invalid sender id',
  1004: 'Low bulk credits',
  1006: 'Invalid credentials',
  4090: 'Internal Error. Try again after 5 minutes',
};

export async function startFakeAdvanta(options: FakeAdvantaOptions = {}): Promise<FakeAdvanta> {
  const refusals: number[] = [];
  const held = new Set<ServerResponse>();
  let nextId = 1_000_000;
  const fake: FakeAdvanta = {
    url: '',
    apiKey: options.apiKey ?? 'fake-advanta-key',
    partnerId: options.partnerId ?? '9999',
    creditKes: options.creditKes ?? 1000,
    accepted: [],
    calls: 0,
    shortcodes: [],
    refuseNextCalls(code, times = 1) {
      for (let i = 0; i < times; i += 1) refusals.push(code);
    },
    hold: false,
    onCall: null,
    heldMobiles: [],
    dlrs: new Map(),
    async push(callbackUrl, messageId, description) {
      const response = await fetch(callbackUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ description, messageid: messageId, timeTaken: '22s', timestamp: new Date().toISOString().replace('T', ' ').slice(0, 19) }),
      });
      return response.status;
    },
    async close() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const costPerPart = options.costPerPartKes ?? 0.6;
  const authorised = (b: Record<string, unknown>) => b.apikey === fake.apiKey && String(b.partnerID) === fake.partnerId;
  const codeAnswer = (res: ServerResponse, code: number) =>
    send(res, 200, { 'response-code': code, 'response-description': DESCRIPTIONS[code] ?? 'Failed' });

  function sendbulk(res: ServerResponse, body: { smslist?: Record<string, unknown>[] }): void {
    fake.calls += 1;
    const list = Array.isArray(body.smslist) ? body.smslist : [];
    if (fake.hold || fake.onCall?.(fake.calls, list.map((m) => String(m.mobile ?? ''))) === 'hold') {
      fake.heldMobiles.push(...list.map((m) => String(m.mobile ?? '')));
      held.add(res);
      return;
    }
    if (list.length === 0 || !authorised(list[0]!)) return codeAnswer(res, 1006);
    if (list.length > 1000) return codeAnswer(res, 1012);
    const refusal = refusals.shift();
    if (refusal) return codeAnswer(res, refusal);
    const responses = list.map((m) => {
      const mobile = String(m.mobile ?? '');
      const base = { mobile, clientsmsid: m.clientsmsid, networkid: 1 };
      if (!/^254[17]\d{8}$/.test(mobile)) return { ...base, 'response-code': 1003, 'response-description': 'Invalid mobile number' };
      if (fake.shortcodes.length > 0 && !fake.shortcodes.includes(String(m.shortcode))) {
        return { ...base, 'response-code': 1001, 'response-description': 'Invalid sender id' };
      }
      const cost = smsParts(String(m.message ?? '')) * costPerPart;
      if (fake.creditKes < cost) return { ...base, 'response-code': 1004, 'response-description': 'Low bulk credits' };
      fake.creditKes -= cost;
      nextId += 1;
      const messageId = String(nextId);
      if (options.autoDeliver) fake.dlrs.set(messageId, 'DeliveredToTerminal');
      fake.accepted.push({ messageId, clientSmsId: Number(m.clientsmsid), mobile, message: String(m.message), shortcode: String(m.shortcode) });
      return { ...base, 'response-code': 200, 'response-description': 'Success', messageid: messageId };
    });
    send(res, 200, { responses });
  }

  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      let body: Record<string, unknown> = Object.fromEntries(url.searchParams);
      if (req.method === 'POST') {
        try {
          body = { ...body, ...(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>) };
        } catch {
          return codeAnswer(res, 1009);
        }
      }
      switch (url.pathname) {
        case '/api/services/sendbulk':
          return sendbulk(res, body);
        case '/api/services/getbalance':
          if (!authorised(body)) return codeAnswer(res, 1006);
          return send(res, 200, { 'response-code': 200, credit: fake.creditKes.toFixed(2), 'partner-id': fake.partnerId });
        case '/api/services/getdlr': {
          if (!authorised(body)) return codeAnswer(res, 1006);
          const description = fake.dlrs.get(String(body.messageID ?? ''));
          if (!description) return send(res, 200, { 'response-code': 1009, 'response-description': 'No dlr' });
          return send(res, 200, {
            'response-code': 200,
            'message-id': String(body.messageID),
            'response-description': 'Success',
            'delivery-status': description === 'DeliveredToTerminal' ? 32 : 0,
            'delivery-description': description,
            'delivery-tat': '00:00:22',
            'delivery-networkid': 1,
            'delivery-time': new Date().toISOString().replace('T', ' ').slice(0, 19),
          });
        }
        default:
          return send(res, 404, { 'response-code': 1010, 'response-description': 'Unsupported request type' });
      }
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

let shared: Promise<FakeAdvanta> | null = null;
/** One fake per process for the demo (SMS_FAILOVER_PROVIDER=advanta-fake): every message is delivered. */
export function sharedFakeAdvanta(): Promise<FakeAdvanta> {
  shared ??= startFakeAdvanta({ creditKes: 100_000, autoDeliver: true });
  return shared;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}
