import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { oscuDateTime } from './oscu.ts';
import { kesToCents } from '@betdesk/contract';

/**
 * A local OSCU that answers like KRA's sandbox (development, tests, ETIMS_FAKE=1): device
 * initialisation hands out a communication key; items and sales need it; a sale whose invoice
 * number KRA already holds is answered 994; totals that are not the sum of the lines, or a line whose
 * price, discount and taxable amount do not relate (lineAddsUp), are refused.
 */
export interface FakeOscu {
  baseUrl: string;
  /** Sales KRA holds, by `tin/branch/invoice number`. */
  sales: Map<string, Record<string, unknown>>;
  /** How many saveTrnsSalesOsdc requests arrived (resends included). */
  salesRequests: number;
  items: Map<string, Record<string, unknown>>;
  /** Unreachable: every connection is cut before an answer. */
  down: boolean;
  /** The next sales are stored, then the connection is cut (a worker that died mid-send sees no answer). */
  dropAfterStoring: number;
  /** Answers for the next sales (e.g. `{ resultCd: '910', resultMsg: 'Request parameter error' }`). */
  nextSaleAnswers: { resultCd: string; resultMsg: string }[];
  cmcKeys: Set<string>;
  /**
   * Taxpayers the customer lookup (selectCustomer) knows, PIN to registered name. A well-formed
   * PIN not listed is known under "TAXPAYER <PIN>", except one whose nine digits are all zero
   * (answered 001, no search result).
   */
  taxpayers: Map<string, string>;
  close(): Promise<void>;
}

function answer(res: ServerResponse, resultCd: string, resultMsg: string, data: unknown = null) {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ resultCd, resultMsg, resultDt: oscuDateTime(new Date()), data }));
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
}

const cents = (v: unknown) => kesToCents(Number(v));

/**
 * Whether one item line's figures relate as the interface requires (to the cent): supply amount =
 * unit price × quantity; the discount no more than the supply; taxable amount = supply − discount;
 * the line total the taxable amount (prices include tax); the discount rate the discount as a
 * percentage of the supply, to two decimals (0 with no discount).
 */
function lineAddsUp(l: Record<string, unknown>): boolean {
  const supply = cents(l.splyAmt);
  const discount = cents(l.dcAmt ?? 0);
  const rate = Number(l.dcRt ?? 0);
  const rateFits = discount === 0 ? rate === 0 : supply > 0 && Math.abs(rate - (100 * discount) / supply) <= 0.005 + 1e-9;
  return (
    supply === cents(l.prc) * Number(l.qty) &&
    discount >= 0 && discount <= supply &&
    cents(l.taxblAmt) === supply - discount &&
    cents(l.totAmt) === cents(l.taxblAmt) &&
    rateFits
  );
}

/** Whether a sale's figures add up as the interface requires (to the cent). */
function figuresAddUp(sale: Record<string, unknown>): boolean {
  const lines = (sale.itemList as Record<string, unknown>[] | undefined) ?? [];
  if (lines.length === 0 || Number(sale.totItemCnt) !== lines.length) return false;
  const sum = (k: string) => lines.reduce((s, l) => s + cents(l[k]), 0);
  const perType = ['A', 'B', 'C', 'D', 'E'].reduce((s, t) => s + cents(sale[`taxAmt${t}`] ?? 0), 0);
  return (
    sum('totAmt') === cents(sale.totAmt) &&
    sum('taxAmt') === cents(sale.totTaxAmt) &&
    perType === cents(sale.totTaxAmt) &&
    sum('taxblAmt') === cents(sale.totTaxblAmt) &&
    ['A', 'B', 'C', 'D', 'E'].every((t) => lines.filter((l) => l.taxTyCd === t).reduce((s, l) => s + cents(l.taxblAmt), 0) === cents(sale[`taxblAmt${t}`] ?? 0)) &&
    lines.every(lineAddsUp)
  );
}

export async function startFakeOscu(): Promise<FakeOscu> {
  const fake: Omit<FakeOscu, 'baseUrl' | 'close'> = {
    sales: new Map(),
    salesRequests: 0,
    items: new Map(),
    down: false,
    dropAfterStoring: 0,
    nextSaleAnswers: [],
    cmcKeys: new Set(),
    taxpayers: new Map(),
  };
  const server: Server = createServer((req, res) => {
    void (async () => {
      if (fake.down) return req.socket.destroy();
      const body = await readJson(req);
      const operation = (req.url ?? '').split('/').pop();
      const tin = String(req.headers.tin ?? '');
      const branch = String(req.headers.bhfid ?? '');
      if (!tin || !branch) return answer(res, '900', 'There is no Header information');
      if (operation === 'selectInitOsdcInfo') {
        if (!body.dvcSrlNo) return answer(res, '910', 'Request parameter error');
        const cmcKey = randomBytes(16).toString('hex');
        fake.cmcKeys.add(cmcKey);
        return answer(res, '000', 'It is succeeded', {
          info: { tin: body.tin, bhfId: body.bhfId, dvcId: '9999900000000001', sdcId: 'KRACU0100000001', mrcNo: 'WIS00000001', cmcKey },
        });
      }
      if (!fake.cmcKeys.has(String(req.headers.cmckey ?? ''))) return answer(res, '901', 'It is not valid device');
      if (operation === 'selectCustomer') {
        const pin = String(body.custmTin ?? '');
        if (!pin) return answer(res, '910', 'Request parameter error');
        if (/^[AP]0{9}[A-Z]$/.test(pin)) return answer(res, '001', 'There is no search result');
        return answer(res, '000', 'It is succeeded', {
          custList: [{ tin: pin, taxprNm: fake.taxpayers.get(pin) ?? `TAXPAYER ${pin}`, taxprSttsCd: 'A', prvncNm: 'NAIROBI', dstrtNm: 'NAIROBI', sctrNm: null, locDesc: null }],
        });
      }
      if (operation === 'saveItem') {
        fake.items.set(`${tin}/${branch}/${String(body.itemCd)}`, body);
        return answer(res, '000', 'It is succeeded');
      }
      if (operation === 'saveTrnsSalesOsdc') {
        fake.salesRequests += 1;
        const scripted = fake.nextSaleAnswers.shift();
        if (scripted) return answer(res, scripted.resultCd, scripted.resultMsg);
        if (!figuresAddUp(body)) return answer(res, '910', 'Request parameter error');
        const key = `${tin}/${branch}/${String(body.invcNo)}`;
        if (fake.sales.has(key)) return answer(res, '994', 'There is an overlapped Data');
        fake.sales.set(key, body);
        if (fake.dropAfterStoring > 0) {
          fake.dropAfterStoring -= 1;
          return req.socket.destroy();
        }
        const n = fake.sales.size;
        return answer(res, '000', 'It is succeeded', {
          curRcptNo: n,
          totRcptNo: n,
          intrlData: randomBytes(13).toString('hex').toUpperCase(),
          rcptSign: randomBytes(8).toString('hex').toUpperCase(),
          sdcDateTime: oscuDateTime(new Date()),
        });
      }
      return answer(res, '912', 'There is a request Method error');
    })().catch(() => req.socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

let shared: Promise<FakeOscu> | null = null;
/** The process's one fake (ETIMS_FAKE=1), started on first use. */
export function sharedFakeOscu(): Promise<FakeOscu> {
  shared ??= startFakeOscu();
  return shared;
}
