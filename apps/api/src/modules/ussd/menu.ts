/**
 * The USSD menu as a function of the path typed so far (Africa's Talking sends it whole, joined by
 * `*`): no session is stored. The path is replayed from the main menu; `0` steps back (so paging
 * back too), `98` shows the next page of a list, and an input a screen does not offer is dropped,
 * which shows that screen again with a short error when it was the last input. Every word is the
 * catalogue's, in the phone's language; `6 Lugha / Language` on the first screen changes it.
 * A purchase's confirm screen offers `2 Promo code` when the sale goes by STK push (decision 077):
 * the code's screen takes the code, or `0` back to the list price. A daily package (decision 095)
 * asks how many days (1 to 30) before its confirm screen, which shows days x the day price.
 * `8 Pause` (decision 090), last so that no earlier number moved, pauses a weekly or monthly
 * subscription: choose it, type the days, confirm.
 */
import { DAILY_DAYS_MAX, type ExclusionPeriodValue } from '@betdesk/contract';
import type { CustomerTextId, Language } from '../../customer-texts/catalogue.ts';
import type { TextValues } from '../../customer-texts/format.ts';
import { customerDate } from '../../customer-texts/format.ts';
import { fixedText } from '../../customer-texts/texts.ts';

/** Africa's Talking's (and the networks') limit of one screen, `CON `/`END ` included. */
export const SCREEN_MAX = 182;
export const BACK = '0';
export const MORE = '98';
const LABEL_MAX = 28;

/** The menu's fixed words in one language (customer-texts catalogue). */
export interface MenuWords {
  language: Language;
  say(id: CustomerTextId, values?: TextValues): string;
  /** The error line, `\n` included. */
  invalid: string;
  more: string;
  back: string;
}

export function menuWords(language: Language): MenuWords {
  const say = (id: CustomerTextId, values?: TextValues) => fixedText(id, language, values);
  return { language, say, invalid: `${say('ussd.invalid')}\n`, more: `${MORE} ${say('ussd.more')}`, back: `${BACK} ${say('ussd.back')}` };
}

export type Screen = `CON ${string}` | `END ${string}`;

export interface ListItem {
  id: number;
  label: string;
  /** A daily package (decision 095): choosing it asks how many days. */
  daily?: boolean;
}

/** What the menu reads about the world; each is loaded only when a screen needs it. */
export interface MenuFacts {
  /** The phone's language (its choice, else the business's default). */
  language(): Promise<Language>;
  welcome(): Promise<string>;
  optedOut(): Promise<boolean>;
  categories(): Promise<ListItem[]>;
  packages(categoryId: number): Promise<ListItem[]>;
  /**
   * The package a confirmation asks about, or null when it is no longer for sale: a daily package's
   * (decision 095) for the days asked, at days x its day price (`dayPrice`).
   */
  packageOnSale(packageId: number, days?: number): Promise<{ category: string; medium: string; days: number; price: string; dayPrice: string; phone: string } | null>;
  /**
   * One per running subscription; `autoRenew` when M-Pesa Ratiba is on and the package may renew
   * automatically: its live standing order (`orderId`) or the offer (`subscriptionId`).
   */
  subscriptions(): Promise<
    { category: string; code: string; medium: string; date: string; autoRenew?: { orderId: number } | { subscriptionId: number } | null }[]
  >;
  /**
   * What the phone may pause (decision 090): its running weekly or monthly subscriptions not paused
   * yet, the soonest to end first, and the most days; or why it may pause none (a catalogue text).
   */
  pausable(): Promise<{ subscriptions: { id: number; category: string; code: string; medium: string; expiresAt: Date }[]; maxDays: number } | { refusal: string }>;
  /** Whether the confirm screen offers a promo code: only a purchase paid by STK push can take one (decision 077). */
  takesPromoCodes(): Promise<boolean>;
  /** What a typed promo code asks for a package from this phone, or why it cannot be used (catalogue text). */
  promoPrice(packageId: number, code: string, days?: number): Promise<{ price: string } | { refusal: string }>;
  /** Whether a purchase must first ask the phone's 18+ declaration (the age gate on, never declared: decision 060). */
  asksAge(): Promise<boolean>;
  /** Whether the phone has given marketing consent (and not withdrawn it). */
  consented(): Promise<boolean>;
  /** What a person agrees to when they give marketing consent (the setting, in their language). */
  consentWording(): Promise<string>;
}

