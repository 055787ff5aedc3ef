import {
  formatDate,
  formatDateTime,
  formatKesShort,
  type PortalMe,
  type PortalPackage,
  type PortalPost,
  type PortalPurchase,
  type PortalTeaser,
  type RecordBlockPeriod,
} from '@betdesk/contract';
import type { CategoryRecord } from '../tips-record/service.ts';
import type { WinningsPart } from '../tips-winnings/service.ts';
import type { Language } from '../../customer-texts/catalogue.ts';
import { html, trusted, type Html } from './html.ts';
import { invoiceBlock } from './invoice.ts';

/*
 * The portal's pages: server-rendered HTML that reads and works without JavaScript on a cheap phone
 * over mobile data. Styles are inline (one small block, no request); the only script is the
 * purchase page's status poller.
 */

export interface Shell {
  business: string;
  support: string;
  /** The signed-in phone (local form), or null. */
  phone: string | null;
}

interface PageOptions {
  title: string;
  description: string;
  /** Pages of a signed-in person are not for search engines. */
  index?: boolean;
  head?: Html;
  script?: boolean;
}

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;background:#f4f6f8}
a{color:#0b6b3a}header{background:#0b6b3a;color:#fff;padding:.6rem 1rem}header a{color:#fff;text-decoration:none}
.brand{font-weight:700;font-size:1.1rem}nav{display:flex;flex-wrap:wrap;gap:.3rem 1rem;margin-top:.3rem;font-size:.95rem}
nav form{display:inline}nav button{background:none;border:0;color:#fff;font:inherit;padding:0;cursor:pointer}
main{max-width:44rem;margin:0 auto;padding:1rem}h1{font-size:1.4rem;margin:.2rem 0 1rem}h2{font-size:1.15rem;margin:1.5rem 0 .5rem}
.card{background:#fff;border:1px solid #dde2e7;border-radius:8px;padding:.8rem 1rem;margin:.6rem 0;overflow-wrap:anywhere}
.card h3{margin:0 0 .2rem;font-size:1.05rem}.meta{color:#59636e;font-size:.875rem}.tip img{max-width:100%;height:auto}
.tip table{border-collapse:collapse;max-width:100%;display:block;overflow-x:auto}.tip td,.tip th{border:1px solid #dde2e7;padding:.2rem .4rem}
.price{font-weight:700;font-size:1.1rem}.btn{display:inline-block;background:#0b6b3a;color:#fff;border:0;border-radius:6px;padding:.65rem 1.1rem;font:inherit;font-weight:600;text-decoration:none;cursor:pointer;min-height:44px}
.btn.secondary{background:#fff;color:#0b6b3a;border:1px solid #0b6b3a}.btn.danger{background:#b42318}
label{display:block;font-weight:600;margin:.6rem 0 .2rem}input[type=tel],input[type=text]{width:100%;font:inherit;padding:.6rem;border:1px solid #a9b3bd;border-radius:6px}
.error{color:#b42318;font-size:.9rem;margin:.2rem 0}.notice{background:#e8f5ee;border:1px solid #9fd3b5;border-radius:6px;padding:.6rem .8rem}
.warn{background:#fff4e5;border:1px solid #f5c26b;border-radius:6px;padding:.6rem .8rem}.row{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;justify-content:space-between}
footer{max-width:44rem;margin:1rem auto 2rem;padding:0 1rem;color:#59636e;font-size:.875rem}.pager{display:flex;gap:1rem;margin-top:1rem}
.status{font-size:1.2rem;font-weight:700}
.figs{display:grid;grid-template-columns:repeat(auto-fit,minmax(7.5rem,1fr));gap:.4rem;margin:.5rem 0 0}.figs div{background:#f3f5f7;border-radius:6px;padding:.4rem .6rem}
.figs dt{color:#59636e;font-size:.8rem}.figs dd{margin:0;font-weight:700;font-size:1.1rem}.periods{display:flex;flex-wrap:wrap;gap:.3rem .9rem;margin:.4rem 0}
.periods [aria-current]{font-weight:700;color:inherit;text-decoration:none}`;

export function page(shell: Shell, options: PageOptions, body: Html): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${options.title} | ${shell.business}</title>
<meta name="description" content="${options.description}">
${options.index === false ? html`<meta name="robots" content="noindex">` : ''}
<style>${trusted(STYLE)}</style>${options.head ?? ''}
${options.script ? html`<script src="/portal/assets/portal.js" defer></script>` : ''}
</head><body>
<header><a class="brand" href="/portal">${shell.business}</a>
<nav aria-label="Portal">
<a href="/portal">Home</a><a href="/portal/record">Record</a><a href="/portal/tips">My tips</a><a href="/portal/packages">Packages</a><a href="/portal/help">Help</a>
${shell.phone
    ? html`<a href="/portal/account">My account</a><form method="post" action="/portal/sign-out"><button type="submit">Sign out</button></form>`
    : html`<a href="/portal/sign-in">Sign in</a>`}
</nav></header>
<main>${body}</main>
<footer>${shell.business} · Help: <a href="tel:${shell.support}">${shell.support}</a>${shell.phone ? html` · Signed in as ${shell.phone}` : ''}</footer>
</body></html>`.value;
}

const mediumLabel = (m: 'sms' | 'web') => (m === 'sms' ? 'by SMS' : 'on the web');

function postMeta(p: PortalTeaser): Html {
  return html`<p class="meta">${p.post_category} · ${p.bet_categories.join(', ')} · Match day ${formatDate(p.match_date)}</p>`;
}

/** On its own page a post's title is the page's heading (h1); in a list each is a linked h3. */
export function postCard(p: PortalPost, heading: 'h1' | 'h3' = 'h3'): Html {
  return html`<article class="card tip">${heading === 'h1' ? html`<h1>${p.title}</h1>` : html`<h3><a href="/portal/posts/${p.id}">${p.title}</a></h3>`}
${postMeta(p)}${p.image_url ? html`<img src="${p.image_url}" alt="" width="640" height="240" loading="lazy">` : ''}
<div>${trusted(p.content)}</div></article>`;
}

export function teaserCard(p: PortalTeaser): Html {
  return html`<article class="card"><h3>${p.title}</h3>${postMeta(p)}
<p>This tip is for subscribers.</p><a class="btn" href="/portal/packages">Subscribe</a></article>`;
}

export function packageCard(p: PortalPackage): Html {
  return html`<article class="card row"><div><h3>${p.bet_category} (${p.bet_category_code})</h3>
<p class="meta">${p.duration_days} days, ${mediumLabel(p.medium)}</p><p class="price">${formatKesShort(p.price)}</p></div>
<a class="btn" href="/portal/packages/${p.id}">Pay with M-Pesa</a></article>`;
}

const signed = (n: number, digits: number) => `${n > 0 ? '+' : n < 0 ? '\u2212' : ''}${Math.abs(n).toFixed(digits)}`;
const percent = (n: number | null) => (n === null ? '-' : `${n.toFixed(1)} %`);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What a record covers, said beside its rates: the period and how many tickets settled. */
function recordCoverage(r: CategoryRecord['record'], periodLabel: string): string {
  const days = r.from && r.to ? (r.from === r.to ? `, ${formatDate(r.from)}` : `, ${formatDate(r.from)} to ${formatDate(r.to)}`) : '';
  const pending = r.pending > 0 ? `, ${r.pending} pending` : '';
  return `${periodLabel}${days} · ${plural(r.settled, 'settled ticket')}${pending}`;
}

/** A category's record as figures computed from the entered results (never typed by staff). */
export function recordCard(c: CategoryRecord, periodLabel: string): Html {
  const r = c.record;
  const streak = r.current_streak === 0 ? '-' : `${Math.abs(r.current_streak)} ${r.current_streak > 0 ? 'won' : 'lost'}`;
  return html`<section class="card record"><h3>${c.bet_category}${c.code ? ` (${c.code})` : ''}</h3>
<p class="meta">${recordCoverage(r, periodLabel)}</p>
${r.settled === 0
    ? html`<p>No settled ticket in this period yet.</p>`
    : html`<dl class="figs"><div><dt>Hit rate</dt><dd>${percent(r.hit_rate)}</dd></div>
<div><dt>Profit</dt><dd>${signed(r.profit_units, 2)} units</dd></div><div><dt>ROI</dt><dd>${r.roi === null ? '-' : `${signed(r.roi, 1)} %`}</dd></div>
<div><dt>Won · lost · void</dt><dd>${r.won} · ${r.lost} · ${r.void}</dd></div><div><dt>Average odds</dt><dd>${r.average_odds === null ? '-' : r.average_odds.toFixed(2)}</dd></div>
<div><dt>Current run</dt><dd>${streak}</dd></div></dl>`}</section>`;
}

/** The Winnings & Results page as readers see it: the saved HTML with its record blocks filled in. */
function winningsContent(parts: WinningsPart[]): Html | string {
  if (parts.length === 0) return 'Nothing here yet.';
  return html`${parts.map((p) => ('html' in p ? trusted(p.html) : recordCard(p.record, p.period)))}`;
}

export function homePage(shell: Shell, c: { description: string; free: PortalPost[]; winnings: WinningsPart[]; packages: PortalPackage[] }): string {
  return page(
    shell,
    { title: 'Free betting tips today', description: c.description },
    html`<h1>${shell.business}</h1><p>${c.description}</p>
<h2>Today's free tips</h2>${c.free.length > 0 ? c.free.map((p) => postCard(p)) : html`<p>No free tips yet today. Check back later.</p>`}
<h2>Winnings &amp; Results</h2><div class="card tip">${winningsContent(c.winnings)}</div>
<p><a href="/portal/record">Our full track record</a></p>
<h2 id="packages">Packages</h2>${c.packages.map(packageCard)}`,
  );
}

export function recordPage(
  shell: Shell,
  c: { period: RecordBlockPeriod; periods: { period: RecordBlockPeriod; label: string }[]; records: CategoryRecord[] },
): string {
  const label = c.periods.find((p) => p.period === c.period)?.label ?? '';
  return page(
    shell,
    {
      title: 'Our track record',
      description: `The record of ${shell.business}'s tips per category: hit rate, profit and ROI computed from every result, with the number of settled tickets.`,
    },
    html`<h1>Our track record</h1>
<p>Every tip counts from the moment we publish it, before kick-off; the figures are computed from the results, at 1 unit per ticket.</p>
<nav class="periods" aria-label="Period">${c.periods.map((p) =>
      p.period === c.period
        ? html`<a href="/portal/record?period=${p.period}" aria-current="page">${p.label}</a>`
        : html`<a href="/portal/record?period=${p.period}">${p.label}</a>`,
    )}</nav>
${c.records.map((r) => recordCard(r, label))}
${c.records.length === 1 ? html`<p>No category has a ticket in this period.</p>` : ''}
<p><a class="btn" href="/portal/packages">See packages</a></p>`,
  );
}

export function packagesPage(shell: Shell, packages: PortalPackage[]): string {
  return page(
    shell,
    { title: 'Tips packages and prices', description: `Tips packages of ${shell.business} by SMS and on the web, with their prices.` },
    html`<h1>Packages</h1><p>Choose a package and pay with M-Pesa. Renewing adds the days to what you have left.</p>
${packages.length > 0 ? packages.map(packageCard) : html`<p>No package is on sale right now.</p>`}`,
  );
}

export function packagePage(
  shell: Shell,
  c: { package: PortalPackage; teasers: PortalTeaser[]; stkAvailable: boolean; paybill: string },
): string {
  const p = c.package;
  const title = `${p.bet_category} tips, ${p.duration_days} days ${mediumLabel(p.medium)}`;
  return page(
    shell,
    { title, description: `${title} for ${formatKesShort(p.price)}, paid with M-Pesa.` },
    html`<h1>${title}</h1><div class="card"><p class="price">${formatKesShort(p.price)}</p>
<p>${p.medium === 'web' ? 'Read every tip posted in this category on this site.' : 'Receive the tips of this category by SMS.'}</p>
${c.stkAvailable
    ? html`<form method="post" action="/portal/buy"><input type="hidden" name="package_id" value="${p.id}">
<button class="btn" type="submit">Pay with M-Pesa</button></form>
<p class="meta">${shell.phone ? `The payment request goes to ${shell.phone}.` : 'You sign in with your phone number first.'}</p>`
    : ''}
<p class="meta">${c.paybill}</p></div>
${c.teasers.length > 0 ? html`<h2>Recent tips in ${p.bet_category}</h2>${c.teasers.map((t) => html`<article class="card"><h3>${t.title}</h3>${postMeta(t)}</article>`)}` : ''}`,
  );
}

export function helpPage(shell: Shell, c: { paybill: string | null; categories: { code: string; name: string }[]; optOutText: string }): string {
  return page(
    shell,
    { title: 'Help: how to pay and how to stop SMS', description: `How to pay ${shell.business} by M-Pesa, the account codes, and how to stop SMS.` },
    html`<h1>Help</h1>
<h2>Paying by M-Pesa</h2>
<p>On a package page, press <strong>Pay with M-Pesa</strong>: your phone asks for your M-Pesa PIN and the package starts as soon as you pay.</p>
<p>Or pay from the M-Pesa menu: Lipa na M-Pesa, Pay Bill, business number <strong>${c.paybill ?? `(ask ${shell.support})`}</strong>,
account number the code of the tips you want, and the package's price.</p>
<div class="card"><h3>Account codes</h3><ul>${c.categories.map((b) => html`<li><strong>${b.code}</strong>: ${b.name}</li>`)}</ul></div>
<h2>Stopping SMS</h2>
<p>Reply <strong>STOP</strong> to any of our messages, dial <strong>${c.optOutText}</strong>, or sign in and use <a href="/portal/account">My account</a>.
Send <strong>START</strong> to receive them again. Receipts and sign-in codes still reach you.</p>
<h2>Need a hand?</h2><p>Call or text <a href="tel:${shell.support}">${shell.support}</a>.</p>`,
  );
}

export function signInPage(shell: Shell, c: { next: string; phone?: string; error?: string; codeSent?: string; codeError?: string }): string {
  const phoneForm = html`<form method="post" action="/portal/sign-in"><input type="hidden" name="next" value="${c.next}">
<label for="phone">Phone number</label><input id="phone" name="phone" type="tel" inputmode="tel" autocomplete="tel" placeholder="0712345678" value="${c.phone ?? ''}" required>
${c.error ? html`<p class="error" role="alert">${c.error}</p>` : ''}
<p><button class="btn" type="submit">Send me a code</button></p></form>`;
  const codeForm = html`<p class="notice" role="status">${c.codeSent ?? ''}</p>
<form method="post" action="/portal/verify"><input type="hidden" name="next" value="${c.next}"><input type="hidden" name="phone" value="${c.phone ?? ''}">
<label for="code">6-digit code sent to ${c.phone ?? ''}</label><input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="7" required>
${c.codeError ? html`<p class="error" role="alert">${c.codeError}</p>` : ''}
<p><button class="btn" type="submit">Sign in</button></p></form>
<p class="meta">No SMS? <a href="/portal/sign-in">Ask for a new code</a>.</p>`;
  return page(
    shell,
    { title: 'Sign in', description: `Sign in to ${shell.business} with your phone number.` },
    html`<h1>Sign in</h1><p>No password: we send a code by SMS to your phone.</p>${c.codeSent || c.codeError ? codeForm : phoneForm}`,
  );
}

export function myTipsPage(shell: Shell, c: { posts: PortalPost[]; total: number; page: number; perPage: number }): string {
  const last = Math.max(1, Math.ceil(c.total / c.perPage));
  return page(
    shell,
    { title: 'My tips', description: 'The tips of your web subscriptions.', index: false },
    html`<h1>My tips</h1>
${c.posts.length > 0
    ? c.posts.map((p) => postCard(p))
    : html`<div class="card"><p>No tips to show: web tips appear here while you have an active web subscription.</p><a class="btn" href="/portal/packages">See packages</a></div>`}
${last > 1
    ? html`<nav class="pager" aria-label="Pages">${c.page > 1 ? html`<a href="/portal/tips?page=${c.page - 1}">Newer</a>` : ''}<span>Page ${c.page} of ${last}</span>${c.page < last ? html`<a href="/portal/tips?page=${c.page + 1}">Older</a>` : ''}</nav>`
    : ''}`,
  );
}

export function postPage(shell: Shell, c: { post: PortalPost } | { teaser: PortalTeaser }): string {
  if ('post' in c) {
    return page(shell, { title: c.post.title, description: `${c.post.title}: ${c.post.bet_categories.join(', ')} tip for ${formatDate(c.post.match_date)}.` }, postCard(c.post, 'h1'));
  }
  return page(
    shell,
    { title: c.teaser.title, description: `${c.teaser.title}: a ${c.teaser.bet_categories.join(', ')} tip for subscribers.` },
    teaserCard(c.teaser),
  );
}

export function accountPage(shell: Shell, me: PortalMe, notice?: string): string {
  return page(
    shell,
    { title: 'My account', description: 'Your subscriptions and SMS preferences.', index: false },
    html`<h1>My account</h1>${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
<h2>My subscriptions</h2>
${me.subscriptions.length > 0
    ? me.subscriptions.map(
        (s) => html`<article class="card row"><div><h3>${s.bet_category} (${s.bet_category_code}), ${mediumLabel(s.medium)}</h3>
<p class="meta">${s.active ? `Active until ${formatDateTime(s.expires_at)}, ${s.days_left} day${s.days_left === 1 ? '' : 's'} left` : `Expired on ${formatDateTime(s.expires_at)}`}</p>
${invoiceBlock(s.invoice, me.language)}</div>
<a class="btn${s.active ? ' secondary' : ''}" href="/portal/packages?category=${s.bet_category_code}&amp;medium=${s.medium}">Renew</a></article>`,
      )
    : html`<p>You have no subscription yet.</p><a class="btn" href="/portal/packages">See packages</a>`}
<h2>SMS</h2><div class="card">
${me.receives_sms
    ? html`<p>You receive our tips and offers by SMS.</p><a class="btn secondary" href="/portal/sms?receive=0">Stop SMS</a>`
    : html`<p>You have stopped our SMS: you receive only receipts and sign-in codes.</p><a class="btn" href="/portal/sms?receive=1">Restart SMS</a>`}
</div>
<h2>Offers</h2><div class="card">
<form method="post" action="/portal/offers">
<label><input type="checkbox" name="offers" value="yes"${me.offers_consent ? trusted(' checked') : ''}> ${me.offers_wording}</label>
<p><button class="btn secondary" type="submit">Save</button></p></form>
<p class="meta">Without this, we send you only what you pay for, receipts and sign-in codes.</p>
</div>`,
  );
}

export function smsConfirmPage(shell: Shell, receive: boolean): string {
  return page(
    shell,
    { title: receive ? 'Restart SMS' : 'Stop SMS', description: 'SMS preferences.', index: false },
    html`<h1>${receive ? 'Restart SMS?' : 'Stop SMS?'}</h1><div class="card">
<p>${receive ? 'You will receive our tips and offers by SMS again.' : 'You will receive no more tips or offers by SMS, even those you paid for. Receipts and sign-in codes still reach you.'}</p>
<form method="post" action="/portal/sms"><input type="hidden" name="receive" value="${receive ? 'true' : 'false'}">
<button class="btn${receive ? '' : ' danger'}" type="submit">${receive ? 'Yes, restart SMS' : 'Yes, stop SMS'}</button>
<a href="/portal/account">Cancel</a></form></div>`,
  );
}

export const purchaseStatusText: Record<PortalPurchase['status'], string> = {
  pending: 'Waiting for your M-Pesa PIN…',
  paid: 'Paid',
  cancelled: 'Cancelled',
  failed: 'Failed',
};

export function purchasePage(shell: Shell, p: PortalPurchase, language: Language): string {
  const pending = p.status === 'pending';
  return page(
    shell,
    {
      title: 'Payment',
      description: 'Your M-Pesa payment.',
      index: false,
      // Without JavaScript the page reloads itself while M-Pesa has not answered; with it, portal.js polls.
      head: pending ? html`<noscript><meta http-equiv="refresh" content="5"></noscript>` : undefined,
      script: pending,
    },
    html`<h1>${p.package}</h1><div class="card" data-purchase="${p.id}">
<p>${formatKesShort(p.amount)} by M-Pesa</p>
<p class="status" role="status" aria-live="polite" data-status>${purchaseStatusText[p.status]}</p>
<p data-detail>${purchaseDetail(p)}</p>
${invoiceBlock(p.invoice, language)}
${pending ? html`<p class="meta">Enter your M-Pesa PIN on your phone. <a href="/portal/purchases/${p.id}">Refresh</a></p>` : ''}
</div><p><a href="/portal/account">My account</a> · <a href="/portal/tips">My tips</a></p>`,
  );
}

/** The line under the status: the new expiry, or why it did not go through. */
export function purchaseDetail(p: PortalPurchase): string {
  if (p.status === 'paid') {
    return `Receipt ${p.receipt ?? ''}. ${p.expires_at ? `Your subscription now runs until ${formatDateTime(p.expires_at)}.` : ''}`.trim();
  }
  if (p.status === 'pending') return 'We are waiting for M-Pesa to confirm.';
  return `${p.reason ?? 'M-Pesa did not take the payment.'} You can try again from the package page.`;
}

export function messagePage(shell: Shell, c: { title: string; text: string; status?: 'warn' | 'notice'; link?: { href: string; label: string } }): string {
  return page(
    shell,
    { title: c.title, description: c.title, index: false },
    html`<h1>${c.title}</h1><p class="${c.status ?? 'warn'}">${c.text}</p>${c.link ? html`<p><a class="btn" href="${c.link.href}">${c.link.label}</a></p>` : ''}`,
  );
}
