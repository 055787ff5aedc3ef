import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A signed, short-lived permission to download one backup file: the browser follows it as a plain
 * link (no bearer header), so it downloads natively instead of through a blob in the tab's memory.
 * Signed with a key derived from SECRETS_KEY, so any API process behind the proxy accepts the
 * ticket another one issued.
 */
export const DOWNLOAD_TICKET_SECONDS = 60;

interface TicketClaims {
  /** The backup file's name. */
  n: string;
  /** Who asked for the link (audited on download). */
  u: number;
  /** Expiry, seconds since the epoch. */
  e: number;
}

function signature(secretsKey: Buffer, payload: string): Buffer {
  const key = createHmac('sha256', secretsKey).update('betdesk:backup-download').digest();
  return createHmac('sha256', key).update(payload).digest();
}

export function issueDownloadTicket(
  secretsKey: Buffer,
  name: string,
  userId: number,
  now = Date.now(),
): { ticket: string; expiresAt: Date } {
  const expiresAt = new Date(now + DOWNLOAD_TICKET_SECONDS * 1000);
  const claims: TicketClaims = { n: name, u: userId, e: Math.floor(expiresAt.getTime() / 1000) };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return { ticket: `${payload}.${signature(secretsKey, payload).toString('base64url')}`, expiresAt };
}

/** The file name and user a ticket grants, or null when it is forged, altered or expired. */
export function readDownloadTicket(secretsKey: Buffer, ticket: string, now = Date.now()): { name: string; userId: number } | null {
  const [payload, signed, extra] = ticket.split('.');
  if (!payload || !signed || extra !== undefined) return null;
  const expected = signature(secretsKey, payload);
  const given = Buffer.from(signed, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let claims: TicketClaims | null;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as TicketClaims | null;
  } catch {
    return null;
  }
  if (!claims || typeof claims.n !== 'string' || typeof claims.u !== 'number' || typeof claims.e !== 'number') return null;
  if (claims.e * 1000 < now) return null;
  return { name: claims.n, userId: claims.u };
}
