/**
 * KRA eTIMS OSCU (the online sales control unit KRA hosts), as its interface documents it
 * (docs/INTEGRATIONS.md): every call is a POST of JSON to `<base>/<operation>` with the headers
 * tin, bhfId and (after the device initialisation) cmcKey; every answer is
 * `{ resultCd, resultMsg, resultDt, data }`, resultCd '000' meaning success.
 */

export interface OscuDevice {
  baseUrl: string;
  tin: string;
  branchId: string;
  cmcKey?: string | null;
}

export interface OscuAnswer<D = Record<string, unknown>> {
  resultCd: string;
  resultMsg: string;
  resultDt?: string;
  data?: D | null;
}

/** KRA's result codes this product acts on (the rest are rejections, kept with their message). */
export const OSCU_RESULT = {
  ok: '000',
  /** "There is an overlapped Data": KRA already holds this invoice number; it was sent before. */
  duplicate: '994',
} as const;

/** KRA could not be reached or answered something that is not the interface's JSON: try again later. */
export class OscuUnreachable extends Error {}

const TIMEOUT_MS = 15_000;

export async function callOscu<D = Record<string, unknown>>(
  device: OscuDevice,
  operation: 'selectInitOsdcInfo' | 'saveItem' | 'saveTrnsSalesOsdc' | 'selectCustomer',
  body: Record<string, unknown>,
): Promise<OscuAnswer<D>> {
  let res: Response;
  try {
    res = await fetch(`${device.baseUrl}/${operation}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        tin: device.tin,
        bhfId: device.branchId,
        ...(device.cmcKey ? { cmcKey: device.cmcKey } : {}),
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    throw new OscuUnreachable(`KRA unreachable: ${(error as Error).message}`);
  }
  const text = await res.text().catch(() => '');
  let answer: OscuAnswer<D> | null = null;
  try {
    answer = JSON.parse(text) as OscuAnswer<D>;
  } catch {
    answer = null;
  }
  if (!answer || typeof answer.resultCd !== 'string') {
    throw new OscuUnreachable(`KRA answered HTTP ${res.status} without a result code`);
  }
  return answer;
}

/** KRA's date-time text, YYYYMMDDhhmmss, in Nairobi time (the interface's clock). */
export function oscuDateTime(at: Date): string {
  const nairobi = new Date(at.getTime() + 3 * 3_600_000);
  return nairobi.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

/**
 * The invoice's verification link, which its QR code carries: KRA's receipt page with the PIN,
 * branch and receipt signature (the public sandbox or production host, per the base URL).
 */
export function verificationUrl(baseUrl: string, tin: string, branchId: string, signature: string): string {
  const host = /sbx|sandbox|127\.0\.0\.1|localhost/.test(baseUrl) ? 'https://etims-sbx.kra.go.ke' : 'https://etims.kra.go.ke';
  return `${host}/common/link/etims/receipt/indexEtimsReceiptData?Data=${tin}${branchId}${signature}`;
}
