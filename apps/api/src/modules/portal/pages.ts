import {
  DAILY_DAYS_MAX,
  formatKesShort,
  type PortalMe,
  type PortalPackage,
  type PortalPost,
  type PortalPurchase,
  type PortalSubscription,
  type PortalTeaser,
  type PublicTicket,
  type RecordBlockPeriod,
  resultSource,
} from '@betdesk/contract';
import { type CustomerTextId, type Language } from '../../customer-texts/catalogue.ts';
import { fixedText } from '../../customer-texts/texts.ts';
import { customerDate, customerDateTime, type TextValues } from '../../customer-texts/format.ts';
import type { CategoryRecord } from '../tips-record/service.ts';
import type { WinningsPart } from '../tips-winnings/service.ts';
import type { TrialOffer } from '../trials/service.ts';
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
  /** The reader's language: every word of the page is the catalogue's in it. */
  language: Language;
  /** This page's own address: the language switch comes back to it. */
  path: string;
  /** The responsible-gambling line beside the 18+ mark, in the reader's language. */
  responsible: string;
  /** The business's licence or registration line; empty: not shown. */
  licence: string;
}

/**
 * The page's words in the reader's language, from the one catalogue, and its dates in the one form
 * of that language ("8 Des 2026, saa 23:26"; customer-texts/format.ts).
 */
