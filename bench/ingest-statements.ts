/**
 * DATABASE_URL=... node --import tsx bench/ingest-statements.ts: the statements one C2B confirmation
 * runs, counted on the driver (every pg query of the API's pool and of its job queue's: the nudges
 * after the commit, which a confirmation alone sends at once), for a tips package bought from a
 * known subscriber's phone (the common case) and for a payment nobody matches. Run against a bench
 * database (npm run bench:generate). Prints each statement's first words, so that a change to the
 * ingestion path can say how many round trips it saved (decisions 044-051).
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import { bootApi, WEBHOOK_SECRET } from './run.ts';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL must name a bench database');

const seen: string[] = [];
const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function counted(this: pg.Client, ...args: unknown[]) {
  const first = args[0] as string | { text?: string; name?: string };
  const text = typeof first === 'string' ? first : (first?.text ?? first?.name ?? '?');
  seen.push(text.replace(/\s+/g, ' ').trim().slice(0, Number(process.env.STATEMENT_CHARS ?? 110)));
  return query.apply(this, args);
} as typeof pg.Client.prototype.query;

const api = await bootApi(url, { jobs: 'send' });
const sql = new pg.Client({ connectionString: url });
await sql.connect();
const { rows } = await sql.query<{ phone: string; code: string; price: string }>(
  `select s.phone, c.code, p.price_cents as price from tips_subscribers s, price_packages p join bet_categories c on c.id = p.bet_category_id
    where p.medium = 'sms' order by s.id, p.id limit 1`,
);
const facts = rows[0]!;
const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const confirmation = (receipt: string, account: string, amountCents: number, phone: string) => ({
  TransactionType: 'Pay Bill', TransID: receipt, TransTime: '20261127100000', TransAmount: (amountCents / 100).toFixed(2),
  BusinessShortCode: '600984', BillRefNumber: account, InvoiceNumber: '', OrgAccountBalance: '', ThirdPartyTransID: '',
  MSISDN: sha(phone), FirstName: 'COUNT', MiddleName: '', LastName: 'PAYER',
});
async function count(label: string, body: object) {
  seen.length = 0;
  const answer = await fetch(`${api.base}/api/hooks/c2b/confirmation/${WEBHOOK_SECRET}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  console.log(`\n${label}: HTTP ${answer.status}, ${seen.length} statements`);
  seen.forEach((s, i) => console.log(`${String(i + 1).padStart(3)} ${s}`));
}
const run = Date.now().toString(36).toUpperCase().slice(-6);
await count('a tips package bought from a subscriber\'s phone', confirmation(`Q${run}A01`, facts.code, Number(facts.price), facts.phone));
// KES 50 less than any package: kept as credit, the payer told so with the category's prices.
await count('a tips deposit that buys nothing (credit)', confirmation(`Q${run}C01`, facts.code, 5000 - 1, facts.phone));
await count('a payment nobody matches', confirmation(`Q${run}B01`, 'NOBODY', 13700, '254799000001'));
await sql.end();
await api.close();