/** What the final input asks to be done; each ends the session with the END text it returns. */
export type MenuAction =
  | { do: 'buy'; packageId: number; declaresAdult: boolean; code?: string; days?: number }
  | { do: 'todays-tips' }
  | { do: 'sms'; receive: boolean }
  | { do: 'offers'; given: boolean }
  | { do: 'language'; language: Language }
  | { do: 'auto-renew'; subscriptionId: number }
  | { do: 'auto-renew-stop'; orderId: number }
  | { do: 'exclude'; period: ExclusionPeriodValue }
  | { do: 'pause'; subscriptionId: number; days: number };

type State =
  | { at: 'main' }
  | { at: 'categories'; page: number }
  | { at: 'packages'; categoryId: number; page: number }
  | { at: 'days'; packageId: number }
  | { at: 'confirm'; packageId: number; code?: string; days?: number }
  | { at: 'promo'; packageId: number; refused?: string; days?: number }
  | { at: 'age'; packageId: number; code?: string; days?: number }
  | { at: 'subscriptions'; page: number }
  | { at: 'sms' }
  | { at: 'offers' }
  | { at: 'language' }
  | { at: 'exclusion' }
  | { at: 'pause'; page: number }
  | { at: 'pause-days'; subscriptionId: number }
  | { at: 'pause-confirm'; subscriptionId: number; days: number };

/** `swap` replaces the screen shown (a refused code asks again; a priced one confirms) instead of stacking it. */
type Step = { state: State } | { swap: State } | { action: MenuAction } | null;

/**
 * A text cut to fit a line, at a word: "Both Teams To Score Over 2.5" never becomes "Both Teams To
 * S." (a reader cannot tell what a cut word was). Only a first word longer than the line itself is
 * cut inside, as the last resort of a screen that must fit.
 */
export function short(text: string, max = LABEL_MAX): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max + 1);
  const end = head.lastIndexOf(' ');
  if (end <= 0) return text.slice(0, max);
  return head.slice(0, end).replace(/[\s,;:(-]+$/, '');
}

/** A category's name where it fits whole, else its code (D2, BTTS), which is on every price SMS. */
export const nameOrCode = (name: string, code: string, max: number) => (name.length <= max ? name : code);

/**
 * Items cut into pages that fit one screen under `header`, numbered 1..n across pages, with room
 * kept for the error line, `98 More` and `0 Back` on every page.
 */
export function paged(header: string, lines: string[], numbered: boolean, w: MenuWords): string[][] {
  const room = SCREEN_MAX - 'CON '.length - w.invalid.length - header.length - `\n${w.more}`.length - `\n${w.back}`.length;
  const pages: string[][] = [[]];
  lines.forEach((line, index) => {
    const text = numbered ? `${index + 1} ${line}` : line;
    const page = pages[pages.length - 1]!;
    const used = page.reduce((sum, l) => sum + 1 + l.length, 0);
    if (page.length > 0 && used + 1 + text.length > room) pages.push([text]);
    else page.push(text);
  });
  return pages;
}

function listScreen(header: string, pages: string[][], page: number, w: MenuWords): string {
  const more = page < pages.length - 1 ? `\n${w.more}` : '';
  return `${header}\n${pages[page]!.join('\n')}${more}\n${w.back}`;
}

/** The first index shown on a page of a numbered list. */
const firstIndexOf = (pages: string[][], page: number) => pages.slice(0, page).reduce((n, p) => n + p.length, 0);

/** An input on a numbered list's page: `98` for the next page, or one of the numbers shown; else null. */
function listInput(
  input: string,
  items: ListItem[],
  header: string,
  page: number,
  w: MenuWords,
): { nextPage: number } | { chosen: ListItem } | null {
  const pages = paged(header, items.map((i) => i.label), true, w);
  if (input === MORE) return page < pages.length - 1 ? { nextPage: page + 1 } : null;
  if (!/^\d{1,3}$/.test(input)) return null;
  const first = firstIndexOf(pages, page);
  const index = Number(input) - 1;
  return index >= first && index < first + (pages[page]?.length ?? 0) ? { chosen: items[index]! } : null;
}

const packagesHeader = (category: string, w: MenuWords) => w.say('ussd.packages_header', { category: short(category) });
/**
 * My subscriptions: one line per running subscription, then a numbered choice per automatic
 * renewal to turn on ("Renew automatically") or stop ("Stop automatic renewal").
 */
