import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../helpers.ts';

export const SECRET = 'test-webhook-secret-0123';

let sessionSeq = 0;
/** A fresh Africa's Talking session id. */
export const newSession = () => `ATUid_test_${Date.now()}_${(sessionSeq += 1)}`;

/** One step of a USSD session, form-encoded as Africa's Talking posts it. */
export function dial(
  t: TestApp,
  step: { text: string; phone?: string; sessionId?: string },
  secret = SECRET,
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: `/api/hooks/ussd/${secret}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      sessionId: step.sessionId ?? newSession(),
      serviceCode: '*384*22#',
      phoneNumber: step.phone ?? '+254711222333',
      networkCode: '63902',
      text: step.text,
    }).toString(),
  });
}

/** The screen a path shows; fails the test on anything but a 200 text/plain CON/END answer. */
export async function screen(t: TestApp, text: string, phone?: string, sessionId?: string): Promise<string> {
  const res = await dial(t, { text, ...(phone ? { phone } : {}), ...(sessionId ? { sessionId } : {}) });
  if (res.statusCode !== 200) throw new Error(`"${text}" answered HTTP ${res.statusCode}: ${res.body}`);
  if (!String(res.headers['content-type']).startsWith('text/plain')) throw new Error(`"${text}" answered ${res.headers['content-type']}`);
  if (!/^(CON|END) /.test(res.body)) throw new Error(`"${text}" answered neither CON nor END: ${res.body}`);
  return res.body;
}
