/**
 * The tax backlog's scale check (decision 035): a day of KRA being down leaves a backlog of invoices queued; when KRA is
 * back, the invoice job drains it. This queues `count` invoices straight in SQL (numbers after the
 * branch's counter, as sales would have taken them), points the device at the fake OSCU, runs the
 * job's own function (transmitDueInvoices, as the worker does) until nothing is due, and reports the
 * rate and this process's peak memory. The fake runs in a process of its own (fake-oscu-process.ts),
 * on the same machine: its CPU is counted, its memory is not.
 */

/** Starts the fake OSCU in a child process; resolves with its address and a stop function. */
async function fakeOscuProcess(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const script = fileURLToPath(new URL('./fake-oscu-process.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  const { baseUrl } = JSON.parse(line) as { baseUrl: string };
  return {
    baseUrl,
    async close() {
      child.stdin.end();
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import type { AppDeps } from '../apps/api/src/deps.ts';
import { transmitDueInvoices } from '../apps/api/src/modules/tax/service.ts';

export interface BacklogResult {
  queued: number;
  /** Of the queued ones, sent. */
  sent: number;
  /** Sent in the same run that were not queued by it (earlier sales awaiting the device). */
  others: number;
  seconds: number;
  perSecond: number;
  rssStartMb: number;
  rssPeakMb: number;
}

type Post = (path: string, body: object) => Promise<{ status: number; body: string }>;

export async function measureTaxBacklog(deps: AppDeps, sql: pg.Client, post: Post, count: number): Promise<BacklogResult> {
  const fake = await fakeOscuProcess();
  try {
    const saved = await post('/api/tax/settings', { tin: 'P051234567X', branch_id: '00', device_serial: 'BENCH-BACKLOG', vat_registered: false, base_url: fake.baseUrl });
    if (saved.status !== 200) throw new Error(`tax settings: ${saved.status} ${saved.body.slice(0, 200)}`);
    const init = await post('/api/tax/initialise', {});
    if (init.status !== 200) throw new Error(`tax initialise: ${init.status} ${init.body.slice(0, 200)}`);
    // A day's sales that KRA did not take: queued, due now, numbered after the counter.
    await sql.query('begin');
    const { rows } = await sql.query<{ last: number }>(
      `insert into tax_invoice_counters (branch_id, last_number) values ('00', $1)
         on conflict (branch_id) do update set last_number = tax_invoice_counters.last_number + $1
       returning last_number - $1 as last`,
      [count],
    );
    const first = rows[0]!.last + 1;
    await sql.query(
      `insert into tax_invoices (kind, branch_id, number, item_code, item_name, amount_cents, tax_type, tax_cents, status, next_attempt_at, created_at)
       select 'invoice', '00', $1 + i, 'KE2NTU0000001', 'Daily 2 Odds, SMS, 7 days', (array[2000, 5000, 9900, 30000, 100000])[1 + i % 5], 'D', 0,
              'queued', now() - interval '1 hour', now() - interval '1 day' + i * interval '1 second'
         from generate_series(0, $2 - 1) i`,
      [first, count],
    );
    await sql.query('commit');
    const rssStartMb = process.memoryUsage().rss / 2 ** 20;
    let rssPeakMb = rssStartMb;
    const sampler = setInterval(() => (rssPeakMb = Math.max(rssPeakMb, process.memoryUsage().rss / 2 ** 20)), 250);
    const started = performance.now();
    let sent = 0;
    try {
      for (;;) {
        const report = await transmitDueInvoices(deps);
        sent += report.sent;
        if (report.sent + report.rejected + report.retry === 0) break;
        if (report.retry > 0) throw new Error(`${report.retry} invoices were put back for a retry: the fake answered with errors`);
      }
    } finally {
      clearInterval(sampler);
    }
    const seconds = (performance.now() - started) / 1000;
    // Sales made earlier (awaiting until the device was initialised) go out in the same run: count ours.
    const { rows: ours } = await sql.query<{ sent: number }>(
      `select count(*)::int as sent from tax_invoices where branch_id = '00' and number between $1 and $2 and status = 'sent'`,
      [first, first + count - 1],
    );
    return { queued: count, sent: ours[0]!.sent, others: sent - ours[0]!.sent, seconds, perSecond: sent / seconds, rssStartMb, rssPeakMb };
  } finally {
    await fake.close();
  }
}