async function subscriptionsScreen(facts: MenuFacts, w: MenuWords): Promise<{ lines: string[]; choices: MenuAction[] }> {
  const found = await facts.subscriptions();
  const lines = found.map((s) =>
    w.say(s.autoRenew && 'orderId' in s.autoRenew ? 'ussd.subscription_auto_line' : 'ussd.subscription_line', {
      category: nameOrCode(s.category, s.code, 20),
      medium: s.medium,
      date: s.date,
    }),
  );
  const choices: MenuAction[] = [];
  for (const { autoRenew, ...s } of found) {
    if (!autoRenew) continue;
    const category = `${nameOrCode(s.category, s.code, 16)} ${s.medium}`;
    const on = 'orderId' in autoRenew;
    choices.push(on ? { do: 'auto-renew-stop', orderId: autoRenew.orderId } : { do: 'auto-renew', subscriptionId: autoRenew.subscriptionId });
    lines.push(`${choices.length} ${w.say(on ? 'ussd.auto_renew_stop' : 'ussd.auto_renew_start', { category })}`);
  }
  return { lines, choices };
}

/** The pausable subscriptions as a numbered list's items ("Daily 2 Odds SMS to 8 Dec 2026"), or why there are none. */
async function pauseItems(facts: MenuFacts, w: MenuWords): Promise<{ items: ListItem[]; maxDays: number } | { refusal: string }> {
  const found = await facts.pausable();
  if ('refusal' in found) return found;
  const items = found.subscriptions.map((s) => ({
    id: s.id,
    label: w.say('ussd.subscription_line', { category: nameOrCode(s.category, s.code, 16), medium: s.medium, date: customerDate(s.expiresAt, w.language) }),
  }));
  return { items, maxDays: found.maxDays };
}

async function step(state: State, input: string, facts: MenuFacts, categoryName: (id: number) => Promise<string>, w: MenuWords): Promise<Step> {
  switch (state.at) {
    case 'main':
      if (input === '1') return { state: { at: 'categories', page: 0 } };
      if (input === '2') return { state: { at: 'subscriptions', page: 0 } };
      if (input === '3') return { action: { do: 'todays-tips' } };
      if (input === '4') return { state: { at: 'sms' } };
      if (input === '5') return { state: { at: 'offers' } };
      if (input === '6') return { state: { at: 'language' } };
      if (input === '7') return { state: { at: 'exclusion' } };
      if (input === '8') return { state: { at: 'pause', page: 0 } };
      return null;
    case 'categories': {
      const got = listInput(input, await facts.categories(), w.say('ussd.categories_header'), state.page, w);
      if (!got) return null;
      return { state: 'nextPage' in got ? { ...state, page: got.nextPage } : { at: 'packages', categoryId: got.chosen.id, page: 0 } };
    }
    case 'packages': {
      const header = packagesHeader(await categoryName(state.categoryId), w);
      const got = listInput(input, await facts.packages(state.categoryId), header, state.page, w);
      if (!got) return null;
      if ('nextPage' in got) return { state: { ...state, page: got.nextPage } };
      // A daily package (decision 095) first asks how many days.
      return { state: got.chosen.daily ? { at: 'days', packageId: got.chosen.id } : { at: 'confirm', packageId: got.chosen.id } };
    }
    case 'days': {
      const days = Number(input);
      return /^\d{1,2}$/.test(input) && days >= 1 && days <= DAILY_DAYS_MAX ? { state: { at: 'confirm', packageId: state.packageId, days } } : null;
    }
    case 'confirm': {
      const code = state.code === undefined ? {} : { code: state.code };
      const days = state.days === undefined ? {} : { days: state.days };
      if (input === '2' && state.code === undefined && (await facts.takesPromoCodes())) return { state: { at: 'promo', packageId: state.packageId, ...days } };
      if (input !== '1') return null;
      return (await facts.asksAge())
        ? { state: { at: 'age', packageId: state.packageId, ...code, ...days } }
        : { action: { do: 'buy', packageId: state.packageId, declaresAdult: false, ...code, ...days } };
    }
    case 'promo': {
      // Any input but 0 (back to the list price) is a code to try.
      if (input === '') return null;
      const days = state.days === undefined ? {} : { days: state.days };
      const priced = await facts.promoPrice(state.packageId, input, state.days);
      return 'refusal' in priced
        ? { swap: { at: 'promo', packageId: state.packageId, refused: priced.refusal, ...days } }
        : { swap: { at: 'confirm', packageId: state.packageId, code: input, ...days } };
    }
    case 'age': {
      const code = state.code === undefined ? {} : { code: state.code };
      const days = state.days === undefined ? {} : { days: state.days };
      return input === '1' ? { action: { do: 'buy', packageId: state.packageId, declaresAdult: true, ...code, ...days } } : null;
    }
    case 'subscriptions': {
      const { lines, choices } = await subscriptionsScreen(facts, w);
      if (/^\d{1,2}$/.test(input) && Number(input) >= 1 && Number(input) <= choices.length) return { action: choices[Number(input) - 1]! };
      if (input !== MORE) return null;
      const pages = paged(w.say('ussd.subscriptions_header'), lines, false, w);
      return state.page < pages.length - 1 ? { state: { at: 'subscriptions', page: state.page + 1 } } : null;
    }
    case 'sms':
      return input === '1' ? { action: { do: 'sms', receive: await facts.optedOut() } } : null;
    case 'offers':
      return input === '1' ? { action: { do: 'offers', given: !(await facts.consented()) } } : null;
    case 'language':
      if (input === '1') return { action: { do: 'language', language: 'en' } };
      if (input === '2') return { action: { do: 'language', language: 'sw' } };
      return null;
    case 'exclusion': {
      // Self-exclusion (decision 059): 1-4 are 30, 90, 180 days and for good.
      const period = (['30', '90', '180', 'forever'] as const)[Number(input) - 1];
      return /^[1-4]$/.test(input) && period ? { action: { do: 'exclude', period } } : null;
    }
    case 'pause': {
      const found = await pauseItems(facts, w);
      if ('refusal' in found) return null;
      const got = listInput(input, found.items, w.say('ussd.pause_header'), state.page, w);
      if (!got) return null;
      return { state: 'nextPage' in got ? { ...state, page: got.nextPage } : { at: 'pause-days', subscriptionId: got.chosen.id } };
    }
    case 'pause-days': {
      const found = await pauseItems(facts, w);
      if ('refusal' in found || !/^\d{1,3}$/.test(input)) return null;
      const days = Number(input);
      return days >= 1 && days <= found.maxDays ? { state: { at: 'pause-confirm', subscriptionId: state.subscriptionId, days } } : null;
    }
    case 'pause-confirm':
      return input === '1' ? { action: { do: 'pause', subscriptionId: state.subscriptionId, days: state.days } } : null;
  }
}