export const say = (shell: { language: Language }) =>
  Object.assign((id: CustomerTextId, values: TextValues = {}): string => fixedText(id, shell.language, values), {
    date: (value: string | Date) => customerDate(value, shell.language),
    dateTime: (value: string | Date) => customerDateTime(value, shell.language),
  });

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
.brand{font-weight:700;font-size:1.1rem;display:inline-flex;align-items:center;min-height:44px}nav{display:flex;flex-wrap:wrap;gap:0 1rem;font-size:1rem}
nav a,nav button,footer a,.periods a,.pager a{display:inline-flex;align-items:center;min-height:44px}
nav form{display:inline}nav button,.lang button{background:none;border:0;color:#fff;font:inherit;padding:0;cursor:pointer;text-decoration:underline}
.top{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:center;gap:0 1rem}.lang button{min-height:44px}
main{max-width:44rem;margin:0 auto;padding:1rem}h1{font-size:1.4rem;margin:.2rem 0 1rem}h2{font-size:1.15rem;margin:1.5rem 0 .5rem}
.card{background:#fff;border:1px solid #dde2e7;border-radius:8px;padding:.8rem 1rem;margin:.6rem 0;overflow-wrap:anywhere}
.card h3,.tip h2{margin:0 0 .2rem;font-size:1.05rem}.meta{color:#59636e;font-size:1rem}.proof-head{overflow-wrap:anywhere}.tip img{max-width:100%;height:auto}
.tip table{border-collapse:collapse;max-width:100%;display:block;overflow-x:auto}.tip td,.tip th{border:1px solid #dde2e7;padding:.2rem .4rem}
.price{font-weight:700;font-size:1.1rem}.btn{display:inline-block;background:#0b6b3a;color:#fff;border:0;border-radius:6px;padding:.65rem 1.1rem;font:inherit;font-weight:600;text-decoration:none;cursor:pointer;min-height:44px}
.btn.secondary{background:#fff;color:#0b6b3a;border:1px solid #0b6b3a}.btn.danger{background:#b42318}
label{display:block;font-weight:600;margin:.6rem 0 .2rem}input[type=tel],input[type=text],input[type=number]{width:100%;font:inherit;padding:.6rem;border:1px solid #a9b3bd;border-radius:6px}
.error{color:#b42318;font-size:1rem;margin:.2rem 0}.notice{background:#e8f5ee;border:1px solid #9fd3b5;border-radius:6px;padding:.6rem .8rem}
.warn{background:#fff4e5;border:1px solid #f5c26b;border-radius:6px;padding:.6rem .8rem}.row{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;justify-content:space-between}
footer{max-width:44rem;margin:1rem auto 2rem;padding:0 1rem;color:#4a545e;font-size:1rem}footer ul{list-style:none;padding:0;margin:.3rem 0;display:flex;flex-wrap:wrap;gap:0 1.2rem}
.rg{display:flex;gap:.6rem;align-items:center;background:#fff;border:1px solid #dde2e7;border-radius:8px;padding:.5rem .8rem;margin:0 0 .6rem}
.age{flex:none;display:inline-flex;align-items:center;justify-content:center;width:2.75rem;height:2.75rem;border-radius:50%;border:3px solid #b42318;color:#b42318;font-weight:800}
.pager{display:flex;flex-wrap:wrap;gap:0 1rem;margin-top:1rem;align-items:center}
.status{font-size:1.2rem;font-weight:700}
.figs{display:grid;grid-template-columns:repeat(auto-fit,minmax(7.5rem,1fr));gap:.4rem;margin:.5rem 0 0}.figs div{background:#f3f5f7;border-radius:6px;padding:.4rem .6rem}
.figs dt{color:#4a545e;font-size:1rem}.figs dd{margin:0;font-weight:700;font-size:1.1rem}.periods{display:flex;flex-wrap:wrap;gap:.3rem .9rem;margin:.4rem 0}
.periods [aria-current]{font-weight:700;color:inherit;text-decoration:none}
.legs{list-style:none;padding:0;margin:.4rem 0}.legs li{border-top:1px solid #eef1f4;padding:.35rem 0}.chart{width:100%;height:9rem;display:block}.card>h2:first-child{margin-top:0}
.won{color:#0b6b3a;font-weight:700}.lost{color:#b42318;font-weight:700}.void{color:#4a545e;font-weight:700}
.trust h2{font-size:1.1rem}.codes{padding-left:1.2rem}.codes li{margin:.2rem 0}`;

export function page(shell: Shell, options: PageOptions, body: Html): string {
  const t = say(shell);
  const other: Language = shell.language === 'en' ? 'sw' : 'en';
  return html`<!doctype html>
<html lang="${shell.language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${options.title} | ${shell.business}</title>
<meta name="description" content="${options.description}">
${options.index === false ? html`<meta name="robots" content="noindex">` : ''}
<style>${trusted(STYLE)}</style>${options.head ?? ''}
${options.script ? html`<script src="/portal/assets/portal.js" defer></script>` : ''}
</head><body>
<header><div class="top"><a class="brand" href="/portal">${shell.business}</a>
<form class="lang" method="post" action="/portal/language"><input type="hidden" name="language" value="${other}"><input type="hidden" name="next" value="${shell.path}">
<button type="submit" lang="${other}" data-language="${other}">${fixedText('portal.language.switch_to', shell.language)}</button></form></div>
<nav aria-label="${t('portal.nav.label')}">
<a href="/portal">${t('portal.nav.home')}</a><a href="/portal/record">${t('portal.nav.record')}</a><a href="/portal/tips">${t('portal.nav.my_tips')}</a><a href="/portal/packages">${t('portal.nav.packages')}</a><a href="/portal/help">${t('portal.nav.help')}</a>
${shell.phone
    ? html`<a href="/portal/account">${t('portal.nav.account')}</a><form method="post" action="/portal/sign-out"><button type="submit">${t('portal.nav.sign_out')}</button></form>`
    : html`<a href="/portal/sign-in">${t('portal.nav.sign_in')}</a>`}
</nav></header>
<main>${body}</main>
<footer><p class="rg" data-responsible><span class="age" role="img" aria-label="${t('portal.adults_only')}">18+</span><span>${shell.responsible}</span></p>
<nav aria-label="${t('portal.footer.label')}"><ul><li><a href="/portal/terms">${t('portal.terms.title')}</a></li><li><a href="/portal/refunds">${t('portal.refunds.title')}</a></li><li><a href="/portal/privacy">${t('portal.privacy.title')}</a></li><li><a href="/portal/help">${t('portal.footer.help')}</a></li></ul></nav>
<p>${shell.business} · <a href="tel:${shell.support}">${shell.support}</a>${shell.phone ? html` · ${t('portal.footer.signed_in', { phone: shell.phone })}` : ''}</p>
${shell.licence ? html`<p data-licence>${shell.licence}</p>` : ''}
</footer>
</body></html>`.value;
}

type Say = ReturnType<typeof say>;

const mediumLabel = (t: Say, m: 'sms' | 'web') => t(m === 'sms' ? 'portal.medium.sms' : 'portal.medium.web');

function postMeta(t: Say, p: PortalTeaser): Html {
  return html`<p class="meta">${p.post_category} · ${p.bet_categories.join(', ')} · ${t('portal.post.match_day', { date: t.date(p.match_date) })}</p>`;
}

/** On its own page a post's title is the page's heading (h1); in a list each is a linked h3. */
/** A tip post as a card: its own page's h1, or a linked h2 (My tips, right under its h1) or h3 (under a section's h2). */
export function postCard(t: Say, p: PortalPost, heading: 'h1' | 'h2' | 'h3' = 'h3'): Html {
  const linked = html`<a href="/portal/posts/${p.id}">${p.title}</a>`;
  const title = heading === 'h1' ? html`<h1>${p.title}</h1>` : heading === 'h2' ? html`<h2>${linked}</h2>` : html`<h3>${linked}</h3>`;
  return html`<article class="card tip">${title}
${postMeta(t, p)}${p.image_url ? html`<img src="${p.image_url}" alt="" width="640" height="240" loading="lazy">` : ''}
<div>${trusted(p.content)}</div></article>`;
}

export function teaserCard(t: Say, p: PortalTeaser): Html {
  return html`<article class="card"><h3>${p.title}</h3>${postMeta(t, p)}
<p>${t('portal.teaser.text')}</p><a class="btn" href="/portal/packages">${t('portal.subscribe')}</a></article>`;
}

/** A package's length and medium, or a daily package's (decision 095) price per day. */
function packageLength(t: Say, p: PortalPackage): string {
  return p.billing === 'daily'
    ? t('portal.package.per_day', { price: String(p.price), medium: mediumLabel(t, p.medium) })
    : t('portal.package.length', { days: p.duration_days, medium: mediumLabel(t, p.medium) });
}

export function packageCard(t: Say, p: PortalPackage): Html {
  return html`<article class="card row"><div><h3>${p.bet_category} (${p.bet_category_code})</h3>
<p class="meta">${packageLength(t, p)}</p><p class="price">${formatKesShort(p.price)}</p></div>
<a class="btn" href="/portal/packages/${p.id}">${t('portal.package.pay')}</a></article>`;
}

/** Packages grouped by category (by name), each category's cheapest first. */
export function byCategory(packages: PortalPackage[]): { name: string; code: string; packages: PortalPackage[] }[] {
  const groups = new Map<string, { name: string; code: string; packages: PortalPackage[] }>();
  for (const p of packages) {
    const group = groups.get(p.bet_category_code) ?? { name: p.bet_category, code: p.bet_category_code, packages: [] };
    group.packages.push(p);
    groups.set(p.bet_category_code, group);
  }
  const sorted = [...groups.values()].sort((a, b) => a.name.localeCompare(b.name));
  for (const g of sorted) g.packages.sort((a, b) => a.price - b.price || a.duration_days - b.duration_days || a.id - b.id);
  return sorted;
}

function groupedPackages(t: Say, packages: PortalPackage[], heading: 'h2' | 'h3'): Html {
  return html`${byCategory(packages).map(
    (g) => html`<section class="category" data-category="${g.code}">${heading === 'h2'
      ? html`<h2>${t('portal.packages.category', { category: g.name, code: g.code })}</h2>`
      : html`<h3>${t('portal.packages.category', { category: g.name, code: g.code })}</h3>`}
${g.packages.map((p) => packageCard(t, p))}</section>`,
  )}`;
}

/** How to pay, on the home and help pages: the USSD code, the paybill and its account numbers. */
export interface PayFacts {
  ussdCode: string;
  paybill: string | null;
  categories: { code: string; name: string }[];
}

function howToPay(shell: Shell, t: Say, c: PayFacts, heading: 'h2' | 'h3'): Html {
  const title = t('portal.pay.heading');
  return html`<div class="card" data-how-to-pay>${heading === 'h2' ? html`<h2>${title}</h2>` : html`<h3>${title}</h3>`}
${c.ussdCode ? html`<p data-ussd>${t('portal.pay.ussd', { code: c.ussdCode })}</p>` : ''}
<p data-paybill>${c.paybill ? t('portal.pay.paybill', { paybill: c.paybill }) : t('portal.pay.paybill_unknown', { support: shell.support })}</p>
${c.categories.length > 0
    ? html`<p><strong>${t('portal.pay.codes')}</strong></p><ul class="codes">${c.categories.map((b) => html`<li><strong>${b.code}</strong>: ${b.name}</li>`)}</ul>`
    : ''}</div>`;
}

const signed = (n: number, digits: number) => `${n > 0 ? '+' : n < 0 ? '\u2212' : ''}${Math.abs(n).toFixed(digits)}`;
const percent = (n: number | null) => (n === null ? '-' : `${n.toFixed(1)} %`);

/** What a record covers, said beside its rates: the period and how many tickets settled. */
function recordCoverage(t: Say, r: CategoryRecord['record'], periodLabel: string): string {
  const days = r.from && r.to ? (r.from === r.to ? `, ${t.date(r.from)}` : `, ${t('portal.record.range', { from: t.date(r.from), to: t.date(r.to) })}`) : '';
  const pending = r.pending > 0 ? `, ${t('portal.record.pending', { count: r.pending })}` : '';
  return `${periodLabel}${days} · ${t('portal.record.settled', { count: r.settled })}${pending}`;
}

const categoryName = (t: Say, c: CategoryRecord) => (c.code === null ? t('portal.record.all_categories') : `${c.bet_category} (${c.code})`);

/** A category's record as figures computed from the entered results (never typed by staff). */
/** A category's record as a card; its heading is an h2 where the card sits right under the page's h1 (the record page). */
export function recordCard(t: Say, c: CategoryRecord, periodLabel: string, link?: string, heading: 'h2' | 'h3' = 'h3'): Html {
  const r = c.record;
  const streak =
    r.current_streak === 0
      ? '-'
      : t(r.current_streak > 0 ? 'portal.record.run_won' : 'portal.record.run_lost', { count: Math.abs(r.current_streak) });
  const name = categoryName(t, c);
  const title = link ? html`<a href="${link}">${name}</a>` : name;
  return html`<section class="card record">${heading === 'h2' ? html`<h2>${title}</h2>` : html`<h3>${title}</h3>`}
<p class="meta">${recordCoverage(t, r, periodLabel)}</p>
${r.settled === 0
    ? html`<p>${t('portal.record.none_settled')}</p>`
    : html`<dl class="figs"><div><dt>${t('portal.record.hit_rate')}</dt><dd>${percent(r.hit_rate)}</dd></div>
<div><dt>${t('portal.record.profit')}</dt><dd>${t('portal.record.units', { units: signed(r.profit_units, 2) })}</dd></div><div><dt>${t('portal.record.roi')}</dt><dd>${r.roi === null ? '-' : `${signed(r.roi, 1)} %`}</dd></div>
<div><dt>${t('portal.record.outcomes')}</dt><dd>${r.won} · ${r.lost} · ${r.void}</dd></div><div><dt>${t('portal.record.average_odds')}</dt><dd>${r.average_odds === null ? '-' : r.average_odds.toFixed(2)}</dd></div>
<div><dt>${t('portal.record.current_run')}</dt><dd>${streak}</dd></div>${
        r.average_clv === null ? '' : html`<div><dt>${t('portal.record.average_clv')}</dt><dd data-average-clv>${signed(r.average_clv, 1)} %</dd></div>`
      }</dl>${
        r.hit_rate_interval
          ? html`<p class="meta" data-sample>${t('portal.record.sample', { decided: r.won + r.lost, low: r.hit_rate_interval.low.toFixed(1), high: r.hit_rate_interval.high.toFixed(1) })}</p>`
          : ''
      }`}</section>`;
}

/** The Winnings & Results page as readers see it: the saved HTML with its record blocks filled in. */
function winningsContent(t: Say, parts: WinningsPart[]): Html | string {
  if (parts.length === 0) return t('portal.home.nothing_yet');
  return html`${parts.map((p) => ('html' in p ? trusted(p.html) : recordCard(t, p.record, p.period)))}`;
}

export function homePage(
  shell: Shell,
  c: { description: string; free: PortalPost[]; winnings: WinningsPart[]; packages: PortalPackage[]; pay: PayFacts },
): string {
  const t = say(shell);
  return page(
    shell,
    { title: t('portal.home.title'), description: c.description },
    html`<h1>${shell.business}</h1><p>${c.description}</p>
${howToPay(shell, t, c.pay, 'h2')}
<h2>${t('portal.home.free')}</h2>${c.free.length > 0 ? c.free.map((p) => postCard(t, p)) : html`<p>${t('portal.home.free_none')}</p>`}
<h2>${t('portal.home.winnings')}</h2><div class="card tip">${winningsContent(t, c.winnings)}</div>
<p><a href="/portal/record">${t('portal.home.full_record')}</a></p>
<h2 id="packages">${t('portal.packages.heading')}</h2>${groupedPackages(t, c.packages, 'h3')}`,
  );
}

/** The cumulative profit after each match day, drawn as a line on the server (no script, no library). */
export function profitChart(t: Say, curve: CategoryRecord['record']['profit_curve'], settled: number): Html {
  if (curve.length === 0) return html``;
  const W = 320;
  const H = 140;
  const pad = 8;
  const values = [0, ...curve.map((p) => p.profit_units)];
  const max = Math.max(...values);
  const min = Math.min(...values);
  const span = max - min || 1;
  const x = (i: number) => pad + (i * (W - 2 * pad)) / Math.max(1, values.length - 1);
  const y = (v: number) => pad + ((max - v) * (H - 2 * pad)) / span;
  const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const last = curve.at(-1)!;
  const summary = t('portal.record.chart_summary', {
    from: t.date(curve[0]!.match_date),
    to: t.date(last.match_date),
    units: signed(last.profit_units, 2),
    count: settled,
  });
  return html`<figure class="card" data-chart><figcaption><strong>${t('portal.record.chart')}</strong></figcaption>
<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${t('portal.record.chart')}: ${summary}" preserveAspectRatio="none">
<line x1="${pad}" x2="${W - pad}" y1="${y(0).toFixed(1)}" y2="${y(0).toFixed(1)}" stroke="#a9b3bd" stroke-dasharray="4 3" vector-effect="non-scaling-stroke"/>
<polyline fill="none" stroke="${last.profit_units >= 0 ? '#0b6b3a' : '#b42318'}" stroke-width="2.5" vector-effect="non-scaling-stroke" points="${points}"/></svg>
<p class="meta">${summary}</p></figure>`;
}

const resultClass = (r: string | null) => (r === 'won' || r === 'half_won' ? 'won' : r === 'lost' || r === 'half_lost' ? 'lost' : 'void');
const resultText = (t: Say, r: string) => t(`portal.result.${r}` as CustomerTextId);

/** A leg's pick, with its market unless the pick already says it (Over 1.5). */
const pickLabel = (s: { market: string; pick: string }) => (s.pick.toLowerCase().includes(s.market.toLowerCase()) ? s.pick : `${s.market}: ${s.pick}`);

/** Where a leg's price came from: the bookmaker (or median) of the feed and when, or typed by the business. */
function oddsOrigin(t: Say, s: PublicTicket['selections'][number]): string {
  if (!s.odds_source.startsWith('feed:') || s.odds_captured_at === null) return t('portal.record.odds_typed');
  const bookmaker = s.odds_source.slice('feed:'.length);
  const source = bookmaker === 'median' ? t('portal.record.source_median') : bookmaker;
  return t('portal.record.odds_taken', { source, time: t.dateTime(s.odds_captured_at) });
}

/** Whether a leg's result is the feed's (confirmed) or an admin's correction of it; nothing for a result typed without a feed. */
function resultOrigin(t: Say, s: PublicTicket['selections'][number]): Html {
  const source = resultSource(s);
  if (source === 'feed') return html` <span class="meta" data-result-source="feed">(${t('portal.record.result_feed')})</span>`;
  if (source === 'corrected' && s.feed_result) {
    return html` <span class="meta" data-result-source="corrected">(${t('portal.record.result_corrected', { result: resultText(t, s.feed_result) })})</span>`;
  }
  return html``;
}

export function ticketCard(t: Say, ticket: PublicTicket): Html {
  return html`<article class="card" data-ticket="${ticket.id}"><h3>${t('portal.record.ticket', { category: `${ticket.bet_category} (${ticket.code})`, date: t.date(ticket.match_date) })}</h3>
<ul class="legs">${ticket.selections.map(
    (s) => html`<li><strong>${s.home} - ${s.away}</strong> <span class="meta">${s.competition}, ${t.dateTime(s.kickoff)}</span><br>
${t('portal.record.pick')}: ${pickLabel(s)} · ${t('portal.record.odds')} ${s.odds.toFixed(2)} <span class="meta" data-odds-source>(${oddsOrigin(t, s)})</span> · <span class="${resultClass(s.result)}">${s.result ? resultText(t, s.result) : '-'}</span>${resultOrigin(t, s)}${
      s.closing_odds !== null && s.clv !== null ? html` <span class="meta">(${t('portal.record.clv', { odds: s.closing_odds.toFixed(2), clv: signed(s.clv, 1) })})</span>` : ''
    }${s.verified ? '' : html` <span class="meta" data-unverified>· ${t('portal.record.not_verified')}</span>`}</li>`,
  )}</ul>
<p><span class="${resultClass(ticket.status)}">${t('portal.record.ticket_total', {
    odds: ticket.combined_odds.toFixed(2),
    result: resultText(t, ticket.status),
    units: signed(ticket.profit_units, 2),
  })}</span></p>${ticket.proof ? html`<p class="meta" data-proof="${ticket.proof.hash}">${t('portal.record.proof', { hash: ticket.proof.hash.slice(0, 16) })} <a href="/portal/record.csv">record.csv</a></p>` : ''}</article>`;
}

function pager(t: Say, c: { page: number; last: number; href: (page: number) => string }): Html {
  if (c.last <= 1) return html``;
  return html`<nav class="pager" aria-label="${t('portal.pager.label')}">${c.page > 1 ? html`<a href="${c.href(c.page - 1)}">${t('portal.pager.newer')}</a>` : ''}<span>${t('portal.pager.page', { page: c.page, last: c.last })}</span>${c.page < c.last ? html`<a href="${c.href(c.page + 1)}">${t('portal.pager.older')}</a>` : ''}</nav>`;
}

export function recordPage(
  shell: Shell,
  c: {
    period: RecordBlockPeriod;
    periods: RecordBlockPeriod[];
    records: CategoryRecord[];
    /** The category whose tickets are listed (null: all). */
    chosen: CategoryRecord;
    tickets: PublicTicket[];
    total: number;
    page: number;
    perPage: number;
    /** The proof chain's last hash (decision 071); null: nothing published since the chain began. */
    chainHead: string | null;
  },
): string {
  const t = say(shell);
  const periodLabel = (p: RecordBlockPeriod) => t(`portal.period.${p}` as CustomerTextId);
  const label = periodLabel(c.period);
  const href = (o: { code?: string | null; page?: number }) => {
    const params = [`period=${c.period}`];
    if (o.code) params.push(`category=${encodeURIComponent(o.code)}`);
    if (o.page && o.page > 1) params.push(`page=${o.page}`);
    if (o.page && c.perPage !== 10) params.push(`perPage=${c.perPage}`);
    return `/portal/record?${params.join('&')}`;
  };
  const last = Math.max(1, Math.ceil(c.total / c.perPage));
  const chosenName = categoryName(t, c.chosen);
  return page(
    shell,
    { title: t('portal.record.title'), description: t('portal.record.description', { business: shell.business }) },
    html`<h1>${t('portal.record.title')}</h1>
<p>${t('portal.record.intro')}</p>
<nav class="periods" aria-label="${t('portal.record.periods')}">${c.periods.map((p) =>
      p === c.period
        ? html`<a href="/portal/record?period=${p}" aria-current="page">${periodLabel(p)}</a>`
        : html`<a href="/portal/record?period=${p}">${periodLabel(p)}</a>`,
    )}</nav>
${c.records.map((r) => recordCard(t, r, label, `${href({ code: r.code })}#tickets`, 'h2'))}
${c.records.length === 1 ? html`<p>${t('portal.record.no_category')}</p>` : ''}
<h2 id="tickets">${chosenName}: ${t('portal.record.tickets')}</h2>
<p class="meta" data-coverage>${recordCoverage(t, c.chosen.record, label)}</p>
${profitChart(t, c.chosen.record.profit_curve, c.chosen.record.settled)}
<p class="meta">${t('portal.record.public_rule')}</p>
${c.tickets.length > 0 ? c.tickets.map((ticket) => ticketCard(t, ticket)) : html`<p>${t('portal.record.no_tickets')}</p>`}
${pager(t, { page: c.page, last, href: (n) => `${href({ code: c.chosen.code, page: n })}#tickets` })}
${c.chainHead ? html`<p class="meta proof-head" data-chain-head="${c.chainHead}">${t('portal.record.chain_head', { hash: c.chainHead })} <a href="/portal/record.csv">record.csv</a></p>` : ''}
<p><a class="btn" href="/portal/packages">${t('portal.record.see_packages')}</a></p>`,
  );
}

export function packagesPage(shell: Shell, packages: PortalPackage[]): string {
  const t = say(shell);
  return page(
    shell,
    { title: t('portal.packages.title'), description: t('portal.packages.description', { business: shell.business }) },
    html`<h1>${t('portal.packages.heading')}</h1><p>${t('portal.packages.intro')}</p>
${packages.length > 0 ? groupedPackages(t, packages, 'h2') : html`<p>${t('portal.packages.none')}</p>`}`,
  );
}

export function packagePage(
  shell: Shell,
  c: { package: PortalPackage; teasers: PortalTeaser[]; stkAvailable: boolean; paybill: string; asksAge: boolean; trial?: TrialOffer | null },
): string {
  const t = say(shell);
  const p = c.package;
  const daily = p.billing === 'daily';
  const title = daily
    ? t('portal.package.daily_title', { category: p.bet_category, medium: mediumLabel(t, p.medium) })
    : t('portal.package.title', { category: p.bet_category, days: p.duration_days, medium: mediumLabel(t, p.medium) });
  return page(
    shell,
    { title, description: t('portal.package.description', { title, price: formatKesShort(p.price) }) },
    html`<h1>${title}</h1><div class="card"><p class="price">${daily ? packageLength(t, p) : formatKesShort(p.price)}</p>
<p>${t(p.medium === 'web' ? 'portal.package.web' : 'portal.package.sms')}</p>
${daily ? html`<p class="meta">${t('portal.package.daily_help', { price: String(p.price) })}</p>` : ''}
${c.stkAvailable
    ? html`<form method="post" action="/portal/buy"><input type="hidden" name="package_id" value="${p.id}">
${daily
    ? html`<label for="days">${t('portal.package.days')}</label><input type="number" id="days" name="days" min="1" max="${DAILY_DAYS_MAX}" step="1" value="1" required inputmode="numeric">`
    : ''}
${c.asksAge ? html`<p><label><input type="checkbox" name="adult" value="1" required> ${t('portal.package.age_declaration')}</label></p>` : ''}
<label for="promo-code">${t('portal.package.promo_code')}</label><input type="text" id="promo-code" name="code" maxlength="20" autocomplete="off" autocapitalize="characters">
<button class="btn" type="submit">${t('portal.package.pay')}</button></form>
<p class="meta">${shell.phone ? t('portal.package.request_to', { phone: shell.phone }) : t('portal.package.sign_in_first')}</p>`
    : ''}
<p class="meta">${c.paybill}</p></div>
${c.trial ? trialBlock(t, p.id, c.trial, c.asksAge) : ''}
${c.teasers.length > 0 ? html`<h2>${t('portal.package.recent', { category: p.bet_category })}</h2>${c.teasers.map((x) => html`<article class="card"><h3>${x.title}</h3>${postMeta(t, x)}</article>`)}` : ''}`,
  );
}

/** "Start a free trial" (decision 089): with the automatic renewal it needs or may have, said with its first debit's day. */
function trialBlock(t: Say, packageId: number, trial: TrialOffer, asksAge: boolean): Html {
  const withRenewal = { days: trial.days, amount: String(trial.amount), date: t.date(trial.firstDebit) };
  return html`<div class="card" data-trial><h2>${t('portal.trial.start')}</h2>
<p class="meta">${trial.needsAutoRenew ? t('portal.trial.offer_auto_renew', withRenewal) : t('portal.trial.offer', { days: trial.days })}</p>
<form method="post" action="/portal/trial"><input type="hidden" name="package_id" value="${packageId}">
${asksAge ? html`<p><label><input type="checkbox" name="adult" value="1" required> ${t('portal.package.age_declaration')}</label></p>` : ''}
${trial.needsAutoRenew
    ? html`<input type="hidden" name="auto_renew" value="1">`
    : trial.autoRenewPossible
      ? html`<p><label><input type="checkbox" name="auto_renew" value="1"> ${t('portal.trial.with_auto_renew')}</label></p>`
      : ''}
<button class="btn secondary" type="submit">${t('portal.trial.start')}</button></form></div>`;
}

export function helpPage(shell: Shell, c: { pay: PayFacts; optOutText: string }): string {
  const t = say(shell);
  return page(
    shell,
    { title: t('portal.help.title'), description: t('portal.help.description', { business: shell.business }) },
    html`<h1>${t('portal.help.heading')}</h1>
${howToPay(shell, t, c.pay, 'h2')}
<p>${t('portal.help.stk')}</p>
<h2>${t('portal.help.stopping')}</h2>
<p>${t('portal.help.stop', { optOut: c.optOutText })} <a href="/portal/account">${t('portal.nav.account')}</a></p>
<h2>${t('portal.help.hand')}</h2><p><a href="tel:${shell.support}">${t('portal.help.call', { support: shell.support })}</a></p>`,
  );
}

/**
 * A trust page's text as the business wrote it (Settings): a blank line ends a paragraph, "# "
 * starts a heading, "- " a list item. Everything is escaped: a setting never carries markup.
 */
export function trustText(text: string): Html {
  const out: Html[] = [];
  let paragraph: string[] = [];
  let items: string[] = [];
  const flush = () => {
    if (paragraph.length > 0) out.push(html`<p>${paragraph.join(' ')}</p>`);
    if (items.length > 0) out.push(html`<ul>${items.map((i) => html`<li>${i}</li>`)}</ul>`);
    paragraph = [];
    items = [];
  };
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '') flush();
    else if (line.startsWith('# ')) {
      flush();
      out.push(html`<h2>${line.slice(2).trim()}</h2>`);
    } else if (line.startsWith('- ')) {
      if (paragraph.length > 0) flush();
      items.push(line.slice(2).trim());
    } else {
      if (items.length > 0) flush();
      paragraph.push(line);
    }
  }
  flush();
  return html`${out}`;
}

export type TrustPage = 'terms' | 'refunds' | 'privacy';

export function trustPage(shell: Shell, which: TrustPage, text: string): string {
  const t = say(shell);
  const title = t(`portal.${which}.title` as CustomerTextId);
  return page(
    shell,
    { title, description: t(`portal.${which}.description` as CustomerTextId, { business: shell.business }) },
    html`<h1>${title}</h1><div class="card trust" data-trust="${which}">${trustText(text)}</div>`,
  );
}

export function signInPage(shell: Shell, c: { next: string; phone?: string; error?: string; codeSent?: string; codeError?: string }): string {
  const t = say(shell);
  const phoneForm = html`<form method="post" action="/portal/sign-in"><input type="hidden" name="next" value="${c.next}">
<label for="phone">${t('portal.sign_in.phone')}</label><input id="phone" name="phone" type="tel" inputmode="tel" autocomplete="tel" placeholder="0712345678" value="${c.phone ?? ''}" required>
${c.error ? html`<p class="error" role="alert">${c.error}</p>` : ''}
<p><button class="btn" type="submit">${t('portal.sign_in.send')}</button></p></form>`;
  const codeForm = html`<p class="notice" role="status">${c.codeSent ?? ''}</p>
<form method="post" action="/portal/verify"><input type="hidden" name="next" value="${c.next}"><input type="hidden" name="phone" value="${c.phone ?? ''}">
<label for="code">${t('portal.sign_in.code', { phone: c.phone ?? '' })}</label><input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="7" required>
${c.codeError ? html`<p class="error" role="alert">${c.codeError}</p>` : ''}
<p><button class="btn" type="submit">${t('portal.sign_in.button')}</button></p></form>
<p class="meta">${t('portal.sign_in.no_sms')} <a href="/portal/sign-in">${t('portal.sign_in.new_code')}</a>.</p>`;
  return page(
    shell,
    { title: t('portal.sign_in.title'), description: t('portal.sign_in.description', { business: shell.business }) },
    html`<h1>${t('portal.sign_in.title')}</h1><p>${t('portal.sign_in.intro')}</p>${c.codeSent || c.codeError ? codeForm : phoneForm}`,
  );
}

export function myTipsPage(shell: Shell, c: { posts: PortalPost[]; total: number; page: number; perPage: number }): string {
  const t = say(shell);
  const last = Math.max(1, Math.ceil(c.total / c.perPage));
  return page(
    shell,
    { title: t('portal.my_tips.title'), description: t('portal.my_tips.description'), index: false },
    html`<h1>${t('portal.my_tips.title')}</h1>
${c.posts.length > 0
    ? c.posts.map((p) => postCard(t, p, 'h2'))
    : html`<div class="card"><p>${t('portal.my_tips.none')}</p><a class="btn" href="/portal/packages">${t('portal.account.see_packages')}</a></div>`}
${pager(t, { page: c.page, last, href: (n) => `/portal/tips?page=${n}` })}`,
  );
}

export function postPage(shell: Shell, c: { post: PortalPost } | { teaser: PortalTeaser }): string {
  const t = say(shell);
  if ('post' in c) {
    const description = t('portal.post.description', { title: c.post.title, categories: c.post.bet_categories.join(', '), date: t.date(c.post.match_date) });
    return page(shell, { title: c.post.title, description }, postCard(t, c.post, 'h1'));
  }
  return page(
    shell,
    { title: c.teaser.title, description: t('portal.teaser.description', { title: c.teaser.title, categories: c.teaser.bet_categories.join(', ') }) },
    teaserCard(t, c.teaser),
  );
}

/** My account; `notice` says what a form just did, or (`warn`) why it was refused. */
export function accountPage(shell: Shell, me: PortalMe, notice?: string, tone: 'notice' | 'warn' = 'notice'): string {
  const t = say(shell);
  return page(
    shell,
    { title: t('portal.account.title'), description: t('portal.account.description'), index: false },
    html`<h1>${t('portal.account.title')}</h1>${notice ? html`<p class="${tone}" role="status" data-testid="account-notice">${notice}</p>` : ''}
<h2>${t('portal.account.subscriptions')}</h2>
${me.subscriptions.length > 0
    ? me.subscriptions.map(
        (s) => html`<article class="card row"><div><h3>${s.bet_category} (${s.bet_category_code}), ${mediumLabel(t, s.medium)}</h3>
<p class="meta">${coverLine(t, s)}</p>
${invoiceBlock(s.invoice, shell.language)}
${autoRenewBlock(t, s.auto_renew, s.subscription_id)}
${pauseBlock(t, s.pause)}</div>
<a class="btn${s.active ? ' secondary' : ''}" href="/portal/packages?category=${s.bet_category_code}&amp;medium=${s.medium}">${t('portal.account.renew')}</a></article>`,
      )
    : html`<p>${t('portal.account.none')}</p><a class="btn" href="/portal/packages">${t('portal.account.see_packages')}</a>`}
<h2>${t('portal.account.sms')}</h2><div class="card">
${me.receives_sms
    ? html`<p>${t('portal.account.receives')}</p><a class="btn secondary" href="/portal/sms?receive=0">${t('portal.account.stop')}</a>`
    : html`<p>${t('portal.account.stopped')}</p><a class="btn" href="/portal/sms?receive=1">${t('portal.account.restart')}</a>`}
</div>
<h2>${t('portal.account.offers')}</h2><div class="card">
<form method="post" action="/portal/offers">
<label><input type="checkbox" name="offers" value="yes"${me.offers_consent ? trusted(' checked') : ''}> ${me.offers_wording}</label>
<p><button class="btn secondary" type="submit">${t('portal.account.save')}</button></p></form>
<p class="meta">${t('portal.account.offers_note')}</p>
</div>
${me.referral_code ? html`<h2 id="referral">${t('portal.account.referral')}</h2><div class="card"><p data-testid="referral-code">${t('portal.account.referral_text', { code: me.referral_code })}</p></div>` : ''}
<h2 id="tax-identity">${t('portal.tax_identity.title')}</h2><div class="card">
<p>${t('portal.tax_identity.text')}</p>
${me.tax_identity ? html`<p class="meta" data-testid="tax-identity-current">${t('portal.tax_identity.current', { pin: me.tax_identity.pin, name: me.tax_identity.name })}</p>` : ''}
<form method="post" action="/portal/tax-identity">
<p><label>${t('portal.tax_identity.pin')} <input name="pin" autocomplete="off" maxlength="11" pattern="[AaPp][0-9]{9}[A-Za-z]" value="${me.tax_identity?.pin ?? ''}"></label></p>
<p><label>${t('portal.tax_identity.name')} <input name="name" maxlength="200" value="${me.tax_identity?.name ?? ''}"></label></p>
<p><button class="btn secondary" type="submit">${t('portal.tax_identity.save')}</button></p></form>
</div>
<h2 id="exclusion">${t('portal.account.exclusion')}</h2><div class="card">
<p>${t('portal.account.exclusion_text')}</p>
<form method="post" action="/portal/exclusion"><fieldset><legend>${t('portal.account.exclusion_period')}</legend>
${(['30', '90', '180'] as const).map((days) => html`<label><input type="radio" name="period" value="${days}" required> ${t('portal.account.exclusion_days', { days })}</label> `)}
<label><input type="radio" name="period" value="forever"> ${t('portal.account.exclusion_forever')}</label></fieldset>
<p><label><input type="checkbox" name="understood" value="yes" required> ${t('portal.account.exclusion_confirm')}</label></p>
<p><button class="btn danger" type="submit" data-testid="exclude-me">${t('portal.account.exclusion_button')}</button></p></form>
</div>`,
  );
}

/**
 * How long a subscription runs: until when and how many days are left, or, renewed by an active
 * standing order, when it renews (no reminder SMS comes for it: the run pays by itself).
 */
function coverLine(t: Say, s: PortalSubscription): string {
  if (!s.active) return t('portal.account.expired', { date: t.dateTime(s.expires_at) });
  const order = s.auto_renew && 'standing_order' in s.auto_renew ? s.auto_renew.standing_order : null;
  if (order?.status === 'active') return t('portal.account.renews', { date: t.dateTime(s.expires_at), next: t.date(order.next_date) });
  return t('portal.account.active', { date: t.dateTime(s.expires_at), days: s.days_left });
}

export function smsConfirmPage(shell: Shell, receive: boolean): string {
  const t = say(shell);
  const question = t(receive ? 'portal.sms.restart_question' : 'portal.sms.stop_question');
  return page(
    shell,
    { title: t(receive ? 'portal.account.restart' : 'portal.account.stop'), description: t('portal.sms.description'), index: false },
    html`<h1>${question}</h1><div class="card">
<p>${t(receive ? 'portal.notice.sms_restarted' : 'portal.sms.stop_text')}</p>
<form method="post" action="/portal/sms"><input type="hidden" name="receive" value="${receive ? 'true' : 'false'}">
<button class="btn${receive ? '' : ' danger'}" type="submit">${t(receive ? 'portal.sms.yes_restart' : 'portal.sms.yes_stop')}</button>
<a href="/portal/account">${t('portal.sms.cancel')}</a></form></div>`,
  );
}

export const purchaseStatusText = (t: Say, status: PortalPurchase['status']): string => t(`portal.purchase.${status}` as CustomerTextId);

/**
 * A subscription's automatic renewal (M-Pesa Ratiba): its status, next payment and how to stop it
 * (one step), or the offer to turn it on; nothing when Ratiba is off or the package has no frequency.
 */
function autoRenewBlock(t: Say, autoRenew: PortalSubscription['auto_renew'], subscriptionId: number): Html | string {
  if (!autoRenew) return '';
  if ('offer' in autoRenew) {
    const { amount, frequency, start_date, end_date, declined_on } = autoRenew.offer;
    return html`<div class="auto-renew" data-auto-renew="offer">${declined_on ? html`<p class="warn" role="status" data-declined>${t('portal.auto_renew.declined', { date: t.date(declined_on) })}</p>` : ''}
<p class="meta">${t('portal.auto_renew.offer', { amount: String(amount), frequency, date: t.date(start_date), end: t.date(end_date) })}</p>
<form method="post" action="/portal/auto-renew"><input type="hidden" name="subscription_id" value="${subscriptionId}">
<button class="btn secondary" type="submit">${t('portal.auto_renew.turn_on')}</button></form></div>`;
  }
  const o = autoRenew.standing_order;
  return html`<div class="auto-renew" data-auto-renew="${o.status}"><p class="status" role="status">${t('portal.auto_renew.status', { status: o.status })}</p>
<p class="meta">${t('portal.auto_renew.next', { amount: String(o.amount), frequency: o.frequency, date: t.date(o.next_date), end: t.date(o.end_date) })}</p>
<p class="meta">${t('portal.auto_renew.how_to_stop')}</p>
<form method="post" action="/portal/auto-renew/stop"><input type="hidden" name="id" value="${o.id}">
<button class="btn secondary" type="submit">${t('portal.auto_renew.stop')}</button></form></div>`;
}

/**
 * A subscription's pause (decision 090): a plain form (the days, then Pause), so it works on any
 * phone's browser without JavaScript; or, once paused, the days its tips are paused.
 */
function pauseBlock(t: Say, pause: PortalSubscription['pause']): Html | string {
  if (!pause) return '';
  if ('paused' in pause) {
    const { starts_at, ends_at } = pause.paused;
    return html`<p class="meta" data-pause="paused">${t('portal.pause.paused', { from: t.dateTime(starts_at), until: t.dateTime(ends_at) })}</p>`;
  }
  const { subscription_id: id, max_days: max } = pause.offer;
  return html`<form class="pause" method="post" action="/portal/pause" data-pause="offer"><input type="hidden" name="subscription_id" value="${id}">
<p><label for="pause-days-${id}">${t('portal.pause.days', { max })}</label>
<input id="pause-days-${id}" name="days" type="number" inputmode="numeric" min="1" max="${max}" size="3" required>
<button class="btn secondary" type="submit">${t('portal.pause.button')}</button></p>
<p class="meta">${t('portal.pause.note')}</p></form>`;
}

export function purchasePage(shell: Shell, p: PortalPurchase, autoRenew: PortalSubscription['auto_renew'] = null, subscriptionId = 0): string {
  const t = say(shell);
  const pending = p.status === 'pending';
  return page(
    shell,
    {
      title: t('portal.purchase.title'),
      description: t('portal.purchase.description'),
      index: false,
      // Without JavaScript the page reloads itself while M-Pesa has not answered; with it, portal.js polls.
      head: pending ? html`<noscript><meta http-equiv="refresh" content="5"></noscript>` : undefined,
      script: pending,
    },
    html`<h1>${p.package}</h1><div class="card" data-purchase="${p.id}">
<p>${t('portal.purchase.amount', { amount: formatKesShort(p.amount) })}</p>
<p class="status" role="status" aria-live="polite" data-status>${purchaseStatusText(t, p.status)}</p>
<p data-detail>${purchaseDetail(t, p)}</p>
${invoiceBlock(p.invoice, shell.language)}
${autoRenewBlock(t, autoRenew, subscriptionId)}
${pending ? html`<p class="meta">${t('portal.purchase.enter_pin')} <a href="/portal/purchases/${p.id}">${t('portal.purchase.refresh')}</a></p>` : ''}
</div><p><a href="/portal/account">${t('portal.nav.account')}</a> · <a href="/portal/tips">${t('portal.nav.my_tips')}</a></p>`,
  );
}

/** The line under the status: the new expiry, or why it did not go through. */
export function purchaseDetail(t: Say, p: PortalPurchase): string {
  if (p.status === 'paid') {
    const runs = p.expires_at ? ` ${t('portal.purchase.runs_until', { date: t.dateTime(p.expires_at) })}` : '';
    return `${t('portal.purchase.receipt', { receipt: p.receipt ?? '' })}${runs}`.trim();
  }
  if (p.status === 'pending') return t('portal.purchase.waiting');
  return `${p.reason ?? t('portal.purchase.not_taken')} ${t('portal.purchase.try_again')}`;
}

/**
 * The page a reader gets while the database does not answer (503): made without it, so no business
 * name, menu or trust lines (those are settings), only the catalogue's words in the reader's language.
 */
export function unavailablePage(language: Language): string {
  const title = fixedText('portal.unavailable.title', language);
  return html`<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title}</title><meta name="robots" content="noindex"><style>${trusted(STYLE)}</style>
</head><body><main><h1>${title}</h1><p class="warn">${fixedText('portal.unavailable.text', language)}</p>
<p><a class="btn" href="/portal">${fixedText('portal.nav.home', language)}</a></p></main></body></html>`.value;
}

/**
 * What an invoice's link by SMS opens (decision 087): the document's number and its two PDFs, the
 * 80 mm receipt first (it fits a phone's screen), A4 for paper.
 */
export function invoiceLinkPage(shell: Shell, c: { number: string; business: string; receiptHref: string; a4Href: string }): string {
  const t = (id: Parameters<typeof fixedText>[0]) => fixedText(id, shell.language, { number: c.number, business: c.business });
  const title = t('portal.invoice_link_page.title');
  return page(
    shell,
    { title, description: title, index: false },
    html`<h1>${title}</h1><p class="notice">${t('portal.invoice_link_page.text')}</p>
<p><a class="btn" href="${c.receiptHref}" data-testid="invoice-link-receipt">${t('portal.invoice_link_page.receipt')}</a></p>
<p><a href="${c.a4Href}" data-testid="invoice-link-a4">${t('portal.invoice_link_page.a4')}</a></p>`,
  );
}

export function messagePage(shell: Shell, c: { title: string; text: string; status?: 'warn' | 'notice'; link?: { href: string; label: string } }): string {
  return page(
    shell,
    { title: c.title, description: c.title, index: false },
    html`<h1>${c.title}</h1><p class="${c.status ?? 'warn'}">${c.text}</p>${c.link ? html`<p><a class="btn" href="${c.link.href}">${c.link.label}</a></p>` : ''}`,
  );
}