const DAY_MS = 86_400_000;

const agree = (w: MenuWords) => `\n${w.say('ussd.agree')}\n${w.back}`;

/**
 * The consent question exactly as the screen shows it: the setting's wording, cut to fit one
 * screen with its error line. What is shown is what is recorded as agreed to.
 */
export function offersQuestion(wording: string, w: MenuWords): string {
  return short(wording, SCREEN_MAX - 'CON '.length - w.invalid.length - agree(w).length);
}

async function render(state: State, facts: MenuFacts, categoryName: (id: number) => Promise<string>, w: MenuWords): Promise<Screen> {
  switch (state.at) {
    case 'main':
      return `CON ${w.say('ussd.main', { welcome: short(await facts.welcome(), 40), optedOut: (await facts.optedOut()) ? 'yes' : 'no' })}`;
    case 'categories': {
      const items = await facts.categories();
      if (items.length === 0) return `END ${w.say('ussd.none_on_sale')}`;
      const header = w.say('ussd.categories_header');
      return `CON ${listScreen(header, paged(header, items.map((i) => i.label), true, w), state.page, w)}`;
    }
    case 'packages': {
      const items = await facts.packages(state.categoryId);
      if (items.length === 0) return `END ${w.say('ussd.category_none_on_sale')}`;
      const header = packagesHeader(await categoryName(state.categoryId), w);
      return `CON ${listScreen(header, paged(header, items.map((i) => i.label), true, w), state.page, w)}`;
    }
    case 'days': {
      const p = await facts.packageOnSale(state.packageId);
      if (p === null) return `END ${w.say('ussd.package_gone')}`;
      return `CON ${w.say('ussd.days_question', { category: short(p.category), medium: p.medium, price: p.dayPrice, max: DAILY_DAYS_MAX })}\n${w.back}`;
    }
    case 'confirm': {
      const p = await facts.packageOnSale(state.packageId, state.days);
      if (p === null) return `END ${w.say('ussd.package_gone')}`;
      const values = { category: short(p.category), medium: p.medium, days: p.days, price: p.price, phone: p.phone };
      if (state.code !== undefined) {
        const priced = await facts.promoPrice(state.packageId, state.code, state.days);
        if ('refusal' in priced) {
          const days = state.days === undefined ? {} : { days: state.days };
          return render({ at: 'promo', packageId: state.packageId, refused: priced.refusal, ...days }, facts, categoryName, w);
        }
        return `CON ${w.say('ussd.confirm_promo', { ...values, price: priced.price })}\n${w.back}`;
      }
      const promo = (await facts.takesPromoCodes()) ? `\n${w.say('ussd.promo_choice')}` : '';
      return `CON ${w.say('ussd.confirm', values)}${promo}\n${w.back}`;
    }
    case 'promo':
      // The question names its own way back ("or 0 to skip"): no Back line.
      return `CON ${state.refused ? `${state.refused}\n` : ''}${w.say('ussd.promo_question')}`;
    case 'age':
      return `CON ${w.say('ussd.age_question')}\n${w.back}`;
    case 'subscriptions': {
      const { lines, choices } = await subscriptionsScreen(facts, w);
      if (lines.length === 0) return `END ${w.say('ussd.subscriptions_none')}`;
      const header = w.say('ussd.subscriptions_header');
      const pages = paged(header, lines, false, w);
      const shown = `${header}\n${pages[state.page]!.join('\n')}`;
      if (state.page < pages.length - 1) return `CON ${shown}\n${w.more}\n${w.back}`;
      // With an automatic renewal to turn on or stop, the last page waits for the choice.
      return choices.length > 0 ? `CON ${shown}\n${w.back}` : `END ${shown}`;
    }
    case 'sms':
      return `CON ${w.say((await facts.optedOut()) ? 'ussd.sms_start_question' : 'ussd.sms_stop_question')}\n${w.back}`;
    case 'offers':
      return (await facts.consented())
        ? `CON ${w.say('ussd.offers_stop_question')}\n${w.say('ussd.offers_stop_choice')}\n${w.back}`
        : `CON ${offersQuestion(await facts.consentWording(), w)}${agree(w)}`;
    case 'language':
      return `CON ${w.say('ussd.language_question')}\n${w.back}`;
    case 'exclusion':
      return `CON ${w.say('ussd.exclusion_menu')}\n${w.back}`;
    case 'pause': {
      const found = await pauseItems(facts, w);
      if ('refusal' in found) return `END ${found.refusal}`;
      const header = w.say('ussd.pause_header');
      return `CON ${listScreen(header, paged(header, found.items.map((i) => i.label), true, w), state.page, w)}`;
    }
    case 'pause-days': {
      const found = await pauseItems(facts, w);
      if ('refusal' in found) return `END ${found.refusal}`;
      return `CON ${w.say('ussd.pause_days_question', { max: found.maxDays })}\n${w.back}`;
    }
    case 'pause-confirm': {
      const found = await facts.pausable();
      const chosen = 'refusal' in found ? undefined : found.subscriptions.find((s) => s.id === state.subscriptionId);
      if ('refusal' in found) return `END ${found.refusal}`;
      if (!chosen) return `END ${w.say('ussd.pause_gone')}`;
      const values = {
        category: nameOrCode(chosen.category, chosen.code, 16),
        medium: chosen.medium,
        days: state.days,
        date: customerDate(new Date(Date.now() + state.days * DAY_MS), w.language),
        end: customerDate(new Date(chosen.expiresAt.getTime() + state.days * DAY_MS), w.language),
      };
      return `CON ${w.say('ussd.pause_confirm', values)}\n${w.back}`;
    }
  }
}

/** A non-empty screen's text with the error line after its prefix. */
function withError(screen: Screen, w: MenuWords): Screen {
  return screen.startsWith('CON ') ? `CON ${w.invalid}${screen.slice(4)}` : screen;
}

/**
 * Where the path leads: a screen to show, or an action to do (its END text comes from the caller).
 * Inputs after an action cannot come from a real session; they are dropped as invalid.
 */
export async function walk(text: string, facts: MenuFacts): Promise<{ screen: Screen } | { action: MenuAction }> {
  const w = menuWords(await facts.language());
  const inputs = text === '' ? [] : text.split('*').map((i) => i.trim());
  const names = new Map<number, string>();
  const categoryName = async (id: number) => {
    if (!names.has(id)) {
      for (const c of await facts.categories()) names.set(c.id, c.label);
    }
    return names.get(id) ?? 'Tips';
  };
  const path: State[] = [{ at: 'main' }];
  let invalid = false;
  for (const [index, input] of inputs.entries()) {
    const last = index === inputs.length - 1;
    invalid = false;
    if (input === BACK) {
      if (path.length > 1) path.pop();
      continue;
    }
    const next = await step(path[path.length - 1]!, input, facts, categoryName, w);
    if (next && 'action' in next && last) return { action: next.action };
    if (next && 'state' in next) path.push(next.state);
    else if (next && 'swap' in next) path[path.length - 1] = next.swap;
    else invalid = true;
  }
  const screen = await render(path[path.length - 1]!, facts, categoryName, w);
  return { screen: invalid ? withError(screen, w) : screen };
}
